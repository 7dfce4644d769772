// End to end in a real VS Code (code-server 4.139 = VS Code 1.139) driven by real Chromium: the
// packaged VSIX installed, the sidebar chat opened, a prompt to the built-in agent with an @-picked
// file, a permission approved, the edit's diff seen in the chat and in VS Code's diff editor, then
// the window reloaded and the session found restored. Screenshots go to test-results/e2e/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { openChatView } from './codeServer';
import { useWorkbench } from './workbench';

describe('e2e: the extension in a real VS Code (code-server) with the built-in agent', function () {
  this.timeout(300_000);
  const w = useWorkbench({ name: 'rawp-e2e-ws', finalShot: 'zz-final' });
  let chat: FrameLocator;
  const composer = () => chat.locator('[role="textbox"][aria-label="Message the agent"]');

  it('opens the sidebar chat: the webview shows a session of the built-in agent, idle', async () => {
    try {
      chat = await openChatView(w.page);
      await chat.locator('[role="status"][data-code="idle"]').waitFor({ timeout: 60_000 });
      await w.shot('01-chat-open');
      assert.match(await chat.locator('#agent-select').inputValue(), /^builtin$/);
    } catch (e) {
      w.fail(e);
    }
  });

  it('sends a prompt with an @-picked file (§16.1 search → token) and shows the file the agent read', async () => {
    await composer().click();
    await w.page.keyboard.type('read @greet');
    const option = chat.locator('[role="listbox"][aria-label="Files"] [role="option"]', { hasText: 'greeting.ts' });
    await option.first().waitFor({ timeout: 30_000 });
    await w.shot('02-at-picker');
    await w.page.keyboard.press('Enter');
    await w.page.keyboard.press('Enter');
    const card = chat.locator('article.tool-card.status-success[aria-label^="Tool Read:"]');
    await card.waitFor({ timeout: 30_000 });
    await chat.getByText('return `Hello, ${name}!`;').first().waitFor({ timeout: 10_000 });
    await chat.locator('[role="status"][data-code="idle"]').waitFor({ timeout: 30_000 });
    await w.shot('03-read-result');
  });

  it('asks for permission before an edit, and after "Allow once" shows the diff and writes the file', async () => {
    await composer().click();
    await w.page.keyboard.type('replace `Hello` with `Hi` in src/greeting.ts');
    await w.page.keyboard.press('Enter');
    const permission = chat.locator('section.interaction[aria-label^="Permission request"]');
    await permission.waitFor({ timeout: 30_000 });
    await w.shot('04-permission');
    await permission.getByRole('button', { name: /Allow once/ }).click();
    const diffCard = chat.locator('article.tool-card[data-output-type="diff"]').last();
    await diffCard.waitFor({ timeout: 30_000 });
    await diffCard.locator('.diff-line.add', { hasText: 'Hi, ${name}!' }).first().waitFor({ timeout: 10_000 });
    await w.shot('05-diff-in-chat');
    assert.match(readFileSync(join(w.workspace, 'src/greeting.ts'), 'utf8'), /return `Hi, \$\{name\}!`;/);
  });

  it('opens the edit in VS Code\'s diff editor from the chat ("Open diff")', async () => {
    await chat.locator('article.tool-card[data-output-type="diff"]').last().getByRole('button', { name: /Open diff/ }).click();
    await w.page.locator('.tabs-container .tab', { hasText: 'edit by the agent' }).first().waitFor({ timeout: 30_000 });
    const diff = w.page.locator('.monaco-diff-editor').first();
    // Left: the text before the edit (rebuilt from the patch); right: the file as it is now.
    // (Monaco may render spaces as no-break spaces, which \s matches.)
    await diff.locator('.editor.original .view-lines', { hasText: /return\s`Hello,\s\$\{name\}!`/ }).waitFor({ timeout: 30_000 });
    await diff.locator('.editor.modified .view-lines', { hasText: /return\s`Hi,\s\$\{name\}!`/ }).waitFor({ timeout: 30_000 });
    await w.shot('06-vscode-diff');
  });

  it('§7.8 after a window reload the session is restored: same session, transcript with the edit', async () => {
    const before = await chat.locator('#session-select').inputValue();
    await w.page.waitForTimeout(1000); // the transcript is saved 250 ms after the last frame
    await w.page.reload();
    await w.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    chat = await openChatView(w.page);
    await chat.locator('article.tool-card[data-output-type="diff"]').first().waitFor({ timeout: 60_000 });
    await chat.locator('[role="status"][data-code="idle"]').waitFor({ timeout: 30_000 });
    assert.equal(await chat.locator('#session-select').inputValue(), before);
    await w.shot('07-restored');
    // And it is live again: another prompt gets an answer.
    await composer().click();
    await w.page.keyboard.type('todo: check the greeting; ship it');
    await w.page.keyboard.press('Enter');
    await chat.getByText('check the greeting').last().waitFor({ timeout: 30_000 });
    await w.shot('08-live-after-restore');
  });
});
