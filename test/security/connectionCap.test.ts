// Found attacking `rawp serve` (decision 569): at the connection cap Node closed every new
// connection, so a few hundred silent connections — no token needed — kept every master and every
// health check out until the headers timeout freed them, ~11 s, and again for as long as the flood
// went on. Now a new connection takes the place of the oldest silent one; connections that have
// sent a request (answers in flight, attached masters) are never taken. A real `rawp serve`, real
// sockets. And the room is made by the address holding the most silent connections (decision 574):
// a flood from one address no longer takes a slower client's place from another.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { http, rig, waitFor } from '../unit/remote/harness';
import { promptTurn } from './serveChild';
import { serve, stopAll, type ServeChild } from './serveProcess';

interface Silent {
  sockets: Socket[];
  closed: boolean[];
}

/** `n` connections from `from` that never finish their request's headers, opened one after the other. */
async function silentConnections(s: ServeChild, n: number, from = '127.0.0.1'): Promise<Silent> {
  const port = Number(new URL(s.url).port);
  const f: Silent = { sockets: [], closed: [] };
  for (let i = 0; i < n; i++) {
    const sock = connect({ port, host: '127.0.0.1', localAddress: from });
    f.closed.push(false);
    sock.on('error', () => undefined);
    sock.on('close', () => (f.closed[i] = true));
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    sock.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ');
    f.sockets.push(sock);
  }
  return f;
}

describe('security/connection cap: silent connections make room, answered ones and masters keep theirs (decision 569)', function () {
  this.timeout(120_000);
  const opened: Silent[] = [];
  afterEach(async () => {
    for (const f of opened.splice(0)) for (const s of f.sockets) s.destroy();
    await stopAll();
  });

  it('with the cap full of silent connections a health check and a new master get in at once, the oldest silent ones closed first; the attached master keeps working', async () => {
    const s = await serve({ args: ['--max-connections', '30', '--verbose'] });
    const m = await s.master();
    const f = await silentConnections(s, 60);
    opened.push(f);
    // Room was made for the flood itself: the first 31 silent connections are gone, the last 29 held.
    await waitFor(() => f.closed.filter(Boolean).length >= 31, 'the oldest silent connections closed');
    assert.deepEqual(f.closed.slice(0, 31), new Array(31).fill(true), 'oldest first');
    assert.ok(f.closed.slice(-20).every((c) => !c), 'the newest silent connections are still open');
    const health = await http(`${s.url}/v1/health`);
    assert.equal(health.status, 200);
    const second = await s.master();
    assert.equal(second.client.connected, true, 'a second master attached with the cap full');
    const t = await promptTurn(m, 'run `echo still-here`', 'allow_once');
    assert.deepEqual([t.results[0]?.payload.status, t.results[0]?.payload.output], ['success', 'still-here\n'], 'the first master was never taken');
    assert.equal(m.closes.length, 0, 'the first master was never disconnected');
    await waitFor(() => /silent ones make room/.test(s.err), 'the operator is told');
    assert.ok(s.alive());
  });

  it('a flood from one address takes its own silent places: a slower client from another address keeps its place and is answered, and a smaller group from a third keeps theirs (decision 574)', async () => {
    const s = await serve({ args: ['--max-connections', '30', '--verbose'] });
    // Linux routes all of 127.0.0.0/8 to loopback: three addresses, three sources.
    const slow = await silentConnections(s, 1, '127.0.0.2');
    const few = await silentConnections(s, 5, '127.0.0.3');
    const flood = await silentConnections(s, 60, '127.0.0.1');
    opened.push(slow, few, flood);
    // 66 silent connections for 30 places: the flood gave up 36 of its own, oldest first.
    await waitFor(() => flood.closed.filter(Boolean).length >= 36, 'the flood closed its own oldest connections');
    assert.deepEqual(flood.closed.slice(0, 36), new Array(36).fill(true), 'the flood oldest first');
    assert.ok(flood.closed.slice(-20).every((c) => !c), "the flood's newest still open");
    assert.equal(slow.closed[0], false, 'the slow client, the oldest of all, kept its place (it was closed first before)');
    assert.deepEqual(few.closed, new Array(5).fill(false), 'the smaller group kept its places');
    // The slow client finishes its request and is answered.
    const answer = new Promise<string>((resolve) => {
      let text = '';
      slow.sockets[0].on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    slow.sockets[0].write('x\r\n\r\n');
    assert.match(await answer, /^HTTP\/1\.1 200 /);
    await waitFor(() => /the oldest of the address holding the most/.test(s.err), 'the operator is told');
    assert.ok(s.alive());
  });

  it('when every connection has sent a request (masters), a new connection is closed at once and no master loses its place', async () => {
    const s = await serve({ args: ['--max-connections', '3'] });
    const masters = [await s.master(), await s.master(), await s.master()];
    const refused = await http(`${s.url}/v1/health`).then(() => 'answered', (e: NodeJS.ErrnoException) => e.code ?? 'error');
    assert.match(refused, /ECONNRESET|EPIPE|socket hang up|error/);
    assert.ok(masters.every((m) => m.client.connected && m.closes.length === 0), 'every master still attached');
    masters[2].client.stop();
    await waitFor(() => !masters[2].client.connected, 'one master left');
    // The server sees the close a moment later: a few tries, each a real request.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await http(`${s.url}/v1/health`).then((r) => r.status, () => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 200, 'its place is free again');
    assert.ok(s.alive());
  });

  it('over TLS a connection is silent from its finished handshake: the oldest such makes room for an https request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-cap-tls-'));
    const r = await (async () => {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      return rig({ server: { tls: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) }, maxConnections: 4 } });
    })();
    const ca = readFileSync(join(dir, 'cert.pem'));
    const port = Number(new URL(r.server.url).port);
    const closed: boolean[] = [];
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const sock = tlsConnect({ port, host: '127.0.0.1', ca });
        closed.push(false);
        sock.on('error', () => undefined);
        sock.on('close', () => (closed[i] = true));
        await new Promise<void>((resolve) => sock.once('secureConnect', () => resolve()));
        sockets.push(sock);
      }
      await waitFor(() => closed[0] && closed[1], 'the two oldest silent TLS connections closed');
      assert.deepEqual(closed, [true, true, false, false, false, false]);
      const status = await new Promise<number>((resolve, reject) => httpsGet(`${r.server.url}/v1/health`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject));
      assert.equal(status, 200);
      await waitFor(() => closed[2], 'the next oldest made room for it');
    } finally {
      for (const s of sockets) s.destroy();
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
