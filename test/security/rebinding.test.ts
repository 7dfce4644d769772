// Issue 12 #11 (origin rule) against a real `rawp serve` on loopback: a DNS-rebinding page — its
// own name now resolving to this machine — sends its own name as Host and as Origin. With a
// wildcard bind `Origin == Host` used to let it through; now both are compared with the names the
// host was configured with (the wildcard case itself is covered in test/unit/remote/originRule).
import { strict as assert } from 'node:assert';
import { http, tryUpgrade } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

describe('security/rebinding: a page that rebinds its DNS name to the host gets nothing (issue 12 #11)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  it('a request naming another host is refused (421) even with the right token; its WebSocket never opens; the page cannot even load /v1/health', async () => {
    const s = await serve({ args: ['--public-host', 'devbox.test'] });
    const port = new URL(s.url).port;
    const evil = { host: `rebind.evil.test:${port}`, origin: `http://rebind.evil.test:${port}` };
    const auth = { authorization: `Bearer ${s.token}` };
    assert.equal((await http(`${s.url}/v1/sessions`, { headers: { ...auth, ...evil } })).status, 421);
    assert.equal((await http(`${s.url}/v1/health`, { headers: { host: evil.host } })).status, 421);
    const ws = await tryUpgrade(`${s.url.replace('http', 'ws')}/v1/sessions/${s.session_id}/stream`, { protocols: ['rawp-dps-1.0', `bearer.${s.token}`], headers: evil });
    assert.equal(ws.status, 421);
    // The names the operator gave pass, with their own origin.
    const named = { host: `devbox.test:${port}`, origin: `http://devbox.test:${port}` };
    assert.equal((await http(`${s.url}/v1/sessions`, { headers: { ...auth, ...named } })).status, 200);
    // A known Host with a foreign Origin is still a foreign page.
    assert.equal((await http(`${s.url}/v1/sessions`, { headers: { ...auth, host: named.host, origin: evil.origin } })).status, 403);
    // A cross-site <img> (no Origin, Sec-Fetch-Site: cross-site) reaches the public page, not the API.
    assert.equal((await http(`${s.url}/v1/sessions`, { headers: { ...auth, 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await http(`${s.url}/v1/health`, { headers: { 'sec-fetch-site': 'cross-site' } })).status, 200);
    assert.ok(s.alive());
  });
});
