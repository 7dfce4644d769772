import { strict as assert } from 'node:assert';
import { FailureThrottle, generateToken, TokenVerifier, tokenProblem } from '../../../src/remote/auth';
import { presentedToken, route } from '../../../src/remote/controlPlane';
import { RemoteServer } from '../../../src/remote/server';
import { http, rig, tryUpgrade, type Rig } from './harness';

describe('remote/auth: bearer token, origin rule, lockout (control-plane profile)', () => {
  let r: Rig;
  beforeEach(async () => {
    r = await rig();
  });
  afterEach(async () => {
    await r.close();
  });

  const stream = () => r.server.attachUrl(r.session.session_id);

  it('refuses an upgrade without a token with 401 and never upgrades', async () => {
    const res = await tryUpgrade(stream(), { protocols: ['rawp-dps-1.0'] });
    assert.equal(res.status, 401);
    assert.equal(res.socket, undefined);
    assert.equal(r.server.masterCount(), 0);
  });

  it('refuses a wrong token (header and subprotocol) with 401 and never upgrades', async () => {
    const wrong = generateToken();
    assert.equal((await tryUpgrade(stream(), { headers: { authorization: `Bearer ${wrong}` } })).status, 401);
    assert.equal((await tryUpgrade(stream(), { protocols: ['rawp-dps-1.0', `bearer.${wrong}`] })).status, 401);
    // A prefix of the right token is wrong too (comparison is of whole digests).
    assert.equal((await tryUpgrade(stream(), { headers: { authorization: `Bearer ${r.token.slice(0, -1)}` } })).status, 401);
    assert.equal(r.server.masterCount(), 0);
  });

  it('accepts the token as bearer.<token> beside rawp-dps-1.0 and selects rawp-dps-1.0, never the bearer subprotocol', async () => {
    const res = await tryUpgrade(stream(), { protocols: ['rawp-dps-1.0', `bearer.${r.token}`] });
    assert.equal(res.status, 101);
    assert.equal(res.protocol, 'rawp-dps-1.0');
    res.socket?.terminate();
  });

  it('refuses a browser Origin that is neither the host own nor allow-listed with 403, before looking at the token', async () => {
    const own = r.server.url;
    const evil = await tryUpgrade(stream(), { protocols: ['rawp-dps-1.0', `bearer.${r.token}`], headers: { origin: 'http://evil.example' } });
    assert.equal(evil.status, 403);
    const ok = await tryUpgrade(stream(), { protocols: ['rawp-dps-1.0', `bearer.${r.token}`], headers: { origin: own } });
    assert.equal(ok.status, 101);
    ok.socket?.terminate();
    const api = await http(`${r.server.url}/v1/sessions`, { headers: { authorization: `Bearer ${r.token}`, origin: 'http://evil.example' } });
    assert.equal(api.status, 403);
  });

  it('an allow-listed origin is accepted', async () => {
    const other = await rig({ server: { allowedOrigins: ['https://dash.example/'] } });
    try {
      const res = await tryUpgrade(other.server.attachUrl(other.session.session_id), {
        protocols: ['rawp-dps-1.0', `bearer.${other.token}`],
        headers: { origin: 'https://dash.example' },
      });
      assert.equal(res.status, 101);
      res.socket?.terminate();
    } finally {
      await other.close();
    }
  });

  it('repeated wrong tokens from one source are slowed down (429 + Retry-After for wrong tokens only); the right token always passes; a missing token never counts', async () => {
    let now = 1_000_000;
    const other = await rig({ server: { throttle: { freeFailures: 3, baseLockMs: 2000, now: () => now } } });
    try {
      const url = `${other.server.url}/v1/sessions`;
      for (let i = 0; i < 10; i++) assert.equal((await http(url)).status, 401, 'no token: a plain 401');
      for (let i = 0; i < 4; i++) assert.equal((await http(url, { headers: { authorization: 'Bearer wrong-token-wrong-token-x' } })).status, 401);
      const locked = await http(url, { headers: { authorization: 'Bearer wrong-token-wrong-token-x' } });
      assert.equal(locked.status, 429);
      assert.equal(locked.headers['retry-after'], '2');
      assert.equal((await http(url, { headers: { authorization: `Bearer ${other.token}` } })).status, 200, 'the right token is never locked out');
      const upgrade = await tryUpgrade(other.server.attachUrl(other.session.session_id), { headers: { authorization: `Bearer ${other.token}` } });
      assert.equal(upgrade.status, 101);
      upgrade.socket?.terminate();
      assert.equal((await http(url)).status, 401, 'no token is still a plain 401 during a lockout');
      now += 10 * 60_000 + 70_000;
      assert.equal((await http(url, { headers: { authorization: 'Bearer wrong-token-wrong-token-x' } })).status, 401, 'the lockout passes');
    } finally {
      await other.close();
    }
  });

  it('the lockout doubles with each further failure and is capped', () => {
    const t = new FailureThrottle({ freeFailures: 2, baseLockMs: 100, maxLockMs: 1000, now: () => 0 });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      t.recordFailure('a');
      waits.push(t.retryAfterMs('a'));
    }
    assert.deepEqual(waits, [0, 0, 100, 200, 400, 800, 1000, 1000]);
    assert.equal(t.retryAfterMs('b'), 0);
    t.recordSuccess('a');
    assert.equal(t.retryAfterMs('a'), 0);
  });

  it('tokens: a generated token never starts with "-", so `--token T` on a command line cannot read it as an option', () => {
    for (let i = 0; i < 2000; i++) {
      const t = generateToken();
      assert.ok(!t.startsWith('-'), t);
      assert.equal(tokenProblem(t), undefined);
    }
  });

  it('tokens: generated ones carry 256 bits, short or odd ones are refused, comparison needs the whole token', () => {
    const t = generateToken();
    assert.match(t, /^[0-9a-f]{64}$/, '256 bits as hex');
    assert.equal(tokenProblem(t), undefined);
    assert.match(tokenProblem('short') ?? '', /128 bits/);
    assert.match(tokenProblem('has spaces in it, which no subprotocol allows') ?? '', /128 bits/);
    const v = new TokenVerifier(t);
    assert.equal(v.matches(t), true);
    assert.equal(v.matches(`${t}x`), false);
    assert.equal(v.matches(undefined), false);
    assert.throws(() => new TokenVerifier('short'), /unusable token/);
  });

  it('reads the token from Authorization first, then from bearer.<token>', () => {
    assert.equal(presentedToken({ authorization: 'Bearer abc' }), 'abc');
    assert.equal(presentedToken({ authorization: 'bearer  abc ' }), 'abc');
    assert.equal(presentedToken({ 'sec-websocket-protocol': 'rawp-dps-1.0, bearer.xyz' }), 'xyz');
    assert.equal(presentedToken({ authorization: 'Basic Zm9v' }), undefined);
    assert.equal(presentedToken({}), undefined);
  });

  it('routes exactly the endpoints of the profile', () => {
    assert.deepEqual(route('/v1/health'), { kind: 'health' });
    assert.deepEqual(route('/v1/sessions'), { kind: 'sessions' });
    assert.deepEqual(route('/v1/sessions/abc'), { kind: 'session', session_id: 'abc' });
    assert.deepEqual(route('/v1/sessions/abc/stream?last_message_id=m1'), { kind: 'stream', session_id: 'abc', last_message_id: 'm1' });
    assert.deepEqual(route('/'), { kind: 'browser' });
    assert.deepEqual(route('/v1/other'), { kind: 'not_found' });
    assert.deepEqual(route('/v1/sessions/a/b/c'), { kind: 'not_found' });
  });

  it('GET (and HEAD) /v1/health needs no token; the session API needs one (401 without)', async () => {
    const health = await http(`${r.server.url}/v1/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(JSON.parse(health.body), { ok: true, version: '0.1.0', protocol: 'rawp-dps-1.0' });
    assert.equal((await http(`${r.server.url}/v1/sessions`)).status, 401);
    assert.equal((await http(`${r.server.url}/v1/sessions/${r.session.session_id}`, { method: 'DELETE' })).status, 401);
    assert.equal((await http(`${r.server.url}/v1/sessions`, { method: 'POST', body: '{}' })).status, 401);
    assert.equal((await http(`${r.server.url}/v1/health`, { method: 'POST' })).status, 405);
    const head = await http(`${r.server.url}/v1/health`, { method: 'HEAD' });
    assert.equal(head.status, 200, 'a HEAD probe of health answers');
    assert.equal(head.body, '');
  });

  it('refuses a non-loopback bind without TLS unless insecure remote access is explicitly allowed', async () => {
    await assert.rejects(RemoteServer.start({ registry: r.registry, token: r.token, host: '0.0.0.0' }), /refusing to serve plain ws/);
  });
});
