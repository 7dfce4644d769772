// Decision 571: a master on a slow link reads its attach history (one message as big as the ring)
// for longer than the heartbeat allows. The server's ping waited behind the whole history, so the
// master could not answer it and was dropped as dead, attached again and started over; and the
// master client, hearing nothing but the one unfinished message, took its own connection for dead.
// Now the history goes out in fragments: each one written out counts as the peer being alive, a
// ping goes out between them, and the client counts arriving bytes.
// In-process host (registry, hub, RemoteServer on loopback), a real TCP relay that passes the
// server's bytes at a fixed rate, and real WebSocket masters.
import { strict as assert } from 'node:assert';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { rig, TestMaster, waitFor, type Rig } from './harness';
import { SizedAgent } from './sizedAgent';
import { slowRelay, type Relay } from './relays';

const MIB = 1024 * 1024;

const historyOf = (frames: readonly unknown[]) => (frames as Frame[]).find((f): f is FrameOf<'session.history'> => f.type === 'session.history');

describe('remote/a slow master reading its attach history (decision 571)', function () {
  this.timeout(90_000);
  let r: Rig | undefined;
  let relay: Relay | undefined;
  afterEach(async () => {
    await relay?.close();
    await r?.close();
    r = relay = undefined;
  });

  /** A 16 MiB ring filled by one turn; `heartbeatMs` for the server. */
  async function fullRing(heartbeatMs: number): Promise<{ r: Rig; fast: TestMaster }> {
    const made = await rig({ agent: new SizedAgent(), history: { policy: 'RING', maxBytes: 16 * MIB }, server: { heartbeatMs } });
    const fast = await new TestMaster(made).open();
    fast.client.send('control.prompt.request', { prompt_text: '2200' });
    await waitFor(() => fast.transcript.turns[0]?.usage !== undefined, 'the ring is full (17.6 MB through a 16 MiB ring)');
    return { r: made, fast };
  }

  function slowMaster(r: Rig, port: number, idleTimeoutMs?: number): TestMaster {
    return new TestMaster({ server: { attachUrl: (id: string) => `ws://127.0.0.1:${port}/v1/sessions/${id}/stream` } as never, token: r.token, session: r.session }, idleTimeoutMs ? { idleTimeoutMs } : {});
  }

  it('§7.1.1 a master reading its 16 MiB history at 1.5 MB/s, about ten heartbeats long, is not dropped as dead: one connection, the whole history, then the live frames', async () => {
    let fast: TestMaster;
    ({ r, fast } = await fullRing(1000));
    const probe = await new TestMaster(r).open();
    relay = await slowRelay(Number(new URL(r.server.url).port), 1.5 * MIB);
    const slow = slowMaster(r, relay.port);
    const t0 = Date.now();
    await slow.open();
    const tookMs = Date.now() - t0;
    assert.ok(tookMs > 5000, `the history took many heartbeats to read (${tookMs} ms, the heartbeat 1 s)`);
    assert.deepEqual([slow.closes.length, relay.connections, slow.connects], [0, 1, 1], 'one connection, never dropped (before: dropped within two heartbeats, again on every attach)');
    assert.deepEqual(historyOf(slow.frames)!.payload.frames.map((f) => f.message_id), historyOf(probe.frames)!.payload.frames.map((f) => f.message_id), 'the same history as a fast master');
    fast.client.send('control.prompt.request', { prompt_text: '3' });
    await waitFor(() => slow.transcript.turns[1]?.usage !== undefined, 'the live turn reached the slow master', 60_000);
    assert.equal(slow.closes.length, 0);
    slow.client.stop();
  });

  it('§7.1.1 the master client does not take its connection for dead while its history is still arriving, longer than its idle time', async () => {
    // The server's ping every 30 s (the default) cannot help here; only the history's bytes arrive.
    ({ r } = await fullRing(30_000));
    relay = await slowRelay(Number(new URL(r.server.url).port), 3 * MIB);
    const slow = slowMaster(r, relay.port, 1000);
    const t0 = Date.now();
    await slow.open();
    assert.ok(Date.now() - t0 > 2500, 'the history took longer than the idle time to arrive');
    assert.deepEqual([slow.closes.length, relay.connections], [0, 1], 'it kept its one connection (before: it cut it after 1 s and started over)');
    assert.ok(historyOf(slow.frames)!.payload.frames.length > 1000, 'it got the history');
    slow.client.stop();
  });
});
