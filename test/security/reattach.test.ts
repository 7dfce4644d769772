// Issue 12 #7 and the flood half of #11, against a real `rawp serve`:
// - a master that reuses a server frame's message_id used to repoint that id in history, so a later
//   reattach from it got 0 of 13 frames with truncated: false. Now the frame is dropped with a
//   non-fatal session.error naming it, and the reattach gets everything.
// - refused frames (a prompt while a turn runs) used to go into the 8 MiB ring with their errors:
//   one master could flush the history others reattach from. They still reach every master
//   (§2.4) but are not kept; and a master refused more than 20 times in 10 s is closed with 1008.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../src/protocol/build';
import type { Frame, FrameOf, VendorFrame } from '../../src/protocol/frameTypes';
import { CLOSE } from '../../src/remote/controlPlane';
import { http, waitFor } from '../unit/remote/harness';
import { historyFrom, journalLines, serve, stopAll, twoMastersAsked } from './serveProcess';

const OPENING = new Set(['session.capabilities', 'session.history', 'tool.catalog.publish', 'agent.commands.publish']);

function errorsOf(frames: Array<Frame | VendorFrame>): FrameOf<'session.error'>[] {
  return frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error');
}

describe('security/reattach: nobody can poison or flush another master’s history (issue 12 #7, #11)', function () {
  this.timeout(180_000);
  afterEach(stopAll);

  it('§13.7 a control reusing a server frame’s message_id is dropped (not relayed, not kept, not journaled) with a non-fatal DUPLICATE_MESSAGE_ID; a reattach from that id still gets every frame', async () => {
    const s = await serve();
    const a = await s.master();
    const b = await s.master();
    a.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => b.transcript.turns[0]?.usage !== undefined, 'turn 0');
    const start = b.frames.find((f) => f.type === 'session.turn.start');
    assert.ok(start);
    const reused = { ...buildFrame('control.prompt.request', { prompt_text: 'read a.txt' }, { session_id: s.session_id }), message_id: start.message_id };
    a.client.sendRaw(JSON.stringify(reused));
    await waitFor(() => errorsOf(a.frames).length > 0, 'the refusal');
    const [e] = errorsOf(a.frames);
    assert.deepEqual([e.payload.error_code, e.payload.fatal, e.parent_id], ['DUPLICATE_MESSAGE_ID', false, start.message_id]);
    a.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => b.transcript.turns[1]?.usage !== undefined, 'turn 1');
    assert.equal(b.frames.filter((f) => f.message_id === start.message_id).length, 1, 'the reused id was not relayed');
    assert.equal(b.transcript.turns.length, 2, 'the dropped prompt started no turn');
    const expected = b.frames.slice(b.frames.indexOf(start) + 1).map((f) => f.message_id);
    assert.ok(expected.length >= 13, `${expected.length} frames after the id`);
    const h = await historyFrom(s, start.message_id);
    assert.deepEqual(h.frames.map((f) => f.message_id), expected);
    assert.deepEqual([h.buffer_status.truncated, h.buffer_status.lost_frame_count], [false, 0]);
    // Not journaled: the id is in the journal once, as the server's own frame.
    const lines = journalLines(s.dir).filter((l) => l.includes(`"${start.message_id}"`));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /session\.turn\.start/);
  });

  it('§2.4 refused prompts (3 × 3 MB while a turn runs) reach every master but are not kept or journaled: a reattach from before them is complete (8 MiB ring)', async () => {
    const { s, a, b } = await twoMastersAsked();
    const first = b.frames.find((f) => !OPENING.has(f.type) && f.type !== 'agent.state.changed');
    assert.ok(first);
    const big = 'x'.repeat(3 * 1024 * 1024);
    const sent = [0, 1, 2].map(() => a.client.send('control.prompt.request', { prompt_text: big })?.message_id);
    await waitFor(() => errorsOf(b.frames).length === 3, 'B sees the three refusals (§2.4)', 60_000);
    assert.deepEqual(errorsOf(b.frames).map((e) => [e.payload.error_code, e.parent_id]), sent.map((id) => ['PROMPT_IN_PROGRESS', id]));
    assert.equal(b.frames.filter((f) => sent.includes(f.message_id)).length, 3, 'B saw the refused prompts relayed');
    const expected = b.frames.slice(b.frames.indexOf(first) + 1).filter((f) => !sent.includes(f.message_id) && !sent.includes(f.parent_id ?? '')).map((f) => f.message_id);
    const h = await historyFrom(s, first.message_id);
    assert.deepEqual(h.frames.map((f) => f.message_id), expected);
    assert.deepEqual([h.buffer_status.truncated, h.buffer_status.lost_frame_count], [false, 0]);
    // The journal holds none of the 3 MB prompts (it records what history records).
    const journal = journalLines(s.dir);
    assert.ok(journal.some((l) => l.includes(first.message_id)), 'the session is journaled');
    assert.ok(!journal.some((l) => l.length > 1024 * 1024), 'a refused prompt was journaled');
    // A reattach from a refusal's id (a master that saw it last) misses nothing either.
    const fromRefusal = await historyFrom(s, errorsOf(b.frames)[2].message_id);
    assert.equal(fromRefusal.buffer_status.truncated, false);
  });

  it('a master refused more than 20 times in 10 s is closed with 1008 and may reattach; the other master is untouched', async () => {
    const { s, a, b, ask } = await twoMastersAsked();
    for (let i = 0; i < 30; i++) a.client.send('control.prompt.request', { prompt_text: `refused ${i}` });
    await waitFor(() => a.closes.length > 0, 'A is closed');
    assert.equal(a.closes[0].code, CLOSE.POLICY_VIOLATION);
    assert.ok(a.closes[0].retryInMs !== undefined, 'the client reconnects after 1008');
    await waitFor(() => a.connects >= 2, 'A reattached');
    assert.equal(b.closes.length, 0);
    assert.ok(errorsOf(b.frames).length >= 21 && errorsOf(b.frames).length <= 30, `${errorsOf(b.frames).length} refusals seen by B`);
    // The session goes on for both: B denies the question, the turn ends, A prompts again.
    b.client.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'reject' });
    await waitFor(() => b.transcript.turns[0]?.usage !== undefined, 'turn 0 ends');
    a.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => b.transcript.turns[1]?.usage !== undefined, 'turn 1 from the reattached A');
    assert.ok(s.alive());
    assert.equal(JSON.parse((await http(`${s.url}/v1/health`)).body).ok, true);
  });
});
