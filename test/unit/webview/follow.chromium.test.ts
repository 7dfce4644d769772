// The transcript follows new output while the reader is at the bottom and stays put while they read
// above it, in real Chromium. Issue 18 gave the virtualizer a getItemKey that changes only when the
// rows' keys change (so text streaming into the last row re-measures that row alone, not every
// row); these check that streaming into a row, a new row, and both while scrolled up still behave.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, rendered, startHarness, type Harness } from '../../browser/harness';
import { SESSION, longSession } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const gapToEnd = (page: Page) => page.locator('.transcript-scroll').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
const scrollTop = (page: Page) => page.locator('.transcript-scroll').evaluate((el) => el.scrollTop);
const lastRowText = (page: Page) => page.locator('.row').evaluateAll((els) => {
  const last = els.reduce((a, b) => (Number((b as HTMLElement).dataset.index) > Number((a as HTMLElement).dataset.index) ? b : a));
  return last.textContent ?? '';
});

describe('webview in Chromium: the transcript follows new output only from the bottom (issue 18)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  /** A 600-frame session, then an open turn whose answer streams in (`live` deltas, one feed each). */
  async function openLiveTurn(page: Page) {
    const b = streamBuilder(SESSION, Date.parse('2026-03-16T08:00:00.000Z'));
    await feed(page, SESSION, longSession(600, b), true);
    const T = { turn_id: 'turn-live' };
    await feed(page, SESSION, [b.make('control.prompt.request', { prompt_text: 'One more change' }), b.make('session.turn.start', { turn_id: 'turn-live', turn_index: 999 }, T)]);
    return {
      async stream(words: string[]) {
        for (const w of words) await feed(page, SESSION, [b.make('agent.text.delta', { content_index: 0, text: `${w}\n\n` }, T)]);
      },
      async newRow(command: string) {
        await feed(page, SESSION, [b.make('tool.invoke.request', { invocation_id: `inv-${command}`, tool_name: 'Bash', input: { command } }, T)]);
      },
    };
  }

  it('text streaming into the last row keeps the bottom in view, as does a new row', async () => {
    const page = await h.open({ height: 500 });
    const live = await openLiveTurn(page);
    // Each delta is a paragraph: the answer row grows well past the viewport without a new row.
    await live.stream(Array.from({ length: 40 }, (_, i) => `paragraph${i}`));
    await rendered(page);
    assert.ok((await gapToEnd(page)) < 48, `at the end after streaming (${await gapToEnd(page)}px from it)`);
    assert.match(await lastRowText(page), /paragraph39/);
    await live.newRow('npm run lint');
    await rendered(page);
    assert.ok((await gapToEnd(page)) < 48, `at the end after a new row (${await gapToEnd(page)}px from it)`);
    assert.match(await lastRowText(page), /npm run lint/);
  });

  it('scrolled up, neither streaming text nor a new row moves what the reader sees', async () => {
    const page = await h.open({ height: 500 });
    const live = await openLiveTurn(page);
    await live.stream(['first']);
    await page.locator('.transcript-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await rendered(page);
    const top = await scrollTop(page);
    const firstSeen = await page.locator('.row').first().getAttribute('data-index');
    await live.stream(Array.from({ length: 20 }, (_, i) => `more${i}`));
    await live.newRow('npm test');
    await rendered(page);
    assert.ok(Math.abs((await scrollTop(page)) - top) < 2, `the scroll position stays (${top} → ${await scrollTop(page)})`);
    assert.equal(await page.locator('.row').first().getAttribute('data-index'), firstSeen, 'the same rows are on screen');
    assert.ok((await gapToEnd(page)) > 1000, 'the reader was not taken to the end');
  });
});
