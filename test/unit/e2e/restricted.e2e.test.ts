// Restricted Mode in a real VS Code: a folder whose authors are not trusted opens with our
// extension in its limited mode (capabilities.untrustedWorkspaces: "limited") — the chat opens,
// says why no agent runs, and no session is started. Screenshot in test-results/e2e/.
import assert from 'node:assert/strict';
import { buildVsix, openChatView } from './codeServer';
import { useWorkbench } from './workbench';

describe('e2e: Restricted Mode (untrusted workspace) in a real VS Code', function () {
  this.timeout(240_000);
  const w = useWorkbench({ name: 'rawp-untrusted-ws', start: () => ({ vsixes: [buildVsix()], workspaceTrust: true }) });

  it('runs no agent in an untrusted folder and the chat says why', async () => {
    const page = w.page;
    // The folder opens untrusted (code-server shows no trust dialog for it; if one comes, say no).
    const no = page.getByRole('button', { name: /No, I don.t trust the authors/ });
    if (await no.isVisible().catch(() => false)) await no.click();
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    const chat = await openChatView(page);
    const notice = chat.getByText(/Restricted Mode, so no agent runs/).first();
    await notice.waitFor({ timeout: 60_000 });
    await w.shot('09-restricted-mode');
    assert.equal(await chat.locator('#session-select option:not([disabled])').count(), 0, 'no session was started');
    await page.locator('.statusbar-item', { hasText: 'RAWP: restricted' }).first().waitFor({ timeout: 10_000 });
  });
});
