// Decision 672 in a real VS Code (code-server 4.139, the packaged VSIX, the built-in agent), as the
// new-user trial did it: a prompt typed and not sent, the side bar switched to the Explorer (VS Code
// throws the hidden webview away) and back to the chat: the prompt is still there, an @ query in it
// too. Screenshots go to test-results/e2e/.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { buildVsix, chatFrame, EXTENSION_ID, launchChromium, openChatView, openWorkbench, REPO, startCodeServer, type CodeServer } from './codeServer';
import { composer, idle } from './chatDriver';

const SHOTS = join(REPO, 'test-results', 'e2e');

describe('e2e: the unsent prompt survives hiding the chat in a real VS Code (decision 672)', function () {
  this.timeout(300_000);
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let chat: FrameLocator;
  let workspace: string;
  const fail = (e: unknown): never => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- code-server output (tail) ---\n${cs?.output().slice(-4000) ?? ''}`);
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    workspace = mkdtempSync(join(tmpdir(), 'rawp-draft-ws-'));
    cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
    cs = await startCodeServer({ workspace, vsixes: [buildVsix()] });
    browser = await launchChromium();
    page = await openWorkbench(browser, cs, workspace);
  });

  after(async () => {
    if (page) await page.screenshot({ path: join(SHOTS, 'draft-zz-final.png') }).catch(() => undefined);
    await browser?.close();
    await cs?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('decision 672 typed "my long unsent draft text" and an @ query, clicked Explorer, clicked the chat again: both are still in the prompt box', async () => {
    try {
      chat = await openChatView(page);
      await idle(chat).waitFor({ timeout: 60_000 });
      await composer(chat).click();
      await page.keyboard.type('my long unsent draft text @READ');
      // Hide the chat: show the Explorer in the side bar instead; VS Code disposes the chat's webview.
      await page.locator('.activitybar .action-item').filter({ has: page.locator('[aria-label^="Explorer"]') }).first().click();
      await page.locator('.sidebar .title-label', { hasText: /Explorer/i }).first().waitFor({ timeout: 30_000 });
      await chatFrame(page).locator('#root').waitFor({ state: 'detached', timeout: 30_000 });
      // And back to the chat: a new webview, built from nothing.
      await page.locator('.activitybar .action-item').filter({ has: page.locator('[aria-label^="RAWP Agent"]') }).first().click();
      // The rebuilt view's iframe lacks the "purpose=webviewView" that chatFrame() looks for (code-server 4.139).
      chat = page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
      await idle(chat).waitFor({ timeout: 90_000 });
      await composer(chat).filter({ hasText: 'my long unsent draft text' }).waitFor({ timeout: 30_000 });
      assert.equal((await composer(chat).innerText()).replace(/\u00a0/g, ' ').trim(), 'my long unsent draft text @READ');
      await page.screenshot({ path: join(SHOTS, 'draft-01-back.png') });
    } catch (e) {
      fail(e);
    }
  });
});
