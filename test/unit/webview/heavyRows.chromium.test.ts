// Rows that are heavy to mount (issue 18): a long file read mounts its first screenful, then the
// rest of its first lines as the reader scrolls its box; a Bash stream's chunks are a few spans.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, startHarness, type Harness } from '../../browser/harness';
import { SESSION, TURN } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const WAIT = { timeout: 10_000 };

/** Waits (bounded) until the file card has `n` line rows mounted. */
async function linesMounted(page: Page, n: number): Promise<number> {
  await page.waitForFunction((n) => document.querySelectorAll('.file-content .code-lines tr:not(.lines-pending)').length === n, n, WAIT);
  return page.locator('.file-content .code-lines tr:not(.lines-pending)').count();
}

describe('webview in Chromium: heavy rows mount cheaply and lose nothing (issue 18)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§5.3.1 a 300-line read mounts 40 lines, the rest of its first 150 once its box is scrolled, then all 300 on "Show more"', async () => {
    const page = await h.open({ height: 900 });
    const b = streamBuilder(SESSION);
    const T = { turn_id: TURN };
    const output = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(6)}\tconst line${i + 1} = ${i + 1};`).join('\n');
    await feed(
      page,
      SESSION,
      [
        b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
        b.make('tool.invoke.request', { invocation_id: 'r1', tool_name: 'Read', input: { file_path: 'src/big.ts' } }, T),
        b.make('tool.invoke.result', { invocation_id: 'r1', tool_name: 'Read', status: 'success', output, output_type: 'file_content' }, T),
      ],
      true,
    );
    assert.equal(await linesMounted(page, 40), 40);
    assert.equal(await page.locator('.file-content .show-more').count(), 0, 'no "Show more" below a card that is still mounting its first lines');
    await page.locator('.tool-card[data-output-type="file_content"] .tool-output').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    assert.equal(await linesMounted(page, 150), 150);
    assert.deepEqual(await page.locator('.file-content .line-no').evaluateAll((els) => [els[0].textContent, els[149].textContent]), ['1', '150']);
    const more = page.locator('.file-content .show-more');
    await more.waitFor(WAIT);
    assert.match(await more.innerText(), /150 more lines/);
    await more.click();
    assert.equal(await linesMounted(page, 300), 300);
    assert.match(await page.locator('.file-content .code-lines tr').last().innerText(), /const line300 = 300;/);
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
});
