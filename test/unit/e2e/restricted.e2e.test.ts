// Restricted Mode in a real VS Code: a folder whose authors are not trusted opens with our
// extension in its limited mode (capabilities.untrustedWorkspaces: "limited") — the chat opens,
// says why no agent runs, and no session is started. Screenshot in test-results/e2e/.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { buildVsix, launchChromium, openChatView, openWorkbench, REPO, startCodeServer, type CodeServer } from './codeServer';

describe('e2e: Restricted Mode (untrusted workspace) in a real VS Code', function () {
  this.timeout(240_000);
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let workspace: string;

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'rawp-untrusted-ws-'));
    cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await cs?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('runs no agent in an untrusted folder and the chat says why', async () => {
    cs = await startCodeServer({ workspace, vsixes: [buildVsix()], workspaceTrust: true });
    browser = await launchChromium();
    const page = await openWorkbench(browser, cs, workspace);
    // The folder opens untrusted (code-server shows no trust dialog for it; if one comes, say no).
    const no = page.getByRole('button', { name: /No, I don.t trust the authors/ });
    if (await no.isVisible().catch(() => false)) await no.click();
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    const chat = await openChatView(page);
    const notice = chat.getByText(/Restricted Mode, so no agent runs/).first();
    await notice.waitFor({ timeout: 60_000 });
    mkdirSync(join(REPO, 'test-results', 'e2e'), { recursive: true });
    await page.screenshot({ path: join(REPO, 'test-results', 'e2e', '09-restricted-mode.png') });
    assert.equal(await chat.locator('#session-select option:not([disabled])').count(), 0, 'no session was started');
    await page.locator('.statusbar-item', { hasText: 'RAWP: restricted' }).first().waitFor({ timeout: 10_000 });
  });
});
