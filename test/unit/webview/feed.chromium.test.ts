// The transcript's keyboard path (decision 420, the ARIA feed pattern's keys): the rows are
// virtualized, yet PageDown walks focus through every one of them, first to last, and back up; and
// Control/Meta + Home/End leave the feed to the Tab stop before / after it (decision 480).
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, startHarness, type Harness } from '../../browser/harness';
import { SESSION, longSession } from '../../browser/streams';

const WAIT = { timeout: 10_000 };

interface Focused {
  index: number;
  posinset: string | null;
  setsize: string | null;
  role: string | null;
  text: string;
  inView: boolean;
}

/** Waits (bounded) until the focused element is row `index`, and returns what it holds. */
async function focusedRow(page: Page, index: number): Promise<Focused> {
  await page.waitForFunction((i) => (document.activeElement as HTMLElement | null)?.dataset.index === String(i), index, WAIT);
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const box = el.getBoundingClientRect();
    const port = document.querySelector('.transcript-scroll')!.getBoundingClientRect();
    return {
      index: Number(el.dataset.index),
      posinset: el.getAttribute('aria-posinset'),
      setsize: el.getAttribute('aria-setsize'),
      role: el.getAttribute('role'),
      text: el.textContent ?? '',
      inView: box.top < port.bottom && box.bottom > port.top,
    };
  });
}

describe('webview in Chromium: the transcript as a feed by keyboard (decision 420)', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('WCAG 2.1.1 PageDown walks focus through every row of a long virtualized session, first to last; PageUp and End work too', async () => {
    const page = await h.open({ height: 700 });
    await feed(page, SESSION, longSession(1000), true);
    // The view model's rows, in order: what each focused row must show.
    const expected = await page.evaluate(() => {
      const tx = (window as unknown as { rawpStore: { transcript: { timeline: { kind: string; index?: number; open?: boolean; prompt?: { prompt_text: string }; blocks?: { kind: string }[] }[] } } }).rawpStore.transcript;
      const out: string[] = [];
      for (const e of tx.timeline) {
        if (e.kind === 'prompt') out.push(`prompt:${e.prompt!.prompt_text}`);
        else if (e.kind === 'turn') {
          out.push(`start:Turn ${e.index! + 1}`);
          for (const b of e.blocks!) out.push(`block:${b.kind}`);
          if (!e.open) out.push('end');
        }
      }
      return out;
    });
    assert.ok(expected.length > 100, `${expected.length} rows`);
    const rowsInDom = await page.locator('.row').count();
    assert.ok(rowsInDom < expected.length / 2, `virtualized: ${rowsInDom} of ${expected.length} rows in the DOM`);
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.getAttribute('role') === 'article', undefined, WAIT);
    await page.keyboard.press('Home');
    const seen: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      if (i > 0) await page.keyboard.press('PageDown');
      const f = await focusedRow(page, i);
      assert.equal(f.role, 'article');
      assert.equal(f.posinset, String(i + 1));
      assert.equal(f.setsize, String(expected.length));
      assert.ok(f.inView, `row ${i} was scrolled into view`);
      const want = expected[i];
      if (want.startsWith('prompt:')) assert.ok(f.text.includes(want.slice(7)), `row ${i} is the prompt "${want.slice(7)}": ${f.text.slice(0, 80)}`);
      else if (want.startsWith('start:')) assert.equal(f.text.trim(), want.slice(6), `row ${i}`);
      else if (want === 'block:tool') assert.match(f.text, /Bash|Read/, `row ${i} is a tool card`);
      else if (want === 'end') assert.match(f.text, /^Done · 2 tool calls/, `row ${i} is a turn end: ${f.text}`);
      seen.push(want);
    }
    assert.equal(seen.length, expected.length, 'every row was reached');
    // At the last row PageDown stays there; PageUp goes back one; Home and End jump.
    await page.keyboard.press('PageDown');
    assert.equal((await focusedRow(page, expected.length - 1)).posinset, String(expected.length));
    await page.keyboard.press('PageUp');
    assert.equal((await focusedRow(page, expected.length - 2)).index, expected.length - 2);
    await page.keyboard.press('Home');
    assert.equal((await focusedRow(page, 0)).text.includes('Please'), true);
    await page.keyboard.press('End');
    assert.equal((await focusedRow(page, expected.length - 1)).index, expected.length - 1);
  });

  it('decision 480 (APG feed: Control+End / Control+Home): from a row, focus leaves the feed to the Tab stop after it (the composer) and before it (the session bar); Meta works as on a Mac; a row text field keeps the keys', async () => {
    const page = await h.open({ height: 700 });
    await feed(page, SESSION, longSession(300), true);
    /** Waits (bounded) until the focused element matches `check` (run in the page), then describes it. */
    const focusWhere = async (what: string, check: string): Promise<string> => {
      await page.waitForFunction(check, undefined, WAIT).catch(async () => {
        const now = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
        throw new Error(`focus did not move to ${what}; it is on ${now}`);
      });
      return page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160) ?? '');
    };
    const onRow = '(document.activeElement?.getAttribute("role") === "article")';
    const onComposer = '(document.activeElement?.matches(".composer .editor[role=textbox]") === true)';
    const onScroller = '(document.activeElement?.classList.contains("transcript-scroll") === true)';
    const inFeed = '(document.querySelector(".transcript-scroll")?.contains(document.activeElement) === true)';
    const beforeFeed = '(() => { const a = document.activeElement, f = document.querySelector(".transcript-scroll"); return !!a && !!f && a !== document.body && !f.contains(a) && (f.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_PRECEDING) !== 0; })()';

    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('PageDown');
    await focusWhere('a row', onRow);
    await page.keyboard.press('Control+End');
    await focusWhere('the composer (the first Tab stop after the feed)', onComposer);
    // Nothing lies between: Shift+Tab from the composer lands back in the feed (its last Tab stop).
    await page.keyboard.press('Shift+Tab');
    await focusWhere('the feed, one Tab stop before the composer', inFeed);

    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('PageDown');
    await focusWhere('a row', onRow);
    await page.keyboard.press('Control+Home');
    const before = await focusWhere('the Tab stop before the feed', beforeFeed);
    assert.ok(await page.evaluate(() => document.querySelector('.session-bar')?.contains(document.activeElement) === true), `in the session bar: ${before}`);
    // It is the nearest one: Tab from it lands on the feed.
    await page.keyboard.press('Tab');
    await focusWhere('the transcript, one Tab stop after it', onScroller);

    // From the transcript itself (no row focused) and with Meta, as Cmd+End on a Mac keyboard.
    await page.keyboard.press('Meta+End');
    await focusWhere('the composer after Meta+End', onComposer);
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Meta+Home');
    await focusWhere('the Tab stop before the feed after Meta+Home', beforeFeed);

    // Inside a text field of a row Control+End is the field's own (end of its text): focus stays.
    await page.evaluate(() => {
      const row = document.querySelector('.transcript-scroll .row[role=article]')!;
      const field = document.createElement('input');
      field.id = 'probe-field';
      row.appendChild(field);
      field.focus();
    });
    await focusWhere('the probe field', '(document.activeElement?.id === "probe-field")');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('x');
    await page.waitForFunction(() => (document.getElementById('probe-field') as HTMLInputElement | null)?.value === 'x', undefined, WAIT);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'probe-field', 'focus stayed in the field');
    await page.close();
  });
});
