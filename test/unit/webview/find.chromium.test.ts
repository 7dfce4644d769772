// Find in chat (decision 524) in real Chromium: the transcript is virtualized, so the find searches
// the view model's rows, scrolls the virtualizer to a match's row and highlights the match there
// with the CSS Custom Highlight API. The session is long enough that the rows searched for are not
// in the DOM when the search starts.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, feed, pageErrors, rendered, startHarness, type Harness } from '../../browser/harness';
import { applyTheme } from '../../browser/themes/contrast';
import { SESSION, clientCaps, longSession } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const WAIT = { timeout: 15_000 };

type Loose = { type: string; turn_id?: string; payload: Record<string, unknown> };

/** A long session with rare words put into early rows: one answer, a thinking block, and three rows of different kinds. */
function session(total: number): Loose[] {
  const frames = longSession(total) as unknown as Loose[];
  const first = (type: string, turn: string) => frames.find((f) => f.type === type && f.turn_id === turn)!;
  first('agent.text.delta', 'turn-0').payload.text += ' zebraquokka ';
  first('agent.thinking.delta', 'turn-2').payload.text += ' ocelotthought ';
  first('agent.text.delta', 'turn-1').payload.text += ' marmoset ';
  first('tool.invoke.stream', 'turn-3').payload.chunk += 'marmoset\n';
  // A letter whose lower case is longer ('İ' → 'i̇') before the word, which is capitalized: highlight
  // offsets must not shift, and the word must still match in any case.
  first('agent.text.delta', 'turn-4').payload.text += ' İİstanbul Capybara ';
  const prompts = frames.filter((f) => f.type === 'control.prompt.request');
  prompts[5].payload.prompt_text += ' Marmoset';
  return frames;
}

/** The find bar's count once it is known (not "Searching…"). */
async function countOf(page: Page): Promise<string> {
  await page.waitForSelector('.find-count[data-known="true"]', WAIT);
  return (await page.locator('.find-count').textContent()) ?? '';
}

/** Waits (bounded) until the count reads `text`. */
async function countIs(page: Page, text: string | RegExp): Promise<string> {
  await page.waitForFunction(
    ({ src, flags }) => {
      // The count of the query in the field (not one left from the query before).
      const count = document.querySelector<HTMLElement>('.find-count[data-known="true"]');
      return count?.dataset.query === (document.getElementById('find-input') as HTMLInputElement | null)?.value && new RegExp(src, flags).test(count?.textContent ?? '');
    },
    typeof text === 'string' ? { src: `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, flags: '' } : { src: text.source, flags: text.flags },
    WAIT,
  );
  return countOf(page);
}

interface Drawn {
  all: string[];
  current: string[];
  row: number;
  inView: boolean;
  openDetails: boolean | null;
}

/** Waits (bounded) until the current highlight is drawn over `word`, and describes it. */
async function drawn(page: Page, word: string): Promise<Drawn> {
  await page.waitForFunction(
    (w) => {
      const h = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('rawp-find-current');
      return !!h && [...h].some((r) => r.toString().toLowerCase() === w);
    },
    word,
    WAIT,
  );
  await rendered(page);
  return page.evaluate(() => {
    const hl = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
    const all = [...(hl.get('rawp-find') ?? [])].map((r) => r.toString());
    const cur = [...(hl.get('rawp-find-current') ?? [])];
    const node = cur[0].startContainer.parentElement!;
    const row = node.closest<HTMLElement>('.row')!;
    const box = cur[0].getBoundingClientRect();
    const port = document.querySelector('.transcript-scroll')!.getBoundingClientRect();
    return {
      all,
      current: cur.map((r) => r.toString()),
      row: Number(row.dataset.index),
      inView: box.height > 0 && box.top >= port.top - 1 && box.bottom <= port.bottom + 1,
      openDetails: node.closest('details') ? node.closest('details')!.open : null,
    };
  });
}

async function typeQuery(page: Page, text: string): Promise<void> {
  await page.locator('#find-input').fill(text);
}

describe('webview in Chromium: Find in chat over a virtualized transcript (decision 524)', function () {
  this.timeout(240_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('decision 524: Ctrl+F opens the bar; a word in an unmounted early row is found, scrolled to and highlighted; Enter / Shift+Enter cycle; thinking opens; no results; Escape gives focus back', async () => {
    const page = await h.open({ height: 700 });
    await feed(page, SESSION, session(12_000) as never, true);
    const total = await page.evaluate(() => document.querySelector('.row')?.getAttribute('aria-setsize'));
    assert.ok(Number(total) > 1500, `${total} rows`);
    assert.ok((await page.locator('.row').count()) < 60, 'virtualized');
    assert.equal(await page.evaluate(() => document.body.textContent!.toLowerCase().includes('zebraquokka')), false, 'the target row is not mounted');

    // From the composer (anywhere in the chat) Ctrl+F opens the bar and focuses its field.
    await page.locator('.composer .editor').click();
    await page.keyboard.press('Control+f');
    await page.waitForSelector('.find-bar[role="search"]', WAIT);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'find-input');
    assert.equal(await page.locator('#find-input').getAttribute('aria-label'), 'Find in chat');

    await page.keyboard.type('ZebraQuokka');
    assert.equal(await countIs(page, '1 of 1'), '1 of 1');
    const z = await drawn(page, 'zebraquokka');
    assert.deepEqual(z.current.map((s) => s.toLowerCase()), ['zebraquokka']);
    assert.equal(z.all.length, 1);
    assert.ok(z.inView, 'the match is scrolled into view');
    assert.ok(z.row < 10, `an early row: ${z.row}`);
    // Told politely once the typing settled (decision 390: what is new, once it is whole).
    await page.waitForFunction(() => document.querySelector('.find-bar [role="status"][aria-live="polite"]')?.textContent === '1 of 1', undefined, WAIT);

    // Three matches in three rows of different kinds (answer, Bash output, prompt): Enter cycles.
    await typeQuery(page, 'marmoset');
    const start = await countIs(page, /^\d of 3$/);
    const seen = new Map<number, string>();
    let pos = Number(start[0]);
    for (let k = 0; k < 4; k++) {
      if (k > 0) {
        await page.keyboard.press('Enter');
        pos = (pos % 3) + 1;
      }
      assert.equal(await countIs(page, `${pos} of 3`), `${pos} of 3`);
      const d = await drawn(page, 'marmoset');
      assert.ok(d.inView, `match ${pos} in view`);
      if (seen.has(pos)) assert.equal(seen.get(pos), String(d.row), 'the same match is in the same row');
      seen.set(pos, String(d.row));
    }
    assert.equal(new Set(seen.values()).size, 3, `three different rows: ${[...seen.values()]}`);
    const rows = [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => Number(r));
    assert.deepEqual([...rows].sort((a, b) => a - b), rows, 'matches are counted in row order');
    await page.keyboard.press('Shift+Enter');
    const back = ((pos + 1) % 3) + 1;
    assert.equal(await countIs(page, `${back} of 3`), `${back} of 3`);
    assert.equal(String((await drawn(page, 'marmoset')).row), seen.get(back));
    await page.keyboard.press('F3');
    assert.equal(await countIs(page, `${pos} of 3`), `${pos} of 3`);

    // A match in a finished (collapsed) thinking block opens it.
    await typeQuery(page, 'ocelotthought');
    await countIs(page, '1 of 1');
    const th = await drawn(page, 'ocelotthought');
    assert.equal(th.openDetails, true, 'the thinking block was opened');
    assert.ok(th.inView);

    await typeQuery(page, 'nosuchwordanywhere');
    assert.equal(await countIs(page, 'No results'), 'No results');
    assert.equal(await page.evaluate(() => (CSS as unknown as { highlights: Map<string, unknown> }).highlights.has('rawp-find-current')), false);

    // Escape closes the bar and focus goes back to the composer.
    await page.keyboard.press('Escape');
    await page.waitForSelector('.find-bar', { state: 'detached', ...WAIT });
    assert.equal(await page.evaluate(() => document.activeElement?.matches('.composer .editor') === true), true, 'focus is back in the composer');
    assert.deepEqual(pageErrors(page), []);
    await page.close();
  });

  it('decision 524: the session bar button opens the bar; a frame appended while it is open updates the count and keeps the current match; opening again selects the text', async () => {
    const page = await h.open({ height: 700 });
    await feed(page, SESSION, session(6_000) as never, true);
    await page.locator('.session-bar button.find-open').click();
    await page.waitForSelector('.find-bar[role="search"]', WAIT);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'find-input');
    await page.keyboard.type('marmoset');
    const before = await countIs(page, /^\d of 3$/);
    const b = streamBuilder(SESSION, Date.parse('2026-03-17T08:00:00.000Z'));
    await feed(page, SESSION, [b.make('control.prompt.request', { prompt_text: 'one more marmoset please' })]);
    assert.equal(await countIs(page, `${before[0]} of 4`), `${before[0]} of 4`, 'the count grew and the position was kept');
    // Ctrl+F again while open: focus stays in the field, its text selected.
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Control+f');
    await page.waitForFunction(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return el?.id === 'find-input' && el.selectionStart === 0 && el.selectionEnd === el.value.length && el.value.length > 0;
    }, undefined, WAIT);
    // Escape gives focus back to where it was before the bar opened: the session bar's button.
    await page.keyboard.press('Escape');
    await page.waitForSelector('.find-bar', { state: 'detached', ...WAIT });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('find-open')), true);
    assert.deepEqual(pageErrors(page), []);
    await page.close();
  });

  it('decision 524 and 518: a match in a file card\'s line that waits under hidden="until-found" reveals its chunk and is scrolled into the card\'s box', async () => {
    const page = await h.open({ height: 700 });
    const frames = session(6_000);
    const read = frames.find((f) => f.type === 'tool.invoke.result' && f.turn_id === 'turn-1' && f.payload.output_type === 'file_content')!;
    read.payload.output = Array.from({ length: 150 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}${i === 119 ? ' pangolin' : ''}`).join('\n');
    await feed(page, SESSION, frames as never, true);
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Control+f');
    await page.keyboard.type('pangolin');
    await countIs(page, '1 of 1');
    await drawn(page, 'pangolin');
    // tsx (esbuild keepNames) wraps named functions of the evaluated code in __name().
    await page.evaluate('window.__name = (f) => f');
    const where = await page.evaluate(() => {
      const range = [...(CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('rawp-find-current')!][0];
      const cell = range.startContainer.parentElement!;
      const r = range.getBoundingClientRect();
      const inside = (el: Element | null) => {
        const b = el?.getBoundingClientRect();
        return !!b && r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
      };
      return { hidden: cell.closest('[hidden]') !== null, chunk: cell.closest<HTMLElement>('[data-chunk]')?.dataset.chunk, inBox: inside(cell.closest('.tool-output')), inView: inside(document.querySelector('.transcript-scroll')) };
    });
    assert.equal(where.chunk, '3', 'line 120 is in the fourth chunk (24 lines mounted, then chunks of 24)');
    assert.deepEqual(where, { hidden: false, chunk: '3', inBox: true, inView: true });
    await page.close();
  });

  /** A narrow chat with one tool card whose input summary is cut with "…" and two answers naming the word. */
  async function narrowCard(width = 300): Promise<Page> {
    const page = await h.open({ width, height: 600 });
    const b = streamBuilder(SESSION);
    const T = { turn_id: 'turn-a' };
    await feed(page, SESSION, [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: 'turn-a', turn_index: 0 }, T),
      b.make('agent.text.delta', { content_index: 0, text: 'I will read src/greeting.ts now.' }, T),
      b.make('tool.invoke.request', { invocation_id: 'r1', tool_name: 'Read', input: { file_path: 'src/some/deeply/nested/folder/of/the/project/greeting.ts' } }, T),
      b.make('tool.invoke.result', { invocation_id: 'r1', tool_name: 'Read', status: 'success', output: 'export const hi = 1;', output_type: 'text', duration_ms: 3 }, T),
      b.make('agent.text.delta', { content_index: 1, text: 'greeting.ts exports hi; greeting.ts is small.' }, T),
    ] as never, true);
    return page;
  }

  it('the current match inside a summary cut with "…" is shown: the box shows its whole text while it holds the current match', async () => {
    const page = await narrowCard();
    const summary = page.locator('.tool-summary');
    assert.ok(await summary.evaluate((el) => el.scrollWidth > el.clientWidth), 'the summary is cut at 300 px');
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Control+f');
    await page.keyboard.type('nested/folder/of/the/project/greeting');
    assert.equal(await countIs(page, '1 of 1'), '1 of 1');
    await drawn(page, 'nested/folder/of/the/project/greeting');
    const seen = async () =>
      page.evaluate(() => {
        const range = [...(CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('rawp-find-current')!][0];
        const box = range.startContainer.parentElement!.closest('.tool-summary')!;
        const b = box.getBoundingClientRect();
        const rects = [...range.getClientRects()];
        return { whole: rects.every((r) => r.width > 0 && r.left >= b.left - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1), cut: box.scrollWidth > box.clientWidth + 1 };
      });
    assert.deepEqual(await seen(), { whole: true, cut: false });
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-find-in-cut-summary.png') });
    // Another query whose match is elsewhere: the summary is cut with "…" again.
    await typeQuery(page, 'exports');
    await countIs(page, '1 of 1');
    await drawn(page, 'exports');
    assert.ok(await summary.evaluate((el) => el.scrollWidth > el.clientWidth), 'cut again once it no longer holds the current match');
    await page.keyboard.press('Escape');
    assert.ok(await summary.evaluate((el) => !el.hasAttribute('data-find-unclipped')));
    await page.close();
  });

  it('the current match differs clearly from the other matches in every theme, also where findMatchBackground equals the highlight colour (Dark 2026)', async () => {
    const themes = (JSON.parse(readFileSync(join(__dirname, '../../browser/themes/vscode-themes.json'), 'utf8')) as { themes: Record<string, { bodyClass: string; vars: Record<string, string> }> }).themes;
    for (const [name, theme] of Object.entries(themes)) {
      const page = await narrowCard(500);
      const same = theme.vars['--vscode-editor-findMatchHighlightBackground'];
      await applyTheme(page, { ...theme, vars: { ...theme.vars, ...(same ? { '--vscode-editor-findMatchBackground': same } : {}) } });
      await page.locator('.transcript-scroll').focus();
      await page.keyboard.press('Control+f');
      await page.keyboard.type('greeting');
      await countIs(page, /^\d of 4$/);
      // The last match: its row has another match before it.
      await page.keyboard.press('Shift+Enter');
      await countIs(page, '4 of 4');
      await drawn(page, 'greeting');
      await rendered(page);
      // tsx (esbuild keepNames) wraps named functions of the evaluated code in __name().
      await page.evaluate('window.__name = (f) => f');
      // The painted boxes of the current match and of another, as mean colours of their pixels.
      const boxes = await page.evaluate(() => {
        const hl = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
        const cur = [...hl.get('rawp-find-current')!][0];
        const other = [...hl.get('rawp-find')!].find((r) => r.startContainer !== cur.startContainer || r.startOffset !== cur.startOffset)!;
        const box = (r: Range) => {
          const b = r.getClientRects()[0];
          return { x: b.left, y: b.top, width: b.width, height: b.height };
        };
        return { cur: box(cur), other: box(other) };
      });
      const mean = async (clip: { x: number; y: number; width: number; height: number }) => {
        const png = (await page.screenshot({ clip })).toString('base64');
        return page.evaluate(async (data) => {
          const img = new Image();
          img.src = `data:image/png;base64,${data}`;
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.width;
          c.height = img.height;
          const g = c.getContext('2d')!;
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          const sum = [0, 0, 0];
          for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k] += d[i + k];
          return sum.map((v) => v / (d.length / 4));
        }, png);
      };
      const [a, b] = [await mean(boxes.cur), await mean(boxes.other)];
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (name === 'Dark 2026') await page.screenshot({ path: join(RESULTS_DIR, 'webview-find-current-dark-2026.png') });
      assert.ok(distance > 80, `${name}: current ${a.map(Math.round)} vs other ${b.map(Math.round)} (distance ${Math.round(distance)})`);
      await page.close();
    }
  });

  it('decision 524 in Korean: the count and "no results" in the Korean catalogue; a letter that grows when lower-cased (İ) does not shift the highlight', async () => {
    const page = await h.open({ height: 700, locale: 'ko-KR' });
    await feed(page, SESSION, session(3_000) as never, true);
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Control+f');
    await page.waitForSelector('.find-bar[role="search"]', WAIT);
    await page.keyboard.type('marmoset');
    assert.match(await countIs(page, /^\d개 중 \d번째$/), /^3개 중 [123]번째$/);
    await typeQuery(page, 'nosuchwordanywhere');
    assert.equal(await countIs(page, '결과 없음'), '결과 없음');
    // A row whose text has letters that grow when lower-cased ('İ') before the match.
    await typeQuery(page, 'capybara');
    assert.equal(await countIs(page, '1개 중 1번째'), '1개 중 1번째');
    const d = await drawn(page, 'capybara');
    assert.deepEqual(d.current, ['Capybara'], 'the highlight covers the word itself, in its own case');
    assert.deepEqual(await pageErrors(page), [], 'no error on the page');
    await page.close();
  });
});
