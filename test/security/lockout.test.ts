// Issue 12 #4 and the token parts of #11, against a real `rawp serve`:
// - tokenless requests used to count as failures for 127.0.0.1: eight `curl …/v1/sessions` locked
//   the right token out (429), a web page's <img> requests kept 9 of 10 real attempts out, and an
//   attacker rotating source addresses across 127/8 was never throttled;
// - `rawp attach` treated a 429 as final; weak tokens and world-readable token files were accepted;
//   `--token T` stayed readable in /proc/PID/cmdline.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { generateToken } from '../../src/remote/auth';
import { waitFor } from '../unit/remote/harness';
import { CLI, serve, stopAll, type ServeChild } from './serveProcess';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  ms: number;
}

/** One HTTP GET from a chosen loopback source address, no connection reuse. */
function get(url: string, o: { token?: string; from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, localAddress: o.from, headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A WebSocket attach with the right token; resolves with the status (101 when it opened). */
function attachStatus(s: ServeChild, from: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/v1/sessions/${s.session_id}/stream`, ['rawp-dps-1.0'], { headers: { authorization: `Bearer ${s.token}` }, localAddress: from });
    ws.on('unexpected-response', (_q, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('error', () => resolve(0));
  });
}

/** 127.0.0.0/8 addresses, rotated the way an attacker would (each is a different sender to a naive throttle). */
const source = (i: number) => `127.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) || 1}`;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

describe('security/lockout: the real user is never locked out; guessers are (issue 12 #4, #11)', function () {
  this.timeout(180_000);
  afterEach(stopAll);

  it('0 legitimate refusals (HTTP and WebSocket) under a flood of 3,000 tokenless and 600 wrong-token requests from rotating 127/8 addresses; /v1/health stays fast', async () => {
    const s = await serve();
    const sessions = `${s.url}/v1/sessions`;
    const statuses = { tokenless: new Map<number, number>(), wrong: new Map<number, number>() };
    const count = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
    let flooding = true;
    // The flood: 3,000 tokenless GETs and 600 wrong tokens, 40 in flight at a time, each from its own address.
    const flood = (async () => {
      const wrong = 'f'.repeat(10) + '0123456789abcdef0123456789abcdef';
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < 3600; i = next++) {
          const a = await get(sessions, { from: source(i + 2), ...(i % 6 === 5 ? { token: wrong } : {}) }).catch(() => ({ status: 0 }) as Answer);
          count(i % 6 === 5 ? statuses.wrong : statuses.tokenless, a.status);
        }
      };
      await Promise.all(Array.from({ length: 40 }, worker));
      flooding = false;
    })();
    const legit: number[] = [];
    const health: number[] = [];
    for (let i = 0; flooding && i < 2000; i++) {
      const [h, l] = await Promise.all([get(`${s.url}/v1/health`, { from: source(900_000 + i) }), get(sessions, { token: s.token, from: source(i + 3) })]);
      health.push(h.ms);
      legit.push(l.status);
      if (i % 10 === 0) legit.push(await attachStatus(s, source(i + 7)));
    }
    await flood;
    assert.ok(legit.length >= 20, `only ${legit.length} legitimate attempts ran during the flood`);
    assert.deepEqual([...new Set(legit)].sort(), legit.some((x) => x === 101) ? [101, 200] : [200], `legitimate answers: ${legit.join(',')}`);
    assert.deepEqual([...statuses.tokenless.keys()], [401], 'tokenless: a plain 401, never counted');
    // Loopback is one source: after 5 wrong tokens every further one is locked out, whatever address it came from.
    assert.ok((statuses.wrong.get(429) ?? 0) >= 590, `wrong tokens: ${JSON.stringify([...statuses.wrong])}`);
    assert.ok(s.alive());
    const figures = { legit_attempts: legit.length, health_p50_ms: +percentile(health, 50).toFixed(1), health_p99_ms: +percentile(health, 99).toFixed(1), health_max_ms: +Math.max(...health).toFixed(1) };
    console.log(`      figures: ${JSON.stringify(figures)}`);
    assert.ok(figures.health_p50_ms < 200, `/v1/health median ${figures.health_p50_ms} ms under the flood`);
  });

  it('a tokenless flood never starts a lockout: after 200 tokenless requests a wrong token is a plain 401', async () => {
    const s = await serve();
    for (let i = 0; i < 200; i++) assert.equal((await get(`${s.url}/v1/sessions`, { from: source(i + 1) })).status, 401);
    const wrong = await get(`${s.url}/v1/sessions`, { token: generateToken() });
    assert.equal(wrong.status, 401);
  });

  it('weak tokens, group/other-readable token files are refused at start; RAWP_TOKEN works; --token warns and is wiped from /proc/PID/cmdline', async () => {
    const weak = await serve({ expectExit: true, tokenArgs: (_t, dir) => (writeFileSync(join(dir, 'weak'), 'a'.repeat(32), { mode: 0o600 }), ['--token-file', join(dir, 'weak')]) });
    await waitFor(() => weak.exit !== undefined, 'exit');
    assert.equal(weak.exit, 2);
    assert.match(weak.err, /looks weak/);
    const open = await serve({ expectExit: true, tokenArgs: (t, dir) => (writeFileSync(join(dir, 'open'), t, { mode: 0o644 }), ['--token-file', join(dir, 'open')]) });
    await waitFor(() => open.exit !== undefined, 'exit');
    assert.equal(open.exit, 2);
    assert.match(open.err, /accessible to other users \(mode 0644\).*chmod 600/);

    let envToken = '';
    const viaEnv = await serve({ tokenArgs: () => [], env: { RAWP_TOKEN: (envToken = 'c0ffee'.repeat(4) + '0123456789abcdef') } });
    assert.equal((await get(`${viaEnv.url}/v1/sessions`, { token: envToken })).status, 200);
    assert.ok(!viaEnv.err.includes(envToken), 'a token from the environment is never printed');

    const viaArg = await serve({ tokenArgs: (t) => ['--token', t] });
    assert.match(viaArg.err, /warning: --token puts the token in the process list/);
    const cmdline = readFileSync(`/proc/${viaArg.proc.pid}/cmdline`, 'utf8');
    assert.ok(!cmdline.includes(viaArg.token), `the token is still in /proc/PID/cmdline: ${cmdline.replace(/\0/g, ' ')}`);
    assert.equal((await get(`${viaArg.url}/v1/sessions`, { token: viaArg.token })).status, 200);
  });

  it('rawp attach honours Retry-After: told 429 twice (listing) and twice more (upgrade), it waits as asked and attaches', async () => {
    const s = await serve();
    // A loopback front that answers 429 + Retry-After: 1 to the first two session listings and the
    // first two WebSocket upgrades, then relays to rawp serve.
    const hits: { upgrade: boolean; at: number }[] = [];
    const sockets = new Set<Socket>();
    const front = createServer((inbound) => {
      sockets.add(inbound);
      inbound.once('data', (first) => {
        const upgrade = /\r\nupgrade: websocket/i.test(first.toString('latin1'));
        hits.push({ upgrade, at: performance.now() });
        if (hits.filter((h) => h.upgrade === upgrade).length <= 2) {
          inbound.end('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          return;
        }
        const outbound = connect(Number(new URL(s.url).port), '127.0.0.1');
        sockets.add(outbound);
        outbound.on('error', () => inbound.destroy());
        inbound.on('error', () => outbound.destroy());
        outbound.write(first);
        inbound.pipe(outbound).pipe(inbound);
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const port = (front.address() as { port: number }).port;
    const tokenFile = join(s.dir, 'token');
    const attach = spawn(process.execPath, [CLI, 'attach', `http://127.0.0.1:${port}`, '--token-file', tokenFile], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let exit: number | null | undefined;
    attach.stdout.on('data', (d: Buffer) => (out += d.toString()));
    attach.stderr.on('data', (d: Buffer) => (out += d.toString()));
    attach.on('exit', (code) => (exit = code));
    try {
      await waitFor(() => out.includes('[attached') || exit !== undefined, 'rawp attach attaches', 60_000);
      assert.equal(exit, undefined, `rawp attach exited: ${out}`);
      assert.deepEqual(hits.map((h) => h.upgrade), [false, false, false, true, true, true], 'three listings, then three upgrades');
      for (const i of [1, 2, 4, 5]) assert.ok(hits[i].at - hits[i - 1].at >= 900, `request ${i + 1} came ${Math.round(hits[i].at - hits[i - 1].at)} ms after a Retry-After of 1 s`);
    } finally {
      attach.kill('SIGKILL');
      for (const so of sockets) so.destroy();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});
