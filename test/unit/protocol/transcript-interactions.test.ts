// Issue 15 Why 3: a question that is cancelled, whose turn ended, or that another master answered
// retires at once in the transcript, so no view keeps live buttons that can only earn an
// UNKNOWN_INTERACTION error.
import { strict as assert } from 'node:assert';
import { applyFrames, createTranscript, findInteraction, pendingInteractions, type Frame, type Transcript } from '../../../src/protocol';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T0 = '22222222-2222-4222-8222-000000000000';
const T1 = '22222222-2222-4222-8222-000000000001';

function started(): { t: Transcript; b: ReturnType<typeof streamBuilder>; ask: (id: string, turn?: string) => Frame } {
  const b = streamBuilder();
  const t = createTranscript();
  applyFrames(t, [b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 })]);
  const ask = (id: string, turn = T0): Frame =>
    b.make('agent.interaction.request', { interaction_id: id, interaction_type: 'PERMISSION', question_text: 'Write a.ts?', timeout_sec: 60, options: [{ value: 'allow_once', label: 'Allow' }, { value: 'reject', label: 'Reject' }] }, { turn_id: turn });
  return { t, b, ask };
}

describe('transcript reducer: retiring questions (issue 15 Why 3)', () => {
  it('§6.1.2 a cancel of the turn retires its pending permission at once, before the turn ends', () => {
    const { t, b, ask } = started();
    applyFrames(t, [ask('p1')]);
    const before = findInteraction(t, 'p1');
    const rev = before?.rev ?? -1;
    applyFrames(t, [b.make('control.prompt.cancel', { target_turn_id: T0 })]);
    const p1 = findInteraction(t, 'p1');
    assert.equal(p1?.status, 'discarded');
    assert.equal(p1?.retiredBy, 'cancelled');
    assert.equal(p1?.synthetic, false);
    assert.ok((p1?.rev ?? -1) > rev, 'its revision grew, so the card re-renders');
    assert.deepEqual(pendingInteractions(t), []);
    // A late answer (e.g. a click that raced the cancel) does not bring it back.
    applyFrames(t, [b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'allow_once' })]);
    assert.equal(findInteraction(t, 'p1')?.status, 'discarded');
  });

  it('§7.5.2 the end of a turn retires the questions it left open; other turns keep theirs', () => {
    const { t, b, ask } = started();
    applyFrames(t, [ask('p1'), ask('p2', T1), b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn' }, { turn_id: T0 })]);
    assert.equal(findInteraction(t, 'p1')?.status, 'discarded');
    assert.equal(findInteraction(t, 'p1')?.retiredBy, 'turn_ended');
    assert.equal(findInteraction(t, 'p2')?.status, 'pending');
    applyFrames(t, [b.make('session.turn.end', { turn_id: T1, stop_reason: 'cancelled' }, { turn_id: T1 })]);
    assert.equal(findInteraction(t, 'p2')?.retiredBy, 'cancelled');
  });

  it('§6.2.1 an answer by another master retires the card here; an answered card is not retired by the turn end', () => {
    const { t, b, ask } = started();
    applyFrames(t, [ask('p1'), b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'reject' }), b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn' }, { turn_id: T0 })]);
    const p1 = findInteraction(t, 'p1');
    assert.equal(p1?.status, 'answered');
    assert.deepEqual(p1?.response, { selectedValue: 'reject' });
    assert.equal(p1?.retiredBy, undefined);
  });

  it('§6.2 UNKNOWN_INTERACTION for our answer withdraws "Answered" and adds no red error block', () => {
    const { t, b, ask } = started();
    const mine = b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'allow_once' });
    applyFrames(t, [ask('p1'), mine]);
    assert.equal(findInteraction(t, 'p1')?.status, 'answered');
    applyFrames(t, [b.make('session.error', { error_code: 'UNKNOWN_INTERACTION', message: 'no pending interaction p1', fatal: false }, { parent_id: mine.message_id })]);
    const p1 = findInteraction(t, 'p1');
    assert.equal(p1?.status, 'discarded');
    assert.equal(p1?.retiredBy, 'not_open');
    assert.equal(p1?.response, undefined);
    assert.equal(t.errors.length, 1, 'kept in the error list for the logs');
    const blocks = t.turns[0]?.blocks ?? [];
    assert.equal(blocks.filter((x) => x.kind === 'error').length, 0, 'no error block in the transcript');
  });

  it('§6.2 when our answer is refused, another master\'s answer that came second is the one shown', () => {
    const { t, b, ask } = started();
    const mine = b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'allow_once' });
    applyFrames(t, [
      ask('p1'),
      mine,
      b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'reject', text_input: 'not now' }),
      b.make('session.error', { error_code: 'UNKNOWN_INTERACTION', message: 'no pending interaction p1', fatal: false }, { parent_id: mine.message_id }),
    ]);
    const p1 = findInteraction(t, 'p1');
    assert.equal(p1?.status, 'answered');
    assert.deepEqual(p1?.response, { selectedValue: 'reject', textInput: 'not now' });
  });

  it('§4.4 any other session.error (or an UNKNOWN_INTERACTION about no answer of ours) stays a visible error block', () => {
    const { t, b, ask } = started();
    applyFrames(t, [
      ask('p1'),
      b.make('session.error', { error_code: 'UNKNOWN_INTERACTION', message: 'no pending interaction zz', fatal: false }, { parent_id: '33333333-3333-4333-8333-000000000000' }),
      b.make('session.error', { error_code: 'TURN_NOT_FOUND', message: 'no running turn', fatal: false }),
    ]);
    assert.equal(findInteraction(t, 'p1')?.status, 'pending');
    assert.equal((t.turns[0]?.blocks ?? []).filter((x) => x.kind === 'error').length, 2);
  });
});

describe('transcript reducer: a tool call keeps the time it waited for its permission (decision 565)', () => {
  const at = <F extends Frame>(f: F, iso: string): F => ({ ...f, timestamp: iso });
  const request = (b: ReturnType<typeof streamBuilder>, id: string, name = 'Edit') => b.make('tool.invoke.request', { invocation_id: id, tool_name: name, input: { file_path: 'a.ts' } }, { turn_id: T0 });
  const perm = (b: ReturnType<typeof streamBuilder>, id: string, context: Record<string, unknown>) =>
    b.make('agent.interaction.request', { interaction_id: id, interaction_type: 'PERMISSION', question_text: 'Edit a.ts?', timeout_sec: 60, options: [{ value: 'allow_once', label: 'Allow' }], context }, { turn_id: T0 });

  it('from the question to its answer, on the open call of that tool', () => {
    const { t, b } = started();
    applyFrames(t, [
      at(request(b, 'e1'), '2026-12-04T10:00:00.000Z'),
      at(perm(b, 'p1', { tool_name: 'Edit' }), '2026-12-04T10:00:00.100Z'),
      at(b.make('control.interaction.response', { interaction_id: 'p1', selected_value: 'allow_once' }), '2026-12-04T10:00:37.100Z'),
      at(b.make('tool.invoke.result', { invocation_id: 'e1', tool_name: 'Edit', status: 'success', output: 'ok', output_type: 'text', duration_ms: 37_200 }, { turn_id: T0 }), '2026-12-04T10:00:37.200Z'),
    ]);
    const tool = t.idx.tools.get('e1');
    assert.equal(tool?.permissionWaitMs, 37_000);
    assert.equal(tool?.result?.durationMs, 37_200, 'the frame value is kept as it came');
  });

  it('context.invocation_id names the call when the agent gives it; a call without a question has no wait', () => {
    const { t, b } = started();
    applyFrames(t, [
      at(request(b, 'e1'), '2026-12-04T10:00:00.000Z'),
      at(request(b, 'e2'), '2026-12-04T10:00:00.000Z'),
      at(perm(b, 'p1', { tool_name: 'Edit', invocation_id: 'e1' }), '2026-12-04T10:00:01.000Z'),
      at(b.make('control.interaction.timeout', { interaction_id: 'p1' }), '2026-12-04T10:00:04.000Z'),
    ]);
    assert.equal(t.idx.tools.get('e1')?.permissionWaitMs, 3000);
    assert.equal(t.idx.tools.get('e2')?.permissionWaitMs, undefined);
  });
});
