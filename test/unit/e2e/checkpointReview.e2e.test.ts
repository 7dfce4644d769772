// Issue 17 items 2–3 end to end in a real VS Code (code-server 4.139 = VS Code 1.139) with the
// packaged extension and the built-in agent: a turn that edits two files and creates one shows
// "3 files changed"; clicking it opens VS Code's multi-file diff (vscode.changes); VS Code's own
// "Revert Block" gutter action on one hunk in that multi-file diff changes only that hunk on disk; a file of the list opens its own diff; "Rewind to
// before this turn" finds the reverted file changed by a person (a conflict), overwrites it when
// told to, restores the other bytes and removes the created file (decisions 400–402).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { openChatView } from './codeServer';
import { idle, sendPrompt } from './chatDriver';
import { useWorkbench } from './workbench';
const A_BEFORE = Array.from({ length: 12 }, (_, i) => `line${i + 1}`).join('\n') + '\n';
const B_BEFORE = 'b1\n';

async function waitForFile(path: string, test: (text: string | undefined) => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (test(text)) return;
    if (Date.now() > until) throw new Error(`timed out: ${what} (now ${JSON.stringify(text)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('e2e: review and rewind a turn in a real VS Code (issue 17, code-server)', function () {
  this.timeout(300_000);
  const w = useWorkbench({
    name: 'rawp-e2e-cp',
    finalShot: 'cp-zz-final',
    workspace: (dir) => {
      writeFileSync(join(dir, 'a.txt'), A_BEFORE);
      writeFileSync(join(dir, 'b.txt'), B_BEFORE);
    },
  });
  let chat: FrameLocator;

  it('§3.1.1 a turn that edits two files and creates one shows "3 files changed"; clicking it opens the multi-file diff', async () => {
    try {
      chat = await openChatView(w.page);
      await idle(chat).waitFor({ timeout: 60_000 });
      await sendPrompt(w.page, chat, ["run `sed -i -e 's/^line2$/LINE2/' -e 's/^line11$/LINE11/' a.txt && printf 'b2\\n' >> b.txt && printf 'new\\n' > c.txt`"]);
      const permission = chat.locator('section.interaction[aria-label^="Permission request"]');
      await permission.waitFor({ timeout: 30_000 });
      await permission.getByRole('button', { name: /Allow once/ }).click();
      const summary = chat.locator('.checkpoint-summary');
      await summary.waitFor({ timeout: 60_000 });
      assert.equal((await summary.innerText()).trim(), '3 files changed');
      assert.equal(readFileSync(join(w.workspace, 'c.txt'), 'utf8'), 'new\n');
      await summary.click();
      await w.page.locator('.tabs-container .tab', { hasText: 'Changes made by the turn' }).first().waitFor({ timeout: 30_000 });
      // The multi-file diff shows every file; a.txt's left side is the checkpoint's blob.
      await w.page.locator('.monaco-component.multiDiffEditor').first().waitFor({ timeout: 30_000 });
      const entries = w.page.locator('.monaco-component.multiDiffEditor .multiDiffEntry');
      for (let i = 0; i < 75 && (await entries.count()) < 3; i++) await w.page.waitForTimeout(200);
      assert.equal(await entries.count(), 3, 'one entry per changed file');
      await w.shot('cp-01-multi-diff');
      assert.deepEqual((await chat.locator('.checkpoint-files li').allInnerTexts()).map((s) => s.replace(/\s+Revert file$/, '')).sort(), ['created c.txt', 'modified a.txt', 'modified b.txt']);
    } catch (e) {
      w.fail(e);
    }
  });

  it('VS Code’s own "Revert Block" of one hunk in the multi-file diff changes only that hunk on disk', async () => {
    try {
      // The multi-file diff opened by the footer is still the active editor: pick a.txt's entry there.
      const entry = w.page.locator('.monaco-component.multiDiffEditor .multiDiffEntry', { hasText: 'a.txt' }).first();
      await entry.locator('.editor.modified .view-lines', { hasText: 'LINE2' }).waitFor({ timeout: 30_000 });
      await entry.locator('.editor.original .view-lines', { hasText: 'line2' }).waitFor({ timeout: 30_000 });
      // Hover line 2 of the modified side (the first hunk): the diff editor's gutter shows that hunk's toolbar.
      await entry.locator('.editor.modified .view-line', { hasText: 'LINE2' }).first().hover();
      // Click the "Revert Block" arrow of the gutter item level with that line (one item per hunk).
      const line = await entry.locator('.editor.modified .view-line', { hasText: 'LINE2' }).first().boundingBox();
      assert.ok(line, 'line 2 is on screen');
      const gutterItems = entry.locator('.gutterItem');
      await gutterItems.first().waitFor({ timeout: 10_000 });
      let revert: ReturnType<typeof gutterItems.nth> | undefined;
      for (let i = 0; i < (await gutterItems.count()); i++) {
        const box = await gutterItems.nth(i).boundingBox();
        if (box && box.y <= line.y + line.height / 2 && box.y + box.height >= line.y + line.height / 2) revert = gutterItems.nth(i);
      }
      assert.ok(revert, 'a gutter toolbar sits beside the first hunk');
      await revert.locator('.action-label[aria-label="Revert Block"]').click();
      await entry.locator('.editor.modified .view-line', { hasText: /^line2$/ }).first().waitFor({ timeout: 10_000 });
      // Save every dirty document (the multi-file diff holds a.txt's model).
      await w.page.keyboard.press('F1');
      await w.page.keyboard.type('File: Save All');
      await w.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'File: Save All' }).first().waitFor({ timeout: 10_000 });
      await w.page.keyboard.press('Enter');
      const expected = A_BEFORE.replace('line11\n', 'LINE11\n');
      await waitForFile(join(w.workspace, 'a.txt'), (t) => t === expected, 'a.txt has only the second hunk');
      await w.shot('cp-02-hunk-reverted');
    } catch (e) {
      w.fail(e);
    }
  });

  it('a file of the list opens its own diff against the checkpoint, which shows the reverted hunk gone', async () => {
    try {
      await chat.locator('.checkpoint-files button', { hasText: /^a\.txt$/ }).click();
      await w.page.locator('.tabs-container .tab', { hasText: 'before the turn' }).first().waitFor({ timeout: 30_000 });
      const diff = w.page.locator('.editor-instance .monaco-diff-editor').last();
      await diff.locator('.editor.modified .view-lines', { hasText: 'LINE11' }).waitFor({ timeout: 30_000 });
      await diff.locator('.editor.original .view-lines', { hasText: 'line11' }).waitFor({ timeout: 30_000 });
      // One hunk is left: line 2 reads the same on both sides now.
      await diff.locator('.editor.modified .view-line', { hasText: /^line2$/ }).first().waitFor({ timeout: 10_000 });
    } catch (e) {
      w.fail(e);
    }
  });

  it('Rewind to before this turn: the reverted file is a conflict until overwritten; the bytes come back and the created file goes', async () => {
    try {
      await chat.locator('.checkpoint-rewind').click();
      const confirm = chat.locator('.checkpoint-confirm');
      assert.match(await confirm.innerText(), /Deleted \(this turn or a later one created them\): c\.txt/);
      await confirm.getByRole('button', { name: 'Rewind', exact: true }).click();
      const conflict = chat.locator('.checkpoint-conflict[data-path="a.txt"]');
      await conflict.waitFor({ timeout: 30_000 });
      await waitForFile(join(w.workspace, 'c.txt'), (t) => t === undefined, 'c.txt removed');
      assert.equal(readFileSync(join(w.workspace, 'b.txt'), 'utf8'), B_BEFORE);
      assert.equal(readFileSync(join(w.workspace, 'a.txt'), 'utf8'), A_BEFORE.replace('line11\n', 'LINE11\n'), 'the person’s version is kept until they choose');
      await w.shot('cp-03-conflict');
      await conflict.getByRole('button', { name: 'Overwrite my changes in a.txt' }).click();
      await chat.locator('.checkpoint-apply').click();
      await waitForFile(join(w.workspace, 'a.txt'), (t) => t === A_BEFORE, 'a.txt restored');
      assert.ok(!existsSync(join(w.workspace, 'c.txt')));
      await w.shot('cp-04-rewound');
    } catch (e) {
      w.fail(e);
    }
  });
});
