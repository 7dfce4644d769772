// §6.1.1 attachments in the composer, in real Chromium on the fixture page (the same bundle as the
// VS Code view and the browser master): a pasted image and a dropped file become chips (thumbnail
// / icon + name), each stored through the transport's `attachment.add` before it is sent; a chip
// is removed from the keyboard; the prompt carries the stored ones as `context_files`.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hostSays, openAtComposer, pageErrors, RESULTS_DIR, sentFrames, sentMessages, startHarness, violations, waitForSent, type Harness } from '../../browser/harness';
import { SESSION } from '../../browser/streams';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Dispatches a paste (target: the editor) or a drop (target: the composer box) carrying files. */
async function transfer(page: Page, how: 'paste' | 'drop', files: Array<{ name: string; type: string; base64?: string; text?: string }>): Promise<void> {
  await page.evaluate(
    ({ how, files }) => {
      const dt = new DataTransfer();
      for (const f of files) {
        const bytes = f.base64 !== undefined ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(f.text ?? '');
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      if (how === 'paste') document.querySelector('.editor')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      else {
        const box = document.querySelector('.composer-box')!;
        box.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    },
    { how, files },
  );
}

type AddMessage = { kind: string; payload: { request_id: string; session_id: string; file_name: string; mime_type: string; data: string } };

async function adds(page: Page, n: number): Promise<AddMessage['payload'][]> {
  await page.waitForFunction((n) => (window as unknown as { rawpFake: { sent: Array<{ kind: string }> } }).rawpFake.sent.filter((m) => m.kind === 'attachment.add').length >= n, n);
  return ((await sentMessages(page)) as AddMessage[]).filter((m) => m.kind === 'attachment.add').map((m) => m.payload);
}

describe('webview in Chromium: composer attachments (§6.1.1)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const ready = (): Promise<Page> => openAtComposer(h);

  it('§6.1.1 a pasted image and a dropped file become chips (thumbnail, icon + name), stored through attachment.add; Delete removes a chip from the keyboard; the prompt carries context_files', async () => {
    const page = await ready();
    await transfer(page, 'paste', [{ name: 'shot.png', type: 'image/png', base64: PNG_1X1 }]);
    await transfer(page, 'drop', [{ name: 'notes.md', type: '', text: '# notes\n' }, { name: 'todo.txt', type: 'text/plain', text: 'milk\n' }]);
    const [shot, notes, todo] = await adds(page, 3);
    assert.equal(shot.session_id, SESSION);
    assert.deepEqual([shot.file_name, shot.mime_type, shot.data], ['shot.png', 'image/png', PNG_1X1], 'the very bytes, base64');
    assert.deepEqual([notes.file_name, notes.mime_type], ['notes.md', 'text/markdown'], 'a type the browser left empty is guessed from the name');
    assert.equal(Buffer.from(todo.data, 'base64').toString(), 'milk\n');

    const chips = page.locator('.composer .attachments .attachment');
    assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))), ['shot.png', 'notes.md', 'todo.txt']);
    assert.equal(await chips.nth(0).locator('img.attachment-thumb').count(), 1, 'an image shows its thumbnail');
    assert.match((await chips.nth(0).locator('img').getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    assert.equal(await chips.nth(1).locator('.codicon-file').count(), 1, 'a text file shows an icon');
    assert.equal(await page.locator('.attachment.storing').count(), 3, 'not yet stored');

    // Sending waits until every file is stored.
    await page.keyboard.type('what are these?');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(150);
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0, 'no prompt while files are being stored');
    assert.match(await page.locator('body').innerText(), /Wait until the attached files are ready/, 'the user is told why');

    for (const [a, url] of [[shot, '/v1/files/11111111-1111-4111-8111-111111111111'], [notes, '/v1/files/22222222-2222-4222-8222-222222222222'], [todo, '/v1/files/33333333-3333-4333-8333-333333333333']] as const) {
      await hostSays(page, [{ kind: 'attachment.stored', payload: { request_id: a.request_id, file_url: url, file_name: a.file_name, mime_type: a.mime_type || 'text/markdown', size_bytes: 5 } }]);
    }
    await page.waitForFunction(() => document.querySelectorAll('.attachment.storing').length === 0);
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-attachments.png') });

    // Keyboard removal: Tab from the editor's chips to notes.md's remove button, Delete removes it,
    // and focus moves to the next chip's remove button.
    const removeNotes = page.getByRole('button', { name: 'Remove notes.md' });
    await removeNotes.focus();
    await page.keyboard.press('Delete');
    assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))), ['shot.png', 'todo.txt']);
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Remove todo.txt');

    await page.locator('[role=textbox]').click();
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.ok(prompt, 'the prompt went out');
    assert.equal(prompt.payload.prompt_text, 'what are these?');
    assert.deepEqual(prompt.payload.context_files, [
      { file_url: '/v1/files/11111111-1111-4111-8111-111111111111', file_name: 'shot.png', mime_type: 'image/png', intent: 'context' },
      { file_url: '/v1/files/33333333-3333-4333-8333-333333333333', file_name: 'todo.txt', mime_type: 'text/plain', intent: 'context' },
    ]);
    assert.equal(await chips.count(), 0, 'the chips are gone once sent');
    // The sent prompt in the transcript lists what rode on it.
    await page.waitForFunction(() => document.querySelectorAll('.prompt-block .prompt-attachments .attachment').length === 2);
    assert.deepEqual(await page.locator('.prompt-block').last().locator('.prompt-attachments .attachment-name').allInnerTexts(), ['shot.png', 'todo.txt']);
    assert.deepEqual(await violations(page), [], 'no CSP violation (thumbnails are data: images)');
    assert.deepEqual(pageErrors(page), []);
  });

  it('§6.1.1 a file the host refuses leaves no chip and says why; Backspace on a chip removes it too', async () => {
    const page = await ready();
    await transfer(page, 'paste', [{ name: 'big.bin', type: 'application/octet-stream', text: 'x' }, { name: 'a.txt', type: 'text/plain', text: 'a' }]);
    const [big, a] = await adds(page, 2);
    await hostSays(page, [{ kind: 'attachment.failed', payload: { request_id: big.request_id, message: 'big.bin is larger than the limit of 20 MB.' } }]);
    await page.waitForFunction(() => document.querySelectorAll('.composer .attachments .attachment').length === 1);
    assert.match((await page.locator('body').innerText()), /big\.bin is larger than the limit of 20 MB\./);
    await hostSays(page, [{ kind: 'attachment.stored', payload: { request_id: a.request_id, file_url: '/v1/files/44444444-4444-4444-8444-444444444444', file_name: 'a.txt', mime_type: 'text/plain', size_bytes: 1 } }]);
    await page.getByRole('button', { name: 'Remove a.txt' }).focus();
    await page.keyboard.press('Backspace');
    assert.equal(await page.locator('.composer .attachments').count(), 0);
    await page.waitForFunction(() => document.activeElement?.classList.contains('editor') === true);
    await page.keyboard.type('no files now');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.context_files, undefined, 'nothing attached, no context_files');
  });
});
