import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { transcriptText } from '../../../src/cli/attach/render';
import { CLOSE } from '../../../src/remote/controlPlane';
import { PacedAgent, rig, TestMaster, tryUpgrade, waitFor, type Rig } from './harness';

/** The TCP socket under a client WebSocket, to stop reading from it (a stalled consumer). */
function tcpOf(m: TestMaster): Socket {
  const ws = (m.client as unknown as { socket: WebSocket }).socket;
  return (ws as unknown as { _socket: Socket })._socket;
}

function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('remote/robustness: slow consumers, dead peers, churn, TLS', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§2.4 a stalled consumer does not slow the agent or the other masters; past its bounded queue it is closed (1013) and reattaches without loss', async () => {
    const CHUNKS = 3000;
    r = await rig({
      history: { policy: 'RING', maxBytes: 64 * 1024 * 1024 },
      server: { maxQueuedBytes: 256 * 1024, closeGraceMs: 60_000 },
      agent: new PacedAgent({ batches: CHUNKS / 10, perBatch: 10, text: 'y'.repeat(8 * 1024) }),
    });
    const stalled = await new TestMaster(r, { reconnect: { initialMs: 10, maxMs: 10 } }).open();
    const fast = [await new TestMaster(r).open(), await new TestMaster(r).open()];
    tcpOf(stalled).pause();
    fast[0].client.send('control.prompt.request', { prompt_text: 'flood' });
    const deltas = (m: TestMaster) => m.frames.filter((f) => f.type === 'agent.text.delta').length;
    await waitFor(() => fast.every((m) => m.transcript.turns[0]?.usage !== undefined), 'the fast masters got the whole turn');
    // Counts, not clocks: when the others have every frame, the stalled one has not.
    assert.ok(fast.every((m) => deltas(m) === CHUNKS && m.closes.length === 0), 'the others got every frame live, never cut');
    assert.ok(deltas(stalled) < CHUNKS, 'the stalled master really was behind');
    assert.equal(r.session.turnActive, false, 'the agent finished its turn while a master was stalled');
    // It resumes reading: it sees the clear close code, reattaches and misses nothing.
    tcpOf(stalled).resume();
    await waitFor(() => stalled.closes.length > 0, 'stalled master closed');
    assert.equal(stalled.closes[0].code, CLOSE.SLOW_CONSUMER);
    await waitFor(() => stalled.transcript.turns[0]?.usage !== undefined && stalled.transcript.finalization === undefined, 'reattached and complete');
    assert.equal(transcriptText(stalled.transcript), transcriptText(fast[1].transcript));
    for (const m of [stalled, ...fast]) m.client.stop();
  });

  it('heartbeats: a peer that does not answer pings is dropped; one that does stays', async () => {
    r = await rig({ server: { heartbeatMs: 20 } });
    const url = r.server.attachUrl(r.session.session_id);
    const deaf = new WebSocket(url, ['rawp-dps-1.0'], { headers: { authorization: `Bearer ${r.token}` }, autoPong: false });
    let deafClosed = false;
    deaf.on('close', () => (deafClosed = true));
    const alive = new WebSocket(url, ['rawp-dps-1.0'], { headers: { authorization: `Bearer ${r.token}` } });
    let pings = 0;
    alive.on('ping', () => pings++);
    await waitFor(() => deafClosed, 'deaf peer dropped');
    await waitFor(() => pings >= 5, 'the live peer keeps answering');
    assert.equal(alive.readyState, WebSocket.OPEN);
    assert.equal(r.server.masterCount(), 1);
    alive.terminate();
  });

  it('1,000 connect/disconnect cycles leave no connections, bounded memory and no leaked handles', async function () {
    this.timeout(120_000);
    r = await rig();
    const cycle = async () => {
      const m = await new TestMaster(r!, { reconnect: false }).open();
      m.client.stop();
      await waitFor(() => m.ended !== undefined, 'closed');
    };
    for (let i = 0; i < 50; i++) await cycle(); // warm-up
    await waitFor(() => r!.server.masterCount() === 0, 'warm-up done');
    const heapBefore = process.memoryUsage().heapUsed;
    const handlesBefore = process.getActiveResourcesInfo().length;
    for (let i = 0; i < 100; i++) await Promise.all(Array.from({ length: 10 }, cycle));
    await waitFor(() => r!.server.masterCount() === 0 && r!.hub.connections(r!.session.session_id).length === 0, 'everything detached');
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    const handlesAfter = process.getActiveResourcesInfo().length;
    assert.ok(heapGrowth < 64 * 1024 * 1024, `heap grew by ${heapGrowth} bytes over 1,000 cycles`);
    assert.ok(handlesAfter <= handlesBefore + 5, `handles ${handlesBefore} -> ${handlesAfter}`);
  });

  it('TLS: serves https and wss from a user certificate and key; a client that does not trust it is refused', async function () {
    if (!opensslAvailable()) this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'rawp-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
      const cert = readFileSync(join(dir, 'cert.pem'));
      const key = readFileSync(join(dir, 'key.pem'));
      r = await rig({ server: { tls: { cert, key } } });
      assert.match(r.server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.match(r.server.attachUrl(r.session.session_id), /^wss:\/\//);
      const health = await new Promise<string>((resolve, reject) => {
        httpsGet(`${r!.server.url}/v1/health`, { ca: cert }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      });
      assert.equal(JSON.parse(health).protocol, 'rawp-dps-1.0');
      const m = await new TestMaster(r, { ca: cert }).open();
      assert.equal(m.types()[0], 'session.capabilities');
      m.client.stop();
      const untrusted = await tryUpgrade(r.server.attachUrl(r.session.session_id), { headers: { authorization: `Bearer ${r.token}` } });
      assert.equal(untrusted.status, 0, 'no upgrade without trusting the certificate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
