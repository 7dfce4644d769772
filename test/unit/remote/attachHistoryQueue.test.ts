// Decision 564: the session.history of an attach is as big as the ring, and it used to count
// against the master's send-queue limit like any live frame — a master that had not read it yet
// was closed (1013) by the first live frame, and again on every attach. Now only what is queued
// behind the history counts; a master behind on live frames past the limit is still closed.
// In-process host (registry, hub, RemoteServer on loopback); masters are real WebSocket clients.
import { strict as assert } from 'node:assert';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { transcriptText } from '../../../src/cli/attach/render';
import { buildFrame } from '../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../src/protocol/capabilities';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { CLOSE, DPS_SUBPROTOCOL } from '../../../src/remote/controlPlane';
import type { WsConnection } from '../../../src/remote/wsConnection';
import { rig, TestMaster, waitFor, type Rig } from './harness';
import { SizedAgent } from './sizedAgent';
import { cuttingRelay } from './relays';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';

const KIB = 1024;
const MIB = 1024 * KIB;
/** A bare master whose reading can be stopped: it sends its capabilities and at once stops reading. */
class StalledMaster {
  readonly frames: Frame[] = [];
  close?: { code: number; reason: string };
  private readonly ws: WebSocket;
  readonly opened: Promise<void>;
  constructor(r: Rig) {
    this.ws = new WebSocket(r.server.attachUrl(r.session.session_id), [DPS_SUBPROTOCOL], { headers: { authorization: `Bearer ${r.token}` } });
    this.ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
    this.ws.on('close', (code, reason) => (this.close = { code, reason: String(reason) }));
    this.opened = new Promise((resolve) =>
      this.ws.once('open', () => {
        this.ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: r.session.session_id })));
        this.tcp.pause();
        resolve();
      }),
    );
  }
  get tcp(): Socket {
    return (this.ws as unknown as { _socket: Socket })._socket;
  }
  types(): string[] {
    return this.frames.map((f) => f.type);
  }
  stop(): void {
    this.ws.terminate();
  }
}

const historyOf = (frames: Frame[]) => frames.find((f): f is FrameOf<'session.history'> => f.type === 'session.history');
const turnEnds = (frames: Frame[]) => frames.filter((f) => f.type === 'session.turn.end').length;

describe('remote/attach history and the send queue (decision 564)', function () {
  this.timeout(60_000);
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  async function fullRing(): Promise<{ r: Rig; fast: TestMaster }> {
    // A 16 MiB ring and a 1 MiB send queue: the history of an attach is 16 times the queue, and
    // more than the kernel's socket buffers take from a peer that does not read.
    const made = await rig({ agent: new SizedAgent(), history: { policy: 'RING', maxBytes: 16 * MIB }, server: { maxQueuedBytes: MIB, closeGraceMs: 60_000 } });
    const fast = await new TestMaster(made).open();
    fast.client.send('control.prompt.request', { prompt_text: '2200' });
    await waitFor(() => fast.transcript.turns[0]?.usage !== undefined, 'the ring is full (17.6 MB through a 16 MiB ring)');
    return { r: made, fast };
  }

  /** Bytes the server holds for the newest master: queued in `ws` (not yet with the kernel) or not yet handed to `ws` (the history's fragments, decision 571). */
  function queuedAtServer(r: Rig): number {
    const attached = [...(r.server as unknown as { attached: Map<string, { socket: WebSocket; conn: WsConnection }> }).attached.values()];
    return attached.at(-1)!.socket.bufferedAmount + attached.at(-1)!.conn.historyUnsent;
  }

  it('§7.1.1 §13.1 a master not reading while its attach history (16 × the queue limit) is queued is not closed by live frames within the limit; it gets the whole history, then every live frame', async () => {
    let fast: TestMaster;
    ({ r, fast } = await fullRing());
    const probe = await new TestMaster(r).open();
    const slow = new StalledMaster(r);
    await slow.opened;
    await waitFor(() => r!.hub.connections(r!.session.session_id).filter((c) => c.phase === 'live').length === 3, 'the stalled master is past its handshake (history queued)');
    assert.ok(queuedAtServer(r) > 2 * MIB, `the history is still queued at the server (${queuedAtServer(r)} bytes)`);
    fast.client.send('control.prompt.request', { prompt_text: '8' }); // 64 KiB of live frames
    await waitFor(() => probe.transcript.turns[1]?.usage !== undefined, 'the live turn reached the others');
    assert.equal(r.hub.connections(r.session.session_id).length, 3, 'the stalled master is still attached (was closed 1013 by the first live frame)');
    slow.tcp.resume();
    await waitFor(() => turnEnds(slow.frames) === 1, 'the slow master read everything');
    assert.equal(slow.close, undefined);
    const h = historyOf(slow.frames)!.payload;
    const expected = historyOf(probe.frames as Frame[])!.payload;
    assert.ok(JSON.stringify(h).length > 15 * MIB, 'the history is the full ring');
    assert.deepEqual(h.frames.map((f) => f.message_id), expected.frames.map((f) => f.message_id), 'the same history as a fast master attached just before');
    assert.deepEqual([h.buffer_status.truncated, h.buffer_status.lost_frame_count! > 0], [true, true]);
    assert.deepEqual(slow.types().slice(0, 5), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'session.history', 'agent.state.changed']);
    const live = (frames: Frame[]) => frames.slice(frames.findIndex((f) => f.type === 'agent.state.changed') + 1).map((f) => f.message_id);
    assert.deepEqual(live(slow.frames), live(probe.frames as Frame[]), 'every live frame, in order');
    slow.stop();
  });

  it('the queue limit still holds for live frames: a master stalled behind its history and then 2 MiB of live frames (over the 1 MiB limit) is closed 1013', async () => {
    let fast: TestMaster;
    ({ r, fast } = await fullRing());
    const slow = new StalledMaster(r);
    await slow.opened;
    await waitFor(() => r!.hub.connections(r!.session.session_id).filter((c) => c.phase === 'live').length === 2, 'the stalled master is past its handshake');
    assert.ok(queuedAtServer(r) > 2 * MIB, 'the history is still queued at the server');
    fast.client.send('control.prompt.request', { prompt_text: '256' });
    await waitFor(() => r!.hub.connections(r!.session.session_id).length === 1, 'the stalled master is dropped');
    await waitFor(() => fast.transcript.turns[1]?.usage !== undefined, 'the others get the whole turn');
    slow.tcp.resume();
    await waitFor(() => slow.close !== undefined, 'it sees the close');
    assert.equal(slow.close!.code, CLOSE.SLOW_CONSUMER);
    assert.equal(turnEnds(slow.frames), 0, 'it really was behind');
    assert.equal(fast.closes.length, 0);
  });

  it('§7.1.1 §7.8.3 a master cut off in the middle of its attach history attaches afresh: it shows the whole transcript with the truncation note, not only what came after its attach', async () => {
    let fast: TestMaster;
    ({ r, fast } = await fullRing());
    const probe = await new TestMaster(r).open();
    const relay = await cuttingRelay(Number(new URL(r.server.url).port), 4 * MIB);
    try {
      const cut = new TestMaster({ server: { attachUrl: (id: string) => `ws://127.0.0.1:${relay.port}/v1/sessions/${id}/stream` } as never, token: r.token, session: r.session });
      await cut.open();
      assert.equal(relay.cuts, 1, 'the first connection was cut');
      assert.ok(cut.closes.length === 1 && cut.closes[0].retryInMs !== undefined, 'it reconnected once');
      assert.equal(cut.connects, 1, 'the cut connection never said it was attached');
      fast.client.send('control.prompt.request', { prompt_text: '3' });
      await waitFor(() => cut.transcript.turns[1]?.usage !== undefined, 'the live turn reached it');
      await waitFor(() => probe.transcript.turns[1]?.usage !== undefined, 'and the master attached before it');
      assert.equal(cut.transcript.historyTruncated?.cause, 'budget');
      assert.match(transcriptText(cut.transcript), /^⚠ Part of this session's history \(about \d+ frames\) is beyond the history budget/);
      assert.ok(transcriptText(cut.transcript).length > 15 * MIB, 'it shows what the ring holds of turn 0');
      assert.equal(transcriptText(cut.transcript), transcriptText(probe.transcript), 'what a master attached just before it shows, note included');
      cut.client.stop();
    } finally {
      await relay.close();
    }
  });

  it('§7.1.1 §7.8.3 the browser master cut off in the middle of its attach history attaches afresh too (it once resumed from an opening frame, past the transcript it never got)', async () => {
    ({ r } = await fullRing());
    const relay = await cuttingRelay(Number(new URL(r.server.url).port), 4 * MIB);
    const urls: string[] = [];
    const histories: FrameOf<'session.history'>[] = [];
    const transport = new WebSocketTransport({
      baseUrl: `http://127.0.0.1:${relay.port}`,
      token: r.token,
      sessionId: r.session.session_id,
      backoffMs: [50],
      createSocket: (url, protocols) => (urls.push(url), new WebSocket(url, protocols) as unknown as WebSocketLike),
      fetchFn: (async () => new Response('[]', { status: 200 })) as typeof fetch,
    });
    transport.onMessage((m) => {
      if (m.kind === 'frames') for (const f of m.payload.frames) if (f.type === 'session.history') histories.push(f as FrameOf<'session.history'>);
    });
    try {
      transport.send({ kind: 'ready', payload: {} } as never);
      await waitFor(() => histories.length > 0, 'a history arrived after the cut');
      assert.equal(relay.cuts, 1, 'the first connection was cut');
      assert.equal(urls.length, 2);
      assert.ok(!urls[1].includes('last_message_id'), `the reconnect attached afresh: ${urls[1]}`);
      assert.ok(histories[0].payload.frames.length > 1000, 'it got the transcript the ring holds');
    } finally {
      transport.close();
      await relay.close();
    }
  });
});
