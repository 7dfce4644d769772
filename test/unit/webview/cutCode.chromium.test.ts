// Decisions 516 and 533 in real Chromium: an agent's answer over the view's frame budget arrives cut
// in the middle, as the host cuts it (`forView`). A code block that spans the cut says so before it
// is copied, its copy keeps the mark where the code is missing and its button says what was
// copied; a block before the cut copies whole, as any block does.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, sentMessages, waitForMessages } from '../../browser/harness';
import { SESSION, TURN } from '../../browser/streams';
import { harnessPerSuite, T } from '../../browser/turnPage';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import type { WireFrame } from '../../../src/protocol/frameTypes';
import { forView } from '../../../src/extension/viewFrames';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';
import { MAX_MARKDOWN } from '../../../webview-ui/src/view/textBlocks';

describe('webview in Chromium: code cut to fit the view (decision 533)', function () {
  this.timeout(60_000);
  const chromium = harnessPerSuite();
  let page: Page;
  let left: number;

  before(async () => {
    page = await chromium.h.open({ height: 1600 });
    const b = streamBuilder(SESSION);
    // Nearly three bytes a character in UTF-8: over 512 KB as a frame, under the view's markdown
    // limit in characters once cut (fitting cuts no more than is over), so it stays markdown.
    const line = '  // 한국어주석이달린긴코드줄입니다가나다라마바사아자차카타파하한국어주석이달린긴코드줄\n';
    const whole = ['Before the cut:', '```ts', 'const intact = 1;', '```', 'The long one:', '```ts', line.repeat(9_000) + 'const last = 2;', '```', 'Done.'].join('\n');
    const done = b.make('agent.text.done', { content_index: 0, full_text: whole }, T);
    const [cut] = forView([done as WireFrame], SESSION);
    const text = (cut.payload as { full_text: string }).full_text;
    const mark = CUT_MARK_PATTERN.exec(text);
    assert.ok(mark && text.length < MAX_MARKDOWN, 'the fixture is cut as the host cuts it, and stays markdown');
    left = Number(mark[1]);
    await feed(page, SESSION, [b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), cut], true);
    await page.locator('.code-block').nth(1).waitFor();
  });

  it('a block that spans the cut says how many characters it lacks, before and after its copy', async () => {
    const block = page.locator('.code-block').nth(1);
    const count = left.toLocaleString('en-US');
    assert.equal(await block.locator('.code-cut').innerText(), `${count} characters were left out of the middle to fit the chat`);
    const button = block.locator('.copy-code');
    assert.equal(await button.getAttribute('aria-label'), `Copy code (the ${count} characters left out stay out)`);
    await button.click();
    const [copy] = await waitForMessages(page, 'clipboard.write', 1);
    const copied = (copy.payload as { text: string }).text;
    assert.match(copied, CUT_MARK_PATTERN, 'the mark stays where the code is missing');
    assert.ok(copied.startsWith('  // 한국어') && copied.endsWith('const last = 2;\n'), 'its start and its end are there');
    assert.equal(await button.getAttribute('aria-label'), `Copied, without the ${count} characters left out`);
  });

  it('a block before the cut has no note and copies whole', async () => {
    const block = page.locator('.code-block').first();
    assert.equal(await block.locator('.code-cut').count(), 0);
    const before = (await sentMessages(page)).filter((m) => m.kind === 'clipboard.write').length;
    await block.locator('.copy-code').click();
    const copies = await waitForMessages(page, 'clipboard.write', before + 1);
    assert.equal((copies[before].payload as { text: string }).text, 'const intact = 1;\n');
    assert.equal(await block.locator('.copy-code').getAttribute('aria-label'), 'Copied');
  });
});
