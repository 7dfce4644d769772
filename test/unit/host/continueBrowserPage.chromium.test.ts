// Decision 630 in the browser master page (the page the host's sharing server serves, in real
// Chromium): a shared session that an error ends shows "Continue this conversation"; pressing it
// asks the host (POST /v1/sessions/{id}/continue) and the page attaches to the new session, whose
// note names the ended chat and whose earlier conversation opens read only. Same host policy as the
// editor's view — the page only asks.
import { strict as assert } from 'node:assert';
import { chromium, type Browser } from 'playwright-core';
import { HostSharing } from '../../../src/host/sharing';
import { generateToken } from '../../../src/remote/auth';
import type { SessionHost } from '../../../src/host/sessionHost';
import type { TurnScript } from '../../support/scriptedAdapter';
import { CHROMIUM_ARGS } from '../../browser/harness';
import { http, waitFor } from '../remote/harness';
import { harness, type Harness } from './harness';

const NAMED: TurnScript = { steps: [{ kind: 'text', chunks: ['Noted: kiwi.'] }], outcome: { agent_session_id: 'conv-9' } };
const DIES: TurnScript = { steps: [{ kind: 'error', payload: { error_code: 'PROCESS_EXIT', message: 'the agent exited with code 1', severity: 'fatal', recoverable: false } }] };
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('remote: §18.2 the browser master page continues an ended shared session (decisions 630, 641, real Chromium)', function () {
  this.timeout(120_000);
  let h: Harness;
  let host: SessionHost;
  let sharing: HostSharing | undefined;
  let browser: Browser | undefined;
  const token = generateToken();
  afterEach(async () => {
    await browser?.close().catch(() => undefined);
    browser = undefined;
    await sharing?.close();
    sharing = undefined;
    await h.cleanup();
  });

  it('§18.2 the ended banner\'s button starts the continuation and the page shows it: a new session, the earlier chat named and readable, the agent asked to go on', async () => {
    h = harness();
    host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
    const server = await sharing.start();
    const created = await http(`${server.url}/v1/sessions`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ agent: 'scripted', name: 'Kiwi chat' }) });
    const { session_id: id } = JSON.parse(created.body) as { session_id: string };

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 720, height: 900 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/#token=${token}&session=${id}`);
    const box = page.locator('[role=textbox]');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.click();
    await page.keyboard.type('remember kiwi');
    await page.keyboard.press('Enter');
    // The transcript's paragraph (the live region says it too, decision 605).
    await page.getByText('Noted: kiwi.', { exact: true }).first().waitFor({ timeout: 30_000 });
    await box.click();
    await page.keyboard.type('next');
    await page.keyboard.press('Enter');

    const button = page.getByRole('button', { name: 'Continue this conversation' });
    await button.waitFor({ timeout: 30_000 });
    await button.click();
    await waitFor(() => host.list().some((s) => s.session_id !== id), 'the host started the continuation', 30_000);
    const next = host.list().find((s) => s.session_id !== id)!;
    assert.deepEqual(h.resumes, [undefined, 'conv-9'], 'the agent is asked to go on with its conversation (§18.3)');
    const note = page.getByText(/This chat continues “Kiwi chat”/);
    await note.waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole('button', { name: 'Continue this conversation' }).count(), 0, 'the page left the ended chat for the new one');
    await page.getByText(/Earlier conversation \(\d+ messages\)/).click();
    await page.getByText('remember kiwi').first().waitFor();
    assert.ok(next.session_id);
    assert.deepEqual(errors, []);
  });
});
