// Decision 672 in a real VS Code (code-server 4.139, the packaged VSIX, the built-in agent), as the
// new-user trial did it: a prompt typed and not sent, the side bar switched to the Explorer (VS Code
// throws the hidden webview away) and back to the chat: the prompt is still there, an @ query in it
// too. Screenshots go to test-results/e2e/.
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { chatFrame, EXTENSION_ID, openChatView } from './codeServer';
import { composer, idle } from './chatDriver';
import { useWorkbench } from './workbench';

describe('e2e: the unsent prompt survives hiding the chat in a real VS Code (decision 672)', function () {
  this.timeout(300_000);
  const w = useWorkbench({ name: 'rawp-draft-ws', finalShot: 'draft-zz-final' });
  let chat: FrameLocator;

  it('decision 672 typed "my long unsent draft text" and an @ query, clicked Explorer, clicked the chat again: both are still in the prompt box', async () => {
    try {
      chat = await openChatView(w.page);
      await idle(chat).waitFor({ timeout: 60_000 });
      await composer(chat).click();
      await w.page.keyboard.type('my long unsent draft text @READ');
      // Hide the chat: show the Explorer in the side bar instead; VS Code disposes the chat's webview.
      await w.page.locator('.activitybar .action-item').filter({ has: w.page.locator('[aria-label^="Explorer"]') }).first().click();
      await w.page.locator('.sidebar .title-label', { hasText: /Explorer/i }).first().waitFor({ timeout: 30_000 });
      await chatFrame(w.page).locator('#root').waitFor({ state: 'detached', timeout: 30_000 });
      // And back to the chat: a new webview, built from nothing.
      await w.page.locator('.activitybar .action-item').filter({ has: w.page.locator('[aria-label^="RAWP Agent"]') }).first().click();
      // The rebuilt view's iframe lacks the "purpose=webviewView" that chatFrame() looks for (code-server 4.139).
      chat = w.page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
      await idle(chat).waitFor({ timeout: 90_000 });
      await composer(chat).filter({ hasText: 'my long unsent draft text' }).waitFor({ timeout: 30_000 });
      assert.equal((await composer(chat).innerText()).replace(/\u00a0/g, ' ').trim(), 'my long unsent draft text @READ');
      await w.shot('draft-01-back');
    } catch (e) {
      w.fail(e);
    }
  });
});
