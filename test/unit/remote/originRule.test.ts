// The Host and Origin rules of the control-plane profile (issue 12 #11, decision 165), as pure
// functions and through the gate with a wildcard bind (which the security suite does not open:
// it binds loopback only). A DNS-rebinding page controls both the Host header and its Origin, so
// neither may be compared with the other — only with the names the host was configured with.
import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import { FailureThrottle, generateToken, TokenVerifier } from '../../../src/remote/auth';
import { crossSiteWithoutOrigin, hostAllowed, originAllowed, ownHostNames, ownOrigins } from '../../../src/remote/controlPlane';
import { gate, type GateContext } from '../../../src/remote/gate';

function ctxFor(host: string, extra: { machineNames?: string[]; publicHosts?: string[]; allowedOrigins?: string[] } = {}, port = 8123) {
  const token = generateToken();
  const hostNames = ownHostNames({ host, ...extra });
  const ctx: GateContext = {
    verifier: new TokenVerifier(token),
    throttle: new FailureThrottle(),
    hostNames,
    ownOrigins: ownOrigins({ names: hostNames, port, tls: false }),
    allowedOrigins: new Set(extra.allowedOrigins ?? []),
  };
  return { ctx, token };
}

function req(url: string, headers: Record<string, string>): IncomingMessage {
  return { url, method: 'GET', headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

describe('remote/origin rule: configured names, never the request’s own Host (DNS rebinding)', () => {
  it('names: loopback spellings for a loopback bind; plus machine names for a wildcard bind; the address for a specific bind; public hosts and allow-listed origins’ hosts always', () => {
    assert.deepEqual([...ownHostNames({ host: '127.0.0.1' })].sort(), ['127.0.0.1', '::1', 'localhost'].sort());
    const wild = ownHostNames({ host: '0.0.0.0', machineNames: ['devbox', '10.0.0.5'], publicHosts: ['Dev.Example'], allowedOrigins: ['https://dash.example'] });
    for (const n of ['127.0.0.1', 'localhost', '::1', 'devbox', '10.0.0.5', 'dev.example', 'dash.example']) assert.ok(wild.has(n), n);
    assert.deepEqual([...ownHostNames({ host: '192.168.1.9' })], ['192.168.1.9']);
  });

  it('Host: only a configured name passes, with any port; a rebound name, a missing or malformed Host does not', () => {
    const names = ownHostNames({ host: '0.0.0.0', machineNames: ['devbox'] });
    assert.equal(hostAllowed('devbox:8123', names), true);
    assert.equal(hostAllowed('127.0.0.1:9', names), true);
    assert.equal(hostAllowed('[::1]:8123', names), true);
    assert.equal(hostAllowed('LOCALHOST', names), true);
    assert.equal(hostAllowed('rebind.evil.example:8123', names), false);
    assert.equal(hostAllowed(undefined, names), false);
    assert.equal(hostAllowed('a b', names), false);
    // A URL parser finds a loopback hostname in these too; the Host went on into the page's CSP
    // (the socket review of 2026-12-06).
    assert.equal(hostAllowed("localhost/;script-src 'unsafe-inline' *;x", names), false);
    assert.equal(hostAllowed('evil.example@localhost', names), false);
    assert.equal(hostAllowed('localhost:80/x', names), false);
    assert.equal(hostAllowed('localhost?x', names), false);
    assert.equal(hostAllowed('localhost:8123', names), true);
  });

  it('Origin: equal to the request’s Host is not enough for a wildcard bind; own names and the allow-list are', () => {
    const { ctx, token } = ctxFor('0.0.0.0', { machineNames: ['devbox'], allowedOrigins: ['https://dash.example'] });
    const auth = { authorization: `Bearer ${token}` };
    // The rebinding page: its name resolves here now; Host and Origin both say evil.
    const rebound = gate(req('/v1/sessions', { ...auth, host: 'evil.example:8123', origin: 'http://evil.example:8123' }), ctx, false);
    assert.deepEqual([rebound.ok, !rebound.ok && rebound.status], [false, 421]);
    // Host rewritten to a known name but the page's Origin kept: refused by origin.
    const spoofed = gate(req('/v1/sessions', { ...auth, host: 'devbox:8123', origin: 'http://evil.example:8123' }), ctx, false);
    assert.deepEqual([spoofed.ok, !spoofed.ok && spoofed.status], [false, 403]);
    assert.equal(originAllowed('http://evil.example:8123', { own: ctx.ownOrigins, allowed: ctx.allowedOrigins }), false);
    assert.equal(gate(req('/v1/sessions', { ...auth, host: 'devbox:8123', origin: 'http://devbox:8123' }), ctx, false).ok, true);
    assert.equal(gate(req('/v1/sessions', { ...auth, host: 'devbox:8123', origin: 'https://dash.example' }), ctx, false).ok, true);
  });

  it('a cross-site request without Origin (<img>, no-cors fetch) reaches only the public routes', () => {
    const { ctx, token } = ctxFor('127.0.0.1');
    const h = { host: '127.0.0.1:8123', 'sec-fetch-site': 'cross-site', authorization: `Bearer ${token}` };
    assert.equal(crossSiteWithoutOrigin(h), true);
    const api = gate(req('/v1/sessions', h), ctx, false);
    assert.deepEqual([api.ok, !api.ok && api.status], [false, 403]);
    assert.equal(gate(req('/v1/health', h), ctx, false).ok, true);
    assert.equal(gate(req('/', { ...h, 'sec-fetch-site': 'none' }), ctx, false).ok, true);
    assert.equal(gate(req('/v1/sessions', { ...h, 'sec-fetch-site': 'same-origin' }), ctx, false).ok, true);
  });
});
