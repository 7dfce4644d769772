// Audit (decision 547): controls that carry no user text were kept in history whole, unknown payload
// keys included (decision 002), so a token holder's two 3.9 MB control.file.search.cancel frames for
// an unknown query_id evicted the whole 8 MiB ring another master reattaches from. Now such
// controls from remote masters are kept only within a per-session byte budget (256 KiB, then 16 KiB
// a second); past it they are refused RATE_LIMITED, not relayed or kept, and counted towards 1008.
// Real RemoteServer on loopback, raw sockets.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { buildCheckpointFrame, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../src/protocol/checkpointFrames';
import { CLOSE } from '../../src/remote/controlPlane';
import { rig, waitFor, type Rig } from '../unit/remote/harness';

type Got = { type: string; message_id: string; parent_id?: string; payload: Record<string, unknown> };

async function attach(r: Rig, last_message_id?: string): Promise<{ ws: WebSocket; got: Got[]; closes: number[]; send(type: string, payload: unknown): string }> {
  const session_id = r.session.session_id;
  const url = r.server.attachUrl(session_id) + (last_message_id ? `${r.server.attachUrl(session_id).includes('?') ? '&' : '?'}last_message_id=${last_message_id}` : '');
  const ws = new WebSocket(url, ['rawp-dps-1.0', `bearer.${r.token}`], { maxPayload: 64 * 1024 * 1024 });
  const got: Got[] = [];
  const closes: number[] = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString())));
  ws.on('close', (c) => closes.push(c));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const send = (type: string, payload: unknown) => {
    const f = buildFrame(type as 'control.prompt.request', payload as never, { session_id });
    ws.send(JSON.stringify(f));
    return f.message_id;
  };
  send('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} });
  await waitFor(() => got.some((f) => f.type === 'agent.state.changed'), 'attached');
  return { ws, got, closes, send };
}

const limited = (got: Got[]) => got.filter((f) => f.type === 'session.error' && f.payload.error_code === 'RATE_LIMITED');

describe('security/history flush: controls without user text cannot flush the history others reattach from (decision 547)', function () {
  this.timeout(120_000);
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§13.7 §7.1.1 two 3.9 MB control.file.search.cancel frames are refused RATE_LIMITED, not relayed; a fresh attach still gets the earlier turn, truncated: false', async () => {
    r = await rig({ adapter: { turns: [{ steps: [{ kind: 'text', chunks: ['the answer'] }] }] } });
    const reader = await attach(r);
    const prompt = reader.send('control.prompt.request', { prompt_text: 'hello' });
    await waitFor(() => reader.got.some((f) => f.type === 'session.turn.end'), 'the turn ran');
    const bad = await attach(r);
    const pad = 'x'.repeat(3_900_000);
    const ids = [bad.send('control.file.search.cancel', { query_id: 'nope1', pad }), bad.send('control.file.search.cancel', { query_id: 'nope2', pad })];
    await waitFor(() => limited(bad.got).length === 2, 'both refused', 60_000);
    assert.deepEqual(limited(bad.got).map((f) => f.parent_id), ids);
    assert.match(String(limited(bad.got)[0].payload.message), /not kept: controls without user text may take 256 KiB at once and 16 KiB a second per session/);
    assert.ok(!reader.got.some((f) => ids.includes(f.message_id)), 'not relayed');
    const late = await attach(r);
    const history = late.got.find((f) => f.type === 'session.history') as Got & { payload: { frames: Got[]; buffer_status: { truncated: boolean } } };
    assert.ok(history, 'a session.history');
    assert.equal(history.payload.buffer_status.truncated, false);
    assert.ok(history.payload.frames.some((f) => f.message_id === prompt), 'the prompt is still there');
    assert.ok(history.payload.frames.some((f) => f.type === 'session.turn.end'), 'and its turn');
    for (const m of [reader, bad, late]) m.ws.terminate();
  });

  it('§13.7 §3.1.1 vendor frames take the same budget: 1,520 x-rawp.checkpoint.restore of unknown checkpoints from 8 masters are not all answered into history', async () => {
    // Found attacking `rawp serve`: vendor frames skipped the budget, and the host answers each
    // restore of an unknown checkpoint with x-rawp.checkpoint.restored to every connection, kept in
    // history. Ten masters at their frame rate flushed the whole 8 MiB ring in 30 s (19,284 such
    // answers, the earlier turn gone) and none of them was ever refused.
    r = await rig();
    const session_id = r.session.session_id;
    let handled = 0;
    const sub = r.hub.onVendorFrame(CHECKPOINT_RESTORE_TYPE, (frame) => {
      handled++;
      const checkpoint_id = String((frame.payload as { checkpoint_id?: unknown }).checkpoint_id);
      const error = { code: 'CHECKPOINT_NOT_FOUND', message: `session ${session_id} has no checkpoint ${checkpoint_id}` };
      r!.hub.publish(session_id, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id, restored: [], conflicts: [], error }, session_id, { parent_id: frame.message_id }));
    });
    const masters: (Awaited<ReturnType<typeof attach>> & { sent: Set<string> })[] = [];
    for (let m = 0; m < 8; m++) masters.push({ ...(await attach(r)), sent: new Set<string>() });
    // 190 each: within every master's own frame rate (a burst of 200), about 470 bytes a frame.
    for (const [k, m] of masters.entries()) for (let i = 0; i < 190; i++) m.sent.add(m.send(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: `${'c'.repeat(200)}-${k}-${i}` }));
    // Each of its frames answered (to everyone) or refused (to it alone), or the master closed.
    const settled = (m: (typeof masters)[number]) => m.closes.length > 0 || m.got.filter((f) => f.parent_id !== undefined && m.sent.has(f.parent_id)).length >= 190;
    await waitFor(() => masters.every(settled), 'every frame answered or its sender closed', 60_000);
    sub.dispose();
    assert.ok(handled < 800, `${handled} of 1,520 restores were handled and answered into history (the budget: 256 KiB at once, 16 KiB a second)`);
    assert.ok(masters.some((m) => limited(m.got).length > 0), 'the frames over the budget are refused RATE_LIMITED');
    assert.ok(masters.some((m) => m.closes.includes(CLOSE.POLICY_VIOLATION)), 'and their senders closed after 20 refusals');
    for (const m of masters) m.ws.terminate();
  });

  it('§13.7 a flood of 300 KB controls is closed with 1008 after 20 refusals; 120 small ones at once (a person in the @-picker) are not limited', async () => {
    r = await rig();
    const typist = await attach(r);
    // A cancel per key, as the @-picker sends (this scripted agent has no file search to answer).
    for (let i = 0; i < 120; i++) typist.send('control.file.search.cancel', { query_id: `k${i}` });
    const bad = await attach(r);
    const pad = 'y'.repeat(300_000);
    for (let i = 0; i < 30; i++) bad.send('control.mode.switch', { mode: 'default', pad });
    await waitFor(() => bad.closes.length > 0, 'the flooder is closed', 60_000);
    assert.equal(bad.closes[0], CLOSE.POLICY_VIOLATION);
    assert.equal(limited(bad.got).length, 21);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(limited(typist.got).map((f) => f.payload.message), []);
    assert.deepEqual([typist.closes, [...new Set(typist.got.filter((f) => f.type === "session.error").map((f) => f.payload.error_code))]], [[], []]);
    for (const m of [typist, bad]) m.ws.terminate();
  });
});
