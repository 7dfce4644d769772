// The browser master's page (GET /) in a real headless Chromium: strict CSP with a nonce, the
// token taken from the URL fragment (never sent in a request) or pasted, kept in sessionStorage,
// and a WebSocket opened with ['rawp-dps-1.0', 'bearer.<token>'] from the page's own origin.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { buildWebview } from '../../browser/harness';
import { http, rig, waitFor, type Rig } from './harness';

const CHROMIUM = '/usr/bin/chromium';

describe('remote/browser master page', function () {
  this.timeout(60_000);
  let r: Rig;
  let browser: Browser | undefined;
  beforeEach(async () => {
    r = await rig();
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    await r.close();
  });

  it('GET / is served with a strict CSP whose nonce is on every script, no token inside, and no caching', async () => {
    const a = await http(`${r.server.url}/`);
    const b = await http(`${r.server.url}/`);
    assert.equal(a.status, 200);
    const csp = String(a.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.notEqual(nonce, /script-src 'nonce-([^']+)'/.exec(String(b.headers['content-security-policy']))?.[1], 'a fresh nonce per response');
    const scripts = a.body.match(/<script[^>]*>/g) ?? [];
    assert.ok(scripts.length > 0 && scripts.every((s) => s.includes(`nonce="${nonce}"`)));
    assert.equal(a.headers['cache-control'], 'no-store');
    assert.equal(a.headers['referrer-policy'], 'no-referrer');
    assert.ok(!a.body.includes(r.token));
    assert.equal(a.headers['cross-origin-resource-policy'], 'same-origin');
  });

  it('the page\'s script is same-origin only (Cross-Origin-Resource-Policy): a page elsewhere cannot include it to learn that rawp listens here', async () => {
    const js = await http(`${r.server.url}/webview.js`);
    assert.equal(js.status, 200);
    assert.equal(js.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal(js.headers['x-content-type-options'], 'nosniff');
  });

  it('the token from #token= is kept in sessionStorage, wiped from the address bar, never sent in a URL; the page attaches over WebSocket with the bearer subprotocol', async function () {
    if (!existsSync(CHROMIUM)) this.skip();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const page = await browser.newPage();
    const urls: string[] = [];
    page.on('request', (req) => urls.push(req.url()));
    await page.goto(`${r.server.url}/#token=${r.token}&session=${r.session.session_id}`);
    await page.waitForFunction(() => (globalThis as { __RAWP_REMOTE__?: unknown }).__RAWP_REMOTE__ !== undefined);
    assert.equal(await page.evaluate(() => location.hash), '');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('rawp.token')), r.token);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __RAWP_REMOTE__: { session_id: string } }).__RAWP_REMOTE__.session_id), r.session.session_id);
    const first = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const cfg = (globalThis as unknown as { __RAWP_REMOTE__: { session_id: string; subprotocols: string[]; streamUrl(id: string): string } }).__RAWP_REMOTE__;
          const ws = new WebSocket(cfg.streamUrl(cfg.session_id), cfg.subprotocols);
          ws.onmessage = (e) => {
            resolve(`${ws.protocol} ${(JSON.parse(String(e.data)) as { type: string }).type}`);
            ws.close();
          };
          ws.onerror = () => reject(new Error('websocket failed'));
        }),
    );
    assert.equal(first, 'rawp-dps-1.0 session.capabilities');
    assert.ok(urls.length > 0 && urls.every((u) => !u.includes(r.token)), 'the token never appears in a requested URL');
  });

  it('without a token the page asks for one; a wrong token is refused with a message, the right one attaches — by keyboard alone, focus in the token field throughout', async function () {
    if (!existsSync(CHROMIUM)) this.skip();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const page = await browser.newPage();
    await page.goto(`${r.server.url}/`);
    await page.waitForSelector('#rawp-login:not([hidden])');
    // By keyboard alone (decision 605): the field has focus when the form shows, and again — its
    // refused token selected — after "not accepted", so typing replaces it.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'rawp-token');
    await page.keyboard.type('wrong-token-wrong-token-wrong');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('rawp-error')?.textContent?.includes('not accepted'));
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return { id: el?.id, selected: el ? el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0) : '' };
    });
    assert.deepEqual(focus, { id: 'rawp-token', selected: 'wrong-token-wrong-token-wrong' });
    await page.keyboard.type(r.token);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as { __RAWP_REMOTE__?: unknown }).__RAWP_REMOTE__ !== undefined);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('rawp.token')), r.token);
  });

  it('issue 15: the token form follows the browser’s language (Korean browser: Korean form and messages)', async function () {
    if (!existsSync(CHROMIUM)) this.skip();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const page = await (await browser.newContext({ locale: 'ko-KR' })).newPage();
    await page.goto(`${r.server.url}/`);
    await page.waitForSelector('#rawp-login:not([hidden])');
    assert.equal(await page.locator('#rawp-login-title').innerText(), 'RAWP 세션에 연결');
    assert.equal(await page.locator('button[type=submit]').innerText(), '연결');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
    await page.fill('#rawp-token', 'wrong-token-wrong-token-wrong');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.getElementById('rawp-error')?.textContent === '토큰이 받아들여지지 않았습니다.');
  });

  it('§2.4 the real chat bundle, served by GET /, attaches as a master, shows the session and its prompt goes to the agent', async function () {
    if (!existsSync(CHROMIUM)) this.skip();
    // Build the webview bundle as esbuild.config.mjs does, into a temp folder served as the assets.
    const dir = mkdtempSync(join(tmpdir(), 'rawp-bundle-'));
    try {
      await buildWebview(dir);
      await r.close();
      r = await rig({ server: { assetDirs: [dir] }, adapter: { turns: [{ steps: [{ kind: 'text', chunks: ['answer from ', 'the agent'] }] }] } });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
      const page = await browser.newPage();
      await page.goto(`${r.server.url}/#token=${r.token}&session=${r.session.session_id}`);
      await waitFor(() => r.server.masterCount(r.session.session_id) === 1, 'the bundle attached over WebSocket');
      // Fonts and styles load from the page's own origin under its CSP.
      const failed: string[] = [];
      page.on('requestfailed', (req) => failed.push(req.url()));
      const composer = page.getByRole('textbox', { name: 'Message the agent' });
      await composer.click({ timeout: 20_000 });
      await page.keyboard.type('hello from the browser');
      await page.keyboard.press('Enter');
      await waitFor(() => r.adapter.prompts.length === 1, 'the prompt reached the agent');
      assert.equal(r.adapter.prompts[0].text, 'hello from the browser');
      await page.waitForFunction(() => document.body.innerText.includes('answer from the agent'), undefined, { timeout: 20_000 });
      assert.deepEqual(failed, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
