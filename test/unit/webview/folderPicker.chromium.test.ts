// Decision 363 in real Chromium: the @ picker shows a folder candidate (path ending in "/", or a
// folder's MIME type) with a folder icon; picking it inserts a chip that is a folder too (icon and
// name: it was "file docs/guide/" in the new-user trial) whose prompt carries a folder reference
// (§16.2), and the prompt's chip in the transcript shows a folder and opens it.
import { strict as assert } from 'node:assert';
import { feed, rendered, sentFrames, startHarness, waitForMessages, type Harness } from '../../browser/harness';
import { SESSION, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('webview in Chromium: folders in the @ picker (issue 15, decision 363)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§16.1.2 §16.2 a folder candidate has a folder icon; picking it sends a folder reference (inode/directory, trailing "/")', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b)], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('review @aud');
    await page.waitForFunction(() => (window as unknown as { rawpFake: { sentFrames(t: string): unknown[] } }).rawpFake.sentFrames('control.file.search').length >= 1);
    const [search] = await sentFrames(page, 'control.file.search');
    await feed(page, SESSION, [
      b.make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path: 'src/audit/', name: 'audit', directory: 'src', mime_type: 'inode/directory' }, { path: 'src/audit/log.ts', name: 'log.ts', directory: 'src/audit', extension: '.ts' }], truncated: false }, { parent_id: search.message_id }),
    ]);
    const options = page.locator('[role=listbox] [role=option]');
    assert.equal(await options.nth(0).locator('.codicon-folder').count(), 1);
    assert.equal(await options.nth(1).locator('.codicon-file').count(), 1);
    await page.keyboard.press('Tab');
    // The chip in the box is a folder too, by its icon and its name (it said "file src/audit/").
    const boxChip = page.locator('.editor .chip');
    assert.equal(await boxChip.getAttribute('aria-label'), 'folder src/audit/');
    assert.equal(await boxChip.locator('.codicon-folder').count(), 1);
    assert.equal(await boxChip.locator('.codicon-file').count(), 0);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { rawpFake: { sentFrames(t: string): unknown[] } }).rawpFake.sentFrames('control.prompt.request').length >= 1);
    const [prompt] = await sentFrames(page, 'control.prompt.request');
    assert.equal(prompt.payload.prompt_text, 'review <@file:ref_0|src/audit/>');
    assert.deepEqual(prompt.payload.file_references, [{ ref_id: 'ref_0', path: 'src/audit/', name: 'audit', mime_type: 'inode/directory', workspace_relative_path: 'src/audit/' }]);
    await rendered(page);
    const chip = page.locator('.prompt-block button.chip');
    assert.equal(await chip.locator('.codicon-folder').count(), 1);
    await chip.click();
    assert.deepEqual((await waitForMessages(page, 'file.open', 1)).map((m) => m.payload), [{ path: 'src/audit/' }]);
  });

  it('§16.1.2 a candidate the search calls a folder by its MIME type alone is a folder chip ("폴더 docs" in Korean), and its reference stays a folder', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b)], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('@doc');
    await page.waitForFunction(() => (window as unknown as { rawpFake: { sentFrames(t: string): unknown[] } }).rawpFake.sentFrames('control.file.search').length >= 1);
    const [search] = await sentFrames(page, 'control.file.search');
    await feed(page, SESSION, [b.make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path: 'docs', name: 'docs', directory: '', mime_type: 'inode/directory' }], truncated: false }, { parent_id: search.message_id })]);
    assert.equal(await page.locator('[role=listbox] [role=option] .codicon-folder').count(), 1);
    await page.keyboard.press('Tab');
    const chip = page.locator('.editor .chip');
    assert.equal(await chip.getAttribute('aria-label'), '폴더 docs');
    assert.equal(await chip.locator('.codicon-folder').count(), 1);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { rawpFake: { sentFrames(t: string): unknown[] } }).rawpFake.sentFrames('control.prompt.request').length >= 1);
    const [prompt] = await sentFrames(page, 'control.prompt.request');
    assert.deepEqual(prompt.payload.file_references, [{ ref_id: 'ref_0', path: 'docs', name: 'docs', mime_type: 'inode/directory', workspace_relative_path: 'docs' }]);
    await rendered(page);
    assert.equal(await page.locator('.prompt-block button.chip .codicon-folder').count(), 1, 'the sent prompt shows a folder too');
  });
});
