// Rows that are heavy to mount (issue 18): a long file read lays out its first screenful, then the
// rest of its first lines a chunk at a time, once when the page is idle and then as the reader
// scrolls its box (until then they wait, unstyled and not laid out, under hidden="until-found" for
// find-in-page: decisions 481, 518); a Bash stream's chunks are a few spans.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, startHarness, waitForMessages, type Harness } from '../../browser/harness';
import { SESSION, TURN } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const WAIT = { timeout: 10_000 };

const LINE_ROWS = '.file-content .code-lines tr:not(.lines-pending)';

/** One turn with one call of `tool` on `path` whose result is `output`, of `outputType`. */
async function feedResult(page: Page, tool: string, path: string, output: string | Record<string, unknown>, outputType: 'file_content' | 'diff'): Promise<void> {
  const b = streamBuilder(SESSION);
  const T = { turn_id: TURN };
  const call = [b.make('tool.invoke.request', { invocation_id: 'c1', tool_name: tool, input: { file_path: path } }, T), b.make('tool.invoke.result', { invocation_id: 'c1', tool_name: tool, status: 'success', output, output_type: outputType }, T)];
  await feed(page, SESSION, [b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), ...call], true);
}

/** One turn with one Read of `path` whose result is `output` (numbered lines, as the tool gives them). */
const feedRead = (page: Page, path: string, output: string) => feedResult(page, 'Read', path, output, 'file_content');

/** One turn with one `tool` call whose result is the diff `output`. */
const feedDiff = (page: Page, tool: string, output: { file_path: string } & Record<string, unknown>) => feedResult(page, tool, output.file_path, output, 'diff');

/** Holds the page's idle callbacks until runIdle: what a card does before and after the page is idle. */
async function holdIdle(page: Page): Promise<void> {
  // tsx (esbuild keepNames) wraps named functions of the evaluated code in __name().
  await page.evaluate('window.__name = (f) => f');
  await page.evaluate(() => {
    const w = window as unknown as { rawpIdle: IdleRequestCallback[] };
    w.rawpIdle = [];
    window.requestIdleCallback = (cb) => w.rawpIdle.push(cb);
    window.cancelIdleCallback = (id) => {
      w.rawpIdle[id - 1] = () => undefined;
    };
  });
}

/** Runs the idle callbacks held so far, each with time to spare. */
async function runIdle(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { rawpIdle: IdleRequestCallback[] };
    for (const cb of w.rawpIdle.splice(0)) cb({ didTimeout: false, timeRemaining: () => 50 });
  });
}

/** Scrolls the file card's box to its end. */
async function scrollBoxToEnd(page: Page): Promise<void> {
  await page.locator('.tool-card[data-output-type="file_content"] .tool-output').evaluate((el) => el.scrollTo(0, el.scrollHeight));
}

/**
 * Finds `word` with the browser's own find (a text fragment, #:~:text=: headless Chromium has no
 * find bar to type into, and this is the same search that finds hidden="until-found" content,
 * fires `beforematch` on it, reveals it and scrolls the match into view), then waits (bounded)
 * until the cell whose text is `cellText` is laid out inside both scrolling boxes.
 */
async function findInView(page: Page, word: string, cellSelector: string, cellText: string): Promise<void> {
  await page.goto(`${page.url().split('#')[0]}#:~:text=${word}`);
  await page.waitForFunction(
    ({ sel, text }) => {
      const cell = [...document.querySelectorAll(sel)].find((p) => p.textContent === text);
      if (!cell || cell.closest('[hidden]')) return false;
      const r = cell.getBoundingClientRect();
      // Inside the card's box and the transcript's (no named inner function: tsx would wrap it in __name).
      return r.height > 0 && [cell.closest('.tool-output'), document.querySelector('.transcript-scroll')].every((el) => {
        const b = el?.getBoundingClientRect();
        return !!b && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
      });
    },
    { sel: cellSelector, text: cellText },
    WAIT,
  );
}

/** Waits (bounded) until the file card lays out `n` line rows (rows under a hidden ancestor are not laid out). */
async function linesMounted(page: Page, n: number): Promise<number> {
  await page.waitForFunction(({ sel, n }) => [...document.querySelectorAll(sel)].filter((tr) => !tr.closest('[hidden]')).length === n, { sel: LINE_ROWS, n }, WAIT);
  return page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((tr) => !tr.closest('[hidden]')).length, LINE_ROWS);
}

describe('webview in Chromium: heavy rows mount cheaply and lose nothing (issue 18)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§5.3.1 a 300-line read lays out 24 lines, 24 more when the page is idle and 24 more each time its box is scrolled to the end; "Show more" goes on to 300 the same way', async () => {
    const page = await h.open({ height: 900 });
    await holdIdle(page);
    const output = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(6)}\tconst line${i + 1} = ${i + 1};`).join('\n');
    await feedRead(page, 'src/big.ts', output);
    assert.equal(await linesMounted(page, 24), 24);
    assert.equal(await page.locator('.file-content .lines-chunk').count(), 0, 'the hidden rows are not made before the page is idle');
    await runIdle(page);
    assert.equal(await linesMounted(page, 48), 48);
    // Decision 481: the other 102 of the first 150 are there for find-in-page, hidden until found
    // (not laid out), in chunks of 24.
    assert.equal(await page.locator(LINE_ROWS).count(), 150);
    assert.deepEqual(await page.locator('.file-content .lines-chunk').evaluateAll((els) => els.map((e) => e.getAttribute('hidden'))), [null, 'until-found', 'until-found', 'until-found', 'until-found', 'until-found']);
    assert.equal(await page.locator('.file-content .show-more').count(), 0, 'no "Show more" below a card that is still laying out its first lines');
    // Decision 518: each scroll to the end lays out one chunk, never the whole rest at once.
    for (const n of [72, 96, 120, 144, 150]) {
      await scrollBoxToEnd(page);
      assert.equal(await linesMounted(page, n), n);
    }
    assert.deepEqual(await page.locator('.file-content .line-no').evaluateAll((els) => [els[0].textContent, els[149].textContent]), ['1', '150']);
    const more = page.locator('.file-content .show-more');
    await more.waitFor(WAIT);
    assert.match(await more.innerText(), /150 more lines/);
    await more.click();
    // The next 150 are made at once and laid out as the box is scrolled, a chunk at a time.
    assert.equal(await page.locator(LINE_ROWS).count(), 300);
    for (let turns = 0; turns < 10 && (await page.locator('.file-content .lines-chunk[hidden]').count()) > 0; turns++) await scrollBoxToEnd(page).then(() => page.waitForTimeout(50));
    assert.equal(await linesMounted(page, 300), 300);
    assert.match(await page.locator('.file-content .code-lines tr').last().innerText(), /const line300 = 300;/);
    assert.equal(await page.locator('.file-content .show-more').count(), 0);
  });

  it('§5.2 a 200-chunk stream is one span per run of a stream type, in sequence order', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION);
    const T = { turn_id: TURN };
    const chunks = Array.from({ length: 200 }, (_, s) =>
      b.make('tool.invoke.stream', { invocation_id: 'sh', tool_name: 'Bash', stream_type: s === 100 ? 'stderr' : 'stdout', chunk: `[${s}]\n`, sequence: s }, T),
    );
    await feed(page, SESSION, [b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('tool.invoke.request', { invocation_id: 'sh', tool_name: 'Bash', input: { command: 'make' } }, T), ...chunks.reverse()], true);
    await page.waitForFunction(() => (document.querySelector('.stream-output pre')?.textContent ?? '').includes('[199]'), undefined, WAIT);
    const spans = await page.locator('.stream-output pre > span').evaluateAll((els) => els.map((e) => [e.className, e.textContent]));
    assert.deepEqual(spans.map((s) => s[0]), ['stream-stdout', 'stream-stderr', 'stream-stdout']);
    assert.equal(spans[1][1], '[100]\n');
    const text = await page.locator('.stream-output pre').textContent();
    assert.equal(text, Array.from({ length: 200 }, (_, s) => `[${s}]\n`).join(''));
  });

  it('decision 481 find-in-page sees every line of a 150-line file card: a word on line 100 is found, its part of the card revealed and the line scrolled into view', async () => {
    const page = await h.open({ height: 900 });
    const output = Array.from({ length: 150 }, (_, i) => `${String(i + 1).padStart(6)}\t${i + 1 === 100 ? 'const quokka = 100;' : `const line${i + 1} = ${i + 1};`}`).join('\n');
    await feedRead(page, 'src/animals.ts', output);
    // The rest is made when the page is first idle (a moment before anyone types a search), and
    // one chunk laid out: 48 lines, the other 102 hidden until found.
    await page.waitForFunction(() => document.querySelectorAll('.file-content .lines-chunk[hidden="until-found"] tr').length === 102, undefined, WAIT);
    assert.equal(await linesMounted(page, 48), 48, 'the card lays out only its first 48 lines');
    await page.evaluate(() => window.addEventListener('beforematch', () => document.body.setAttribute('data-matched', 'yes'), { capture: true, once: true }));
    await findInView(page, 'quokka', '.file-content .line-text', 'const quokka = 100;');
    assert.equal(await page.locator('body').getAttribute('data-matched'), 'yes', 'the find matched inside the hidden part (beforematch)');
    // Line 100 is in the fourth chunk (lines 97–120): it and the chunks before it are laid out (the
    // ones before it before the browser scrolled to the match, or the check above would have
    // failed), the rest not.
    assert.deepEqual(await page.locator('.file-content .lines-chunk').evaluateAll((els) => els.map((e) => e.getAttribute('hidden'))), [null, null, null, null, 'until-found', 'until-found']);
    assert.equal(await linesMounted(page, 120), 120, 'the lines up to the match are laid out once found');
    const row = page.locator('.file-content .code-lines tr', { hasText: 'const quokka = 100;' });
    assert.equal(await row.locator('.line-no').innerText(), '100');
    // The tables' number columns line up (one width from --line-digits), and "100" fits its cell.
    const [first, found] = await page.locator('.file-content .line-text').evaluateAll((els) => [els[0], els[99]].map((e) => Math.round(e.getBoundingClientRect().left)));
    assert.equal(found, first, 'line 100 starts where line 1 does');
    const fits = await row.locator('.line-no').evaluate((td) => td.scrollWidth <= td.clientWidth);
    assert.ok(fits, 'the three-digit number fits its column');
    // Decision 392 still holds on the revealed lines: the number's tooltip, and a click opens the file there.
    const link = row.locator('.line-link');
    await link.hover();
    await page.waitForFunction(() => !!document.querySelector('.file-content .line-link[data-line="100"]')?.getAttribute('title'), undefined, WAIT);
    assert.equal(await link.getAttribute('title'), 'Open src/animals.ts at line 100');
    await link.click();
    const opened = await waitForMessages(page, 'file.open', 1);
    assert.deepEqual(opened.map((m) => m.payload), [{ path: 'src/animals.ts', line: 100 }]);
  });

  it('§5.3.1 a diff is laid out in fixed columns: five-digit numbers fit theirs, every hunk\'s text starts at one place, and a long line wraps in its cell', async () => {
    const page = await h.open({ height: 900 });
    const long = `+  const message = '${'a long line of code that wraps '.repeat(6)}';`;
    const hunks = [
      { old_start: 9_997, old_lines: 3, new_start: 9_997, new_lines: 4, lines: [' const a = 1;', '-const b = 2;', '+const b = 3;', long, ' const c = 4;'] },
      { old_start: 12, old_lines: 1, new_start: 12, new_lines: 1, lines: ['-x();', '+y();'] },
    ];
    await feedDiff(page, 'Edit', { file_path: 'src/big.ts', created: false, unified_diff: '', hunks, additions: 3, deletions: 2 });
    await page.locator('.hunk').nth(1).waitFor(WAIT);
    const layout = await page.evaluate(() => {
      const first = document.querySelector('.hunk');
      return {
        fixed: first ? getComputedStyle(first).tableLayout : '',
        fit: [...document.querySelectorAll('.hunk:first-of-type .line-no')].every((td) => td.scrollWidth <= td.clientWidth),
        numbers: [...document.querySelectorAll('.hunk:first-of-type .diff-line')].map((tr) => [...tr.querySelectorAll('.line-no')].map((td) => td.textContent)),
        lefts: [...new Set([...document.querySelectorAll('.hunk .line-text')].map((td) => Math.round(td.getBoundingClientRect().left)))],
        wrapped: [...document.querySelectorAll('.hunk .line-text')].map((td) => td.getBoundingClientRect().height).sort((x, y) => y - x),
      };
    });
    assert.equal(layout.fixed, 'fixed');
    assert.deepEqual(layout.numbers, [['9997', '9997'], ['9998', ''], ['', '9998'], ['', '9999'], ['9999', '10000']]);
    assert.ok(layout.fit, 'every number fits its column, 10000 included');
    assert.equal(layout.lefts.length, 1, `one text column across both hunks (${layout.lefts.join(', ')})`);
    assert.ok(layout.wrapped[0] > layout.wrapped[1] * 2, `the long line wraps in its cell (${layout.wrapped.slice(0, 2).join(' vs ')} px)`);
  });

  it('§5.3.1 decision 518 a 1,000-line diff lays out 24 rows, 24 more when the page is idle and one chunk per scroll to the end; find-in-page reaches line 900 and keeps the columns', async () => {
    const page = await h.open({ height: 900 });
    await holdIdle(page);
    // A created file: one hunk of 1,000 added lines (the header is the diff's first row).
    const lines = Array.from({ length: 1000 }, (_, i) => (i + 1 === 900 ? '+const wombat = 900;' : `+const line${i + 1} = ${i + 1};`));
    const hunks = [{ old_start: 0, old_lines: 0, new_start: 1, new_lines: 1000, lines }];
    await feedDiff(page, 'Write', { file_path: 'src/new.ts', created: true, unified_diff: '', hunks, additions: 1000, deletions: 0 });
    const ROWS = '.diff .diff-line';
    const laidOut = async (n: number) => {
      await page.waitForFunction(({ sel, n }) => [...document.querySelectorAll(sel)].filter((tr) => !tr.closest('[hidden]')).length === n, { sel: ROWS, n }, WAIT);
      return page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((tr) => !tr.closest('[hidden]')).length, ROWS);
    };
    // 24 rows: the header and 23 lines; nothing else made before the page is idle.
    assert.equal(await laidOut(23), 23);
    assert.equal(await page.locator(ROWS).count(), 23);
    await runIdle(page);
    assert.equal(await laidOut(47), 47);
    assert.equal(await page.locator(ROWS).count(), 1000, 'every line is in the page for find-in-page');
    const box = page.locator('.tool-card[data-output-type="diff"] .tool-output');
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    assert.equal(await laidOut(71), 71);
    // The hunk goes on across chunk tables without a header or a gap, its text in one column.
    const across = await page.evaluate(() => ({
      headers: document.querySelectorAll('.diff .hunk-header').length,
      lefts: [...new Set([...document.querySelectorAll('.diff .line-text')].filter((td) => !td.closest('[hidden]')).map((td) => Math.round(td.getBoundingClientRect().left)))],
      numbers: [...document.querySelectorAll('.diff .diff-line')].slice(22, 25).map((tr) => tr.querySelectorAll('.line-no')[1].textContent),
      gaps: [...document.querySelectorAll('.diff .hunk')].filter((t) => !t.closest('[hidden]')).map((t) => getComputedStyle(t).marginBottom),
    }));
    assert.equal(across.headers, 1);
    assert.equal(across.lefts.length, 1, `one text column (${across.lefts.join(', ')})`);
    assert.deepEqual(across.numbers, ['23', '24', '25']);
    assert.deepEqual(across.gaps, ['0px', '0px', '0px'], 'no gap inside the hunk');
    await findInView(page, 'wombat', '.diff .line-text', '+const wombat = 900;');
    // Line 900 is row 901 (after the header), in the 37th chunk (rows 889–912): it and every chunk
    // before it are laid out, none after.
    assert.equal(await laidOut(912 - 1), 911);
    const row = page.locator('.diff .diff-line', { hasText: '+const wombat = 900;' });
    assert.equal(await row.locator('.line-no').nth(1).innerText(), '900');
  });
});
