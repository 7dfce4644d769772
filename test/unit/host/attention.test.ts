// What the badge counts and what is notified (decision 382), frame by frame: approvals and
// finished turns of sessions the user is not looking at; answered, timed-out, retired or seen
// items leave the count.
import { strict as assert } from 'node:assert';
import { AttentionTracker } from '../../../src/host/attention';
import { buildFrame } from '../../../src/protocol/build';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const TURN = '33333333-3333-4333-8333-333333333333';
const OPTIONS = [
  { label: 'Allow', value: 'allow_once' },
  { label: 'Reject', value: 'reject' },
];
const ask = (sid: string, id: string) => buildFrame('agent.interaction.request', { interaction_id: id, interaction_type: 'PERMISSION', question_text: `Allow Write ${id}.md?`, timeout_sec: 300, options: OPTIONS }, { session_id: sid, turn_id: TURN });
const end = (sid: string, stop_reason: 'end_turn' | 'cancelled' | 'error' = 'end_turn') => buildFrame('session.turn.end', { turn_id: TURN, stop_reason }, { session_id: sid, turn_id: TURN });

describe('attention: the badge count and notifications (issue 15, decision 382)', () => {
  it('§4.3.1 an approval asked while unseen is notified and counted; the answer (§6.2.1) or timeout (§6.2.2) retires it', () => {
    const t = new AttentionTracker();
    const item = t.onFrame(A, ask(A, 'i1'), false);
    assert.deepEqual(item, { kind: 'approval', session_id: A, interaction_id: 'i1', question: 'Allow Write i1.md?' });
    t.onFrame(A, ask(A, 'i2'), false);
    assert.equal(t.count, 2);
    t.onFrame(A, buildFrame('control.interaction.response', { interaction_id: 'i1', selected_value: 'allow_once' }, { session_id: A }), false);
    assert.equal(t.count, 1);
    t.onFrame(A, buildFrame('control.interaction.timeout', { interaction_id: 'i2' }, { session_id: A }), false);
    assert.equal(t.count, 0);
  });

  it('§7.5.2 a finished turn while unseen is notified once per session; its open approvals retire with it; a cancelled turn is not news', () => {
    const t = new AttentionTracker();
    t.onFrame(A, ask(A, 'i1'), false);
    const done = t.onFrame(A, end(A), false);
    assert.equal(done?.kind, 'finished');
    assert.equal(t.count, 1, 'the approval retired with the turn; the finished turn counts');
    assert.equal(t.onFrame(B, end(B, 'cancelled'), false), undefined);
    assert.equal(t.onFrame(B, end(B, 'error'), false)?.kind, 'finished');
    assert.equal(t.count, 2);
    // The next turn of a session replaces its "finished" item.
    t.onFrame(A, buildFrame('session.turn.start', { turn_id: TURN, turn_index: 1 }, { session_id: A, turn_id: TURN }), true);
    assert.equal(t.count, 1);
  });

  it('what happens in front of the user is neither notified nor counted; seeing a session clears its items, not the others', () => {
    const t = new AttentionTracker();
    assert.equal(t.onFrame(A, ask(A, 'i1'), true), undefined);
    assert.equal(t.onFrame(A, end(A), true), undefined);
    assert.equal(t.count, 0);
    t.onFrame(A, end(A), false);
    t.onFrame(B, ask(B, 'i9'), false);
    assert.equal(t.count, 2);
    assert.equal(t.markSeen(A), true);
    assert.equal(t.count, 1);
    assert.equal(t.markSeen(A), false, 'nothing left to clear');
    t.forget(B);
    assert.equal(t.count, 0);
  });
});
