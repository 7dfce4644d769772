// Issue 12 #4 with a real browser: a web page firing tokenless `<img>` requests at the host (no
// Origin, `Sec-Fetch-Site: cross-site`) used to count as failures for 127.0.0.1, and kept 9 of 10
// of the real user's attempts out. Here headless Chromium runs such a page (served from another
// loopback origin) against a real `rawp serve` while the real client keeps working: 0 refusals.
// Two defences hold here, each enough alone: the page's requests are cross-site without Origin
// (refused 403 before any token is looked at), and a missing token never counts (lockout.test.ts
// floods without Sec-Fetch headers). With neither (the old gate), all 40 attempts got 429.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { http, tryUpgrade } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

const CHROMIUM = '/usr/bin/chromium';

/** The attacker's page: 10 images every 50 ms at the host's API, counting how many came back. */
function attackerPage(target: string): string {
  return `<!doctype html><script>
    window.fired = 0; window.failed = 0;
    setInterval(() => {
      for (let i = 0; i < 10; i++) {
        const img = new Image();
        img.onerror = () => window.failed++;
        img.src = ${JSON.stringify(target)} + '/v1/sessions?n=' + (window.fired++);
      }
      fetch(${JSON.stringify(target)} + '/v1/sessions', { mode: 'no-cors' }).catch(() => {});
    }, 50);
  </script>`;
}

describe('security/browser flood: a web page cannot lock the user out (issue 12 #4)', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let site: Server | undefined;
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
    site = undefined;
    await stopAll();
  });

  it('0 of 40 legitimate attempts (HTTP and WebSocket) refused while a cross-site page fires ~200 tokenless requests a second for 5 s', async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is needed (scripts/setup-vscode.sh installs it)`);
    const s = await serve();
    // The host as the page addresses it: `localhost`, a different site from the page's 127.0.0.1.
    const target = s.url.replace('127.0.0.1', 'localhost');
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage(target)));
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(site.address() as { port: number }).port}/`);
    const statuses: number[] = [];
    const t0 = Date.now();
    for (let i = 0; i < 40 && Date.now() - t0 < 60_000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 125));
      if (i % 4 === 3) {
        const up = await tryUpgrade(`${s.url.replace('http', 'ws')}/v1/sessions/${s.session_id}/stream`, { headers: { authorization: `Bearer ${s.token}` } });
        up.socket?.terminate();
        statuses.push(up.status);
      } else statuses.push((await http(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${s.token}` } })).status);
    }
    const fired = await page.evaluate(() => (window as unknown as { fired: number }).fired);
    const failed = await page.evaluate(() => (window as unknown as { failed: number }).failed);
    assert.ok(fired >= 300 && failed >= 200, `the page fired ${fired} requests, ${failed} came back refused`);
    assert.equal(statuses.length, 40);
    assert.deepEqual(statuses.filter((x) => x !== 200 && x !== 101), [], `refused: ${statuses.join(',')}`);
    assert.ok(s.alive());
  });
});
