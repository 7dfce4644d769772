// Decision 546, against a real RemoteServer on loopback with raw sockets: a master that announced a
// tiny limit (`x-rawp.frame_budget` or `max_frame_size` of 700 bytes) made fitting one frame of
// many short strings for it block the event loop 1.2 s (32 rounds, a serialization each) and still
// fail. Now a limit under 16 KiB is refused at once with a 1008 close that says why, and a frame of
// 20,000 short strings (under the byte budget of decision 547) is fitted for a 16 KiB master in a few serializations.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { buildFrame, newId } from '../../../src/protocol/build';
import { CLOSE } from '../../../src/remote/controlPlane';
import { CLIP_MARK } from '../../../src/session/frameFit';
import { MIN_PEER_FRAME_LIMIT } from '../../../src/session/peerLimits';
import { rig, waitFor, type Rig } from './harness';

interface Raw {
  ws: WebSocket;
  got: { type: string; message_id: string; payload: Record<string, unknown> }[];
  closes: { code: number; reason: string }[];
}

async function attach(r: Rig, caps: Record<string, unknown>): Promise<Raw> {
  const session_id = r.session.session_id;
  const ws = new WebSocket(r.server.attachUrl(session_id), ['rawp-dps-1.0', `bearer.${r.token}`], { maxPayload: 64 * 1024 * 1024 });
  const raw: Raw = { ws, got: [], closes: [] };
  ws.on('message', (d) => raw.got.push(JSON.parse(d.toString())));
  ws.on('close', (code, reason) => raw.closes.push({ code, reason: reason.toString() }));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {}, ...caps } as never, { session_id })));
  return raw;
}

describe('remote/peer frame limits: a limit no frame fits is refused, and fitting is bounded (decision 546)', function () {
  this.timeout(60_000);
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  for (const [what, caps] of [
    ['x-rawp.frame_budget', { extensions: { 'x-rawp': { frame_budget: 700 } } }],
    ['max_frame_size', { max_frame_size: 700 }],
  ] as const) {
    it(`§12.2 a master announcing ${what} 700 is closed with 1008 and a reason naming it; a master at ${MIN_PEER_FRAME_LIMIT} bytes is served`, async () => {
      r = await rig();
      const tiny = await attach(r, caps);
      await waitFor(() => tiny.closes.length > 0, 'the tiny master is closed');
      assert.equal(tiny.closes[0].code, CLOSE.POLICY_VIOLATION);
      assert.match(tiny.closes[0].reason, new RegExp(`${what.replace('.', '\\.')} 700 is below ${MIN_PEER_FRAME_LIMIT}`));
      const fine = await attach(r, what === 'max_frame_size' ? { max_frame_size: MIN_PEER_FRAME_LIMIT } : { extensions: { 'x-rawp': { frame_budget: MIN_PEER_FRAME_LIMIT } } });
      await waitFor(() => fine.got.some((f) => f.type === 'session.history' || f.type === 'agent.state.changed'), 'the opening sequence');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(fine.closes.length, 0);
      for (const ws of [tiny.ws, fine.ws]) ws.terminate();
    });
  }

  it('§12.2 §2.4 a 240 KB control of 20,000 short strings reaches a 16 KiB master fitted (its list replaced by the mark), not as FRAME_TOO_LARGE', async () => {
    r = await rig();
    const small = await attach(r, { extensions: { 'x-rawp': { frame_budget: MIN_PEER_FRAME_LIMIT } } });
    const sender = await attach(r, {});
    await waitFor(() => small.got.some((f) => f.type === 'agent.state.changed') && sender.got.some((f) => f.type === 'agent.state.changed'), 'both attached');
    const frame = { ...buildFrame('control.file.search.cancel', { query_id: 'q' } as never, { session_id: r.session.session_id }), message_id: newId() } as { payload: Record<string, unknown>; message_id: string };
    // Under the 256 KiB byte budget of controls without user text (decision 547), which refuses a
    // 3.9 MB cancel before it is relayed; 20,000 strings are still far over 16 KiB.
    frame.payload.pad = Array.from({ length: 20_000 }, (_, i) => `s${i}`.padEnd(9, 'x'));
    const before = small.got.length;
    sender.ws.send(JSON.stringify(frame));
    await waitFor(() => small.got.length > before, 'the small master heard of it', 30_000);
    const got = small.got.slice(before);
    console.log(`      figures: ${JSON.stringify(got.map((f) => `${f.type} ${String(f.payload.error_code ?? '')}`.trim()))}`);
    const relayed = got.find((f) => f.message_id === frame.message_id);
    assert.ok(relayed, `the control itself arrived (got ${got.map((f) => f.type).join(', ')})`);
    assert.equal(relayed.payload.pad, CLIP_MARK);
    assert.equal(relayed.payload.query_id, 'q');
    for (const ws of [small.ws, sender.ws]) ws.terminate();
  });
});
