import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../../src/protocol/frameTypes';
import { CLOSE } from '../../../src/remote/controlPlane';
import type { MastersChange } from '../../../src/remote/server';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { http, rig, TestMaster, tryUpgrade, waitFor, type Rig } from './harness';

/** Frames after a connection's own 4-frame opening (§13.1), as comparable ids. */
// The §13.1 opening (4 frames) and, on a fresh attach to a session with history, its session.history.
const idleAfterTurnEnd = (frames: Array<Frame | VendorFrame>) => {
  const end = frames.findIndex((f) => f.type === 'session.turn.end');
  return end >= 0 && frames.slice(end).some((f) => f.type === 'agent.state.changed' && 'current_state' in f.payload && f.payload.current_state === 'idle');
};
const afterOpening = (frames: Array<Frame | VendorFrame>) => frames.slice(frames[3]?.type === 'session.history' ? 5 : 4).map((f) => `${f.type} ${f.message_id}`);

describe('remote/fan-out: every frame to every connection (§2.4), relay without echo, sharing', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§2.4-1 §2.4-2 §2.4-4 two masters and the webview (a local connection) receive identical frame sequences; the prompting master gets everything but its own control', async () => {
    r = await rig({
      adapter: {
        turns: [{ steps: [{ kind: 'thinking', chunks: ['hm'] }, { kind: 'tool', name: 'Read', input: { file_path: 'a' }, output: 'x' }, { kind: 'text', chunks: ['the ', 'answer'] }] }],
      },
    });
    const a = await new TestMaster(r).open();
    const b = await new TestMaster(r).open();
    const webview = new RecordingConnection('webview', 'local', ALL_FEATURES);
    assert.deepEqual(r.hub.attach(r.session.session_id, webview), { ok: true });
    const sender = await new TestMaster(r).open();
    const prompt = sender.client.send('control.prompt.request', { prompt_text: 'question' });
    // The turn's last frame is the agent.state.changed to idle after session.usage (§7.5.2): wait
    // until every connection has it, or one master may be a socket read behind another.
    await waitFor(() => [a.frames, b.frames, sender.frames, webview.frames].every(idleAfterTurnEnd), 'turn done everywhere');

    const seqA = afterOpening(a.frames);
    assert.ok(seqA.length > 10);
    assert.deepEqual(afterOpening(b.frames), seqA);
    assert.deepEqual(afterOpening(webview.frames), seqA);
    // §2.4 the control is relayed to the others, never echoed to its sender.
    assert.equal(seqA[0], `control.prompt.request ${prompt?.message_id}`);
    assert.deepEqual(afterOpening(sender.frames), seqA.slice(1));
    assert.ok(!sender.frames.some((f) => f.message_id === prompt?.message_id));
    for (const m of [a, b, sender]) m.client.stop();
  });

  it('§2.4 a control sent twice with one message_id is processed once and relayed once; the repeat is refused to its sender', async () => {
    r = await rig();
    const a = await new TestMaster(r).open();
    const sender = await new TestMaster(r).open();
    const frame = sender.client.send('control.prompt.request', { prompt_text: 'once' });
    sender.client.sendRaw(JSON.stringify(frame));
    await waitFor(() => a.transcript.turns[0]?.usage !== undefined, 'turn done');
    // A later frame from the same sender proves the duplicate had its chance to arrive.
    const marker = sender.client.send('control.prompt.request', { prompt_text: 'twice' });
    await waitFor(() => a.transcript.turns[1]?.usage !== undefined, 'second turn done');
    assert.equal(a.frames.filter((f) => f.message_id === frame?.message_id).length, 1);
    assert.deepEqual(r.adapter.prompts.map((p) => p.text), ['once', 'twice']);
    assert.ok(marker);
    // Not processed twice (it would have been refused as PROMPT_IN_PROGRESS, §17.3.2): dropped at
    // the hub with a non-fatal DUPLICATE_MESSAGE_ID for its sender alone, naming the frame.
    const errors = sender.frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error');
    assert.deepEqual(errors.map((e) => [e.payload.error_code, e.payload.fatal, e.parent_id]), [['DUPLICATE_MESSAGE_ID', false, frame?.message_id]]);
    assert.ok(!a.types().includes('session.error'));
    for (const m of [a, sender]) m.client.stop();
  });

  it('§7.6.1 session.renamed reaches every master and the webview', async () => {
    r = await rig();
    const a = await new TestMaster(r).open();
    const b = await new TestMaster(r).open();
    const webview = new RecordingConnection('webview', 'local', ALL_FEATURES);
    r.hub.attach(r.session.session_id, webview);
    r.registry.rename(r.session.session_id, 'renamed!', 'client');
    await waitFor(() => [a, b].every((m) => m.types().includes('session.renamed')), 'renamed everywhere');
    for (const frames of [a.frames, b.frames, webview.frames]) {
      const f = frames.find((x): x is FrameOf<'session.renamed'> => x.type === 'session.renamed');
      assert.equal(f?.payload.name, 'renamed!');
    }
    for (const m of [a, b]) m.client.stop();
  });

  it('§2.2 §7.4.1 malformed JSON gets a non-fatal session.error and the connection stays usable', async () => {
    r = await rig();
    const a = await new TestMaster(r).open();
    a.client.sendRaw('{ this is not json');
    await waitFor(() => a.types().includes('session.error'), 'session.error');
    const err = a.frames.find((f): f is FrameOf<'session.error'> => f.type === 'session.error');
    assert.equal(err?.payload.error_code, 'MALFORMED_JSON');
    assert.equal(err?.payload.fatal, false);
    a.client.send('control.prompt.request', { prompt_text: 'still here' });
    await waitFor(() => a.transcript.turns[0]?.usage !== undefined, 'the turn ran');
    assert.equal(a.closes.length, 0);
    a.client.stop();
  });

  it('§12.2.1 a frame over the announced max_frame_size closes the connection with 1009', async () => {
    r = await rig({ hub: { maxFrameSize: 16 * 1024 } });
    const a = await new TestMaster(r, { reconnect: false }).open();
    assert.equal((a.frames[0] as FrameOf<'session.capabilities'>).payload.max_frame_size, 16 * 1024);
    a.client.send('control.prompt.request', { prompt_text: 'x'.repeat(20 * 1024) });
    await waitFor(() => a.ended !== undefined, 'closed');
    assert.equal(a.closes[0].code, CLOSE.TOO_BIG);
    await waitFor(() => r!.server.masterCount() === 0, 'forgotten');
    assert.equal(r.adapter.prompts.length, 0);
  });

  it('§2.4 a local session is invisible to masters until shared; unsharing disconnects its masters (4403); the count follows with events', async () => {
    r = await rig({ origin: 'local' });
    const changes: MastersChange[] = [];
    const off = r.server.onMastersChanged((c) => changes.push(c));
    const url = r.server.attachUrl(r.session.session_id);
    const auth = { authorization: `Bearer ${r.token}` };
    assert.equal((await tryUpgrade(url, { headers: auth })).status, 404);
    assert.equal((await http(`${r.server.url}/v1/sessions`, { headers: auth })).body, '{"sessions":[]}');
    r.server.share(r.session.session_id);
    const listed = JSON.parse((await http(`${r.server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string; name: string; agent: string; state: string; created_at: string }[] };
    assert.deepEqual(Object.keys(listed.sessions[0]).sort(), ['agent', 'created_at', 'name', 'session_id', 'state']);
    const a = await new TestMaster(r).open();
    const b = await new TestMaster(r).open();
    assert.equal(r.server.masterCount(r.session.session_id), 2);
    r.server.unshare(r.session.session_id);
    await waitFor(() => a.ended !== undefined && b.ended !== undefined, 'masters disconnected');
    assert.equal(a.closes.at(-1)?.code, CLOSE.UNSHARED);
    await waitFor(() => r!.server.masterCount() === 0, 'count back to 0');
    assert.deepEqual(
      changes.map((c) => c.count),
      [1, 2, 1, 0],
    );
    assert.equal(changes.at(-1)?.total, 0);
    assert.equal((await tryUpgrade(url, { headers: auth })).status, 404);
    off();
  });

  it('POST /v1/sessions creates a shared session through the host (201 { session_id }); bad bodies get 400', async () => {
    r = await rig({
      server: {
        createSession: async (req) => {
          const s = await r!.registry.create({ adapter: new ScriptedAdapter(), origin: 'remote', name: req.name });
          return { session_id: s.session_id };
        },
      },
    });
    const auth = { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' };
    const created = await http(`${r.server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'second' }) });
    assert.equal(created.status, 201);
    const { session_id } = JSON.parse(created.body) as { session_id: string };
    const list = JSON.parse((await http(`${r.server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string; name: string }[] };
    assert.ok(list.sessions.some((s) => s.session_id === session_id && s.name === 'second'));
    assert.equal((await http(`${r.server.url}/v1/sessions`, { method: 'POST', headers: auth, body: '{nope' })).status, 400);
    assert.equal((await http(`${r.server.url}/v1/sessions`, { method: 'POST', headers: auth, body: '{"colour":"red"}' })).status, 400);
    // Over the 64 KiB body limit: a 400 that says so (the connection used to be reset before it was written).
    const huge = await http(`${r.server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'x', pad: 'p'.repeat(70_000) }) });
    assert.equal(huge.status, 400);
    assert.match(huge.body, /larger than 65536 bytes/);
    assert.equal((await http(`${r.server.url}/v1/health`)).status, 200);
  });
});
