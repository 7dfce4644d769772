// WsConnection's write path (decision 250, issue 18): a burst published in one tick goes out
// through a corked transport — one cork and one uncork per tick, after the burst — with the
// frame's JSON encoded once and shared by every socket, and every frame still arrives as its own
// text message, in order. Real sockets over loopback.
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { frameBytes } from '../../../src/remote/frameBytes';
import { WsConnection } from '../../../src/remote/wsConnection';
import type { WireFrame } from '../../../src/session/connection';

interface Peer {
  conn: WsConnection;
  events: string[];
  received: string[];
  binary: boolean[];
  client: WebSocket;
}

async function peers(n: number): Promise<{ peers: Peer[]; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server: Server = createServer();
  const accepted: { ws: WebSocket; socket: Socket }[] = [];
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => accepted.push({ ws, socket: socket as Socket })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const out: Peer[] = [];
  for (let i = 0; i < n; i++) {
    const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    const peer = { events: [] as string[], received: [] as string[], binary: [] as boolean[], client } as Peer;
    client.on('message', (data, isBinary) => {
      peer.received.push(String(data));
      peer.binary.push(isBinary);
    });
    await new Promise((resolve) => client.once('open', resolve));
    for (let t = 0; accepted.length <= i && t < 200; t++) await new Promise((resolve) => setTimeout(resolve, 5));
    const { ws, socket } = accepted[i];
    const transport = {
      cork: () => {
        peer.events.push('cork');
        socket.cork();
      },
      uncork: () => {
        peer.events.push('uncork');
        socket.uncork();
      },
    };
    peer.conn = new WsConnection(ws, { id: `c${i}`, maxQueuedBytes: 64 * 1024 * 1024, closeGraceMs: 1000, transport });
    out.push(peer);
  }
  return {
    peers: out,
    close: async () => {
      for (const p of out) p.client.terminate();
      for (const a of accepted) a.ws.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('remote/WsConnection: corked fan-out (decision 250)', () => {
  it('§2.4 a burst of 500 frames in one tick to 3 masters: one cork and one uncork each, after the burst; every frame its own text message, in order, intact', async () => {
    const { peers: ps, close } = await peers(3);
    try {
      const frames = Array.from({ length: 500 }, (_, i) => buildFrame('agent.text.delta', { content_index: 0, text: `chunk ${i} é 😀` }, { session_id: 's1', turn_id: 't1' }) as WireFrame);
      for (const f of frames) {
        for (const p of ps) p.conn.send(f);
        for (const p of ps) p.events.push('sent');
      }
      // Still in the same tick: held by the cork (and counted, so the slow-consumer bound sees it).
      for (const p of ps) assert.deepEqual([p.events[0], p.events.includes('uncork')], ['cork', false]);
      await new Promise((resolve) => process.nextTick(resolve));
      for (const p of ps) {
        assert.equal(p.events.filter((e) => e === 'cork').length, 1);
        assert.equal(p.events.filter((e) => e === 'uncork').length, 1);
        assert.equal(p.events[p.events.length - 1], 'uncork', 'uncorked only after the whole burst');
      }
      const want = frames.map((f) => JSON.stringify(f));
      for (let t = 0; ps.some((p) => p.received.length < want.length) && t < 400; t++) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const p of ps) {
        assert.deepEqual(p.received, want);
        assert.ok(p.binary.every((b) => b === false), 'text frames, not binary');
      }
      // A later tick corks again.
      const later = buildFrame('agent.text.delta', { content_index: 0, text: 'later' }, { session_id: 's1', turn_id: 't1' }) as WireFrame;
      for (const p of ps) p.conn.send(later);
      await new Promise((resolve) => process.nextTick(resolve));
      for (const p of ps) assert.equal(p.events.filter((e) => e === 'cork').length, 2);
    } finally {
      await close();
    }
  });

  it('a frame is encoded once: every socket gets the same bytes object, a new frame new bytes', () => {
    const a = buildFrame('agent.text.delta', { content_index: 0, text: 'a' }, { session_id: 's1', turn_id: 't1' }) as WireFrame;
    const b = buildFrame('agent.text.delta', { content_index: 0, text: 'b' }, { session_id: 's1', turn_id: 't1' }) as WireFrame;
    const first = frameBytes(a);
    assert.equal(frameBytes(a), first);
    assert.equal(first.toString('utf8'), JSON.stringify(a));
    assert.notEqual(frameBytes(b), first);
    assert.equal(frameBytes(b).toString('utf8'), JSON.stringify(b));
  });
});
