import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../../src/protocol/frameTypes';
import { transcriptText } from '../../../src/cli/attach/render';
import { CLOSE } from '../../../src/remote/controlPlane';
import { http, rig, TestMaster, waitFor, type Rig } from './harness';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const history = (frames: Array<Frame | VendorFrame>) => frames.filter((f): f is FrameOf<'session.history'> => f.type === 'session.history');

describe('remote/sequences: §13.1 attach and §13.7 reattach over a real WebSocket', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§13.1 a fresh attach gets session.capabilities first (with max_frame_size), then tool.catalog.publish, agent.commands.publish, the session so far (session.history) and agent.state.changed idle last', async () => {
    r = await rig({ hub: { maxFrameSize: 65536 } });
    const m = await new TestMaster(r).open();
    assert.deepEqual(m.types().slice(0, 5), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'session.history', 'agent.state.changed']);
    const caps = m.frames[0] as FrameOf<'session.capabilities'>;
    assert.equal(caps.payload.max_frame_size, 65536);
    assert.equal(caps.payload.protocol_version, 'rawp-dps-1.0');
    assert.equal((m.frames[4] as FrameOf<'agent.state.changed'>).payload.current_state, 'idle');
    m.client.stop();
  });

  it('§13.7 §7.1.1 §2.3 a connection cut mid-turn reattaches with last_message_id: session.history holds exactly the frames after it, and the reassembled transcript equals an uncut one', async () => {
    const g = gate();
    r = await rig({
      adapter: {
        turns: [
          {
            steps: [
              { kind: 'thinking', chunks: ['let me ', 'see'] },
              { kind: 'text', chunks: ['first ', 'half '], done: false, index: 1 },
              { kind: 'tool', name: 'Bash', id: 'b1', input: { command: 'ls' }, stream: ['a\n', 'b\n'], output: 'a\nb\n' },
              { kind: 'waitFor', promise: g.promise },
              { kind: 'text', chunks: ['second ', 'half'], index: 1 },
              { kind: 'tool', name: 'Read', id: 'r1', input: { file_path: 'x' }, output: 'content' },
              { kind: 'text', chunks: ['done.'] },
            ],
          },
        ],
      },
    });
    const cut = await new TestMaster(r, { reconnect: { initialMs: 300, maxMs: 300 } }).open();
    const uncut = await new TestMaster(r).open();
    const sender = await new TestMaster(r).open();
    sender.client.send('control.prompt.request', { prompt_text: 'go' });
    await waitFor(() => r!.adapter.prompts.length === 1 && cut.frames.some((f) => f.type === 'tool.invoke.result'), 'first half seen by the master that will be cut');
    const resumeFrom = cut.client.lastMessageId;
    cut.client.drop();
    g.open();
    await waitFor(() => uncut.frames.some((f) => f.type === 'session.turn.end'), 'turn end on the uncut master');
    await waitFor(() => cut.transcript.turns[0]?.open === false && !cut.transcript.turns[0].synthetic && cut.transcript.turns[0].usage !== undefined, 'cut master has the whole turn');
    await waitFor(() => uncut.frames.some((f) => f.type === 'session.usage'), 'usage on the uncut master');

    assert.equal(cut.connects, 2);
    assert.deepEqual(cut.invalid, []);
    // §13.7 order of the reattach opening.
    const second = cut.frames.findIndex((f, i) => i > 0 && f.type === 'session.capabilities');
    assert.deepEqual(cut.types().slice(second, second + 4), ['session.capabilities', 'session.history', 'tool.catalog.publish', 'agent.commands.publish']);
    // The reattach's history (the first one came with the fresh attach, issue 11).
    const h = history(cut.frames).at(-1)!;
    assert.equal(history(cut.frames).length, 2);
    assert.equal(h.payload.buffer_status.truncated, false);
    assert.equal(h.payload.buffer_status.policy_applied, 'RING');
    assert.ok(h.payload.frames.length > 0, 'frames were published while the master was away');

    // Exactly the frames after resumeFrom: what the uncut master got after that id.
    const uncutIds = uncut.frames.map((f) => f.message_id);
    const at = uncutIds.indexOf(resumeFrom as string);
    assert.ok(at >= 0, 'the resume point is a frame every master got');
    const missed = h.payload.frames.map((f) => (f as { message_id: string }).message_id);
    const liveAfter = cut.frames.slice(second + 4).map((f) => f.message_id);
    assert.deepEqual([...missed, ...liveAfter], uncutIds.slice(at + 1).filter((id) => !uncut.frames.slice(0, 4).some((o) => o.message_id === id)));

    // Zero lost frames: the reassembled transcript equals the uncut one.
    assert.equal(transcriptText(cut.transcript), transcriptText(uncut.transcript));
    assert.match(transcriptText(uncut.transcript), /› go[\s\S]*Bash[\s\S]*Read[\s\S]*done\.[\s\S]*ended: end_turn/);
    assert.equal(cut.transcript.historyTruncated, undefined);
    for (const m of [cut, uncut, sender]) m.client.stop();
  });

  it('§7.1.1 §7.8.3 a ring overflow while away is surfaced: buffer_status.truncated true, lost_frame_count, and the transcript warns', async () => {
    const g = gate();
    const chunks = Array.from({ length: 200 }, (_, i) => `chunk ${i} ${'x'.repeat(100)} `);
    r = await rig({
      history: { policy: 'RING', maxBytes: 8 * 1024 },
      adapter: { turns: [{ steps: [{ kind: 'text', chunks: ['start '], done: false, index: 0 }, { kind: 'waitFor', promise: g.promise }, { kind: 'text', chunks, index: 0 }] }] },
    });
    const cut = await new TestMaster(r, { reconnect: { initialMs: 300, maxMs: 300 } }).open();
    const sender = await new TestMaster(r).open();
    sender.client.send('control.prompt.request', { prompt_text: 'go' });
    await waitFor(() => cut.frames.some((f) => f.type === 'agent.text.delta'), 'first delta');
    cut.client.drop();
    g.open();
    await waitFor(() => history(cut.frames).length === 2, 'history after reattach (the first came with the fresh attach)');
    const h = history(cut.frames).at(-1)!;
    assert.equal(h.payload.buffer_status.truncated, true);
    assert.ok((h.payload.buffer_status.lost_frame_count ?? 0) > 0);
    assert.ok(cut.transcript.historyTruncated, 'the reducer surfaces the loss');
    assert.match(transcriptText(cut.transcript), /history was lost/);
    for (const m of [cut, sender]) m.client.stop();
  });

  it('§7.5.3 §7.7.1 DELETE /v1/sessions/{id} mid-turn: every master gets the cancelled tool result, turn.end error, session.deleted, then close 1000', async () => {
    r = await rig({ adapter: { turns: [{ steps: [{ kind: 'tool', name: 'Bash', id: 'b1', input: {}, untilAborted: true }] }] } });
    const a = await new TestMaster(r).open();
    const b = await new TestMaster(r).open();
    a.client.send('control.prompt.request', { prompt_text: 'go' });
    await waitFor(() => b.frames.some((f) => f.type === 'tool.invoke.request'), 'tool running');
    const res = await http(`${r.server.url}/v1/sessions/${r.session.session_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${r.token}` } });
    assert.equal(res.status, 204);
    await waitFor(() => a.ended !== undefined && b.ended !== undefined, 'both masters closed');
    for (const m of [a, b]) {
      const tail = m.types().slice(-4);
      const cancelled = m.frames.find((f): f is FrameOf<'tool.invoke.result'> => f.type === 'tool.invoke.result');
      assert.equal(cancelled?.payload.status, 'cancelled');
      const end = m.frames.find((f): f is FrameOf<'session.turn.end'> => f.type === 'session.turn.end');
      assert.equal(end?.payload.stop_reason, 'error');
      assert.equal(tail.at(-1), 'session.deleted');
      assert.ok(m.types().indexOf('tool.invoke.result') < m.types().indexOf('session.turn.end'));
      assert.ok(m.types().indexOf('session.turn.end') < m.types().indexOf('session.deleted'));
      assert.equal(m.closes.at(-1)?.code, CLOSE.SESSION_ENDED);
      assert.equal(m.closes.at(-1)?.retryInMs, undefined, 'no reconnect to a deleted session');
    }
    assert.equal((await http(`${r.server.url}/v1/sessions`, { headers: { authorization: `Bearer ${r.token}` } })).body, '{"sessions":[]}');
  });
});
