// The transcript reducer: frames -> view model (turns, blocks, tools, subagents, usage, …).
import { strict as assert } from 'node:assert';
import {
  applyFrame,
  applyFrames,
  createTranscript,
  findInteraction,
  findTool,
  openTools,
  parseFrame,
  pendingInteractions,
  REDACTED_THINKING,
  streamText,
  type Frame,
  type ParallelGroupBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolBlock,
  type Transcript,
} from '../../../src/protocol';
import { charactersCut, cutMark, isCutOf } from '../../../src/protocol/cutMark';
import { fitFrame } from '../../../src/session/frameFit';
import type { WireFrame } from '../../../src/protocol/frameTypes';
import { clientCapabilities, streamBuilder, TEST_SESSION, usagePayload } from '../../fixtures/frames/streamBuilder';

const T0 = '22222222-2222-4222-8222-000000000000';
const T1 = '22222222-2222-4222-8222-000000000001';

/** The view without indexes and counters, for deep comparisons. */
function snapshot(t: Transcript): string {
  return JSON.stringify(t, (k, v) => (k === 'idx' ? undefined : v));
}

function tools(t: Transcript): ToolBlock[] {
  return [...t.idx.tools.values()];
}

describe('transcript reducer', () => {
  it('§7.5.1 §7.5.2 §11.1 a turn records turn_id, index, mode, stop_reason and structured_output', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0, mode: 'plan' }, { turn_id: T0 }),
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn', tool_invocation_count: 0, structured_output: { data: { ok: true }, validation_status: 'valid' } }, { turn_id: T0 }),
    ]);
    assert.equal(t.turns.length, 1);
    const turn = t.turns[0];
    assert.deepEqual(
      { id: turn.turnId, index: turn.index, mode: turn.mode, open: turn.open, stop: turn.stopReason, synthetic: turn.synthetic, implicit: turn.implicit },
      { id: T0, index: 0, mode: 'plan', open: false, stop: 'end_turn', synthetic: false, implicit: false },
    );
    assert.deepEqual(turn.structuredOutput, { data: { ok: true }, validation_status: 'valid' });
    assert.equal(t.mode, 'plan');
    assert.equal(t.timeline[0], turn);
  });

  it('§7.5.1 a frame naming an unknown turn creates an implicit open turn that a later turn.start completes', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrame(t, b.make('agent.text.delta', { content_index: 0, text: 'hi' }, { turn_id: T0 }));
    assert.equal(t.turns[0].implicit, true);
    assert.equal(t.turns[0].open, true);
    applyFrame(t, b.make('session.turn.start', { turn_id: T0, turn_index: 4 }, { turn_id: T0 }));
    assert.equal(t.turns.length, 1);
    assert.equal(t.turns[0].implicit, false);
    assert.equal(t.turns[0].index, 4);
  });

  it('§4.1.1 §4.1.2 text deltas accumulate per content_index and done closes each block', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
      b.make('agent.text.delta', { content_index: 0, text: 'Hel' }, tt),
      b.make('agent.text.delta', { content_index: 1, text: 'Other' }, tt),
      b.make('agent.text.delta', { content_index: 0, text: 'lo' }, tt),
      b.make('agent.text.done', { content_index: 0 }, tt),
    ]);
    const [a, c] = t.turns[0].blocks as TextBlock[];
    assert.deepEqual([a.text, a.done, a.contentIndex], ['Hello', true, 0]);
    assert.deepEqual([c.text, c.done, c.contentIndex], ['Other', false, 1]);
  });

  it('§4.1.2 full_text replaces deltas that disagree with it, and a done without deltas creates the block', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('agent.text.delta', { content_index: 0, text: 'Hel' }, tt),
      b.make('agent.text.done', { content_index: 0, full_text: 'Hello world' }, tt),
      b.make('agent.text.done', { content_index: 1, full_text: 'Only done' }, tt),
    ]);
    const [a, c] = t.turns[0].blocks as TextBlock[];
    assert.deepEqual([a.text, a.repaired], ['Hello world', true]);
    assert.deepEqual([c.text, c.done, c.repaired], ['Only done', true, false]);
  });

  it('§4.1.2 §12.2 a full_text cut in the middle to fit the view (decision 516) leaves deltas that hold the whole text as they are; with a delta lost, the cut text wins', () => {
    const b = streamBuilder();
    const tt = { turn_id: T0 };
    // 700,000 characters in seven deltas of 100,000: each delta fits a 512 KB budget, the done does not.
    const parts = Array.from({ length: 7 }, (_, k) => `${String.fromCharCode(97 + k)}`.repeat(99_999) + '\n');
    const whole = parts.join('');
    const done = fitFrame(b.make('agent.text.done', { content_index: 0, full_text: whole }, tt) as WireFrame, 512 * 1024) as Frame;
    const cutText = (done.payload as { full_text: string }).full_text;
    assert.ok(cutText.length < whole.length && charactersCut(cutText) > 0, 'the hub cut the done frame');
    const deltas = parts.map((text) => b.make('agent.text.delta', { content_index: 0, text }, tt));

    const t = createTranscript();
    const again = fitFrame(b.make('agent.text.done', { content_index: 0, full_text: whole }, tt) as WireFrame, 512 * 1024) as Frame;
    applyFrames(t, [...deltas, done, again]);
    const blocks = t.turns[0].blocks as TextBlock[];
    assert.equal(blocks.length, 1, 'a repeated done (another frame, cut the same way) adds no block');
    assert.equal(blocks[0].text.length, whole.length);
    assert.ok(blocks[0].text === whole, 'the deltas, whole, are kept');
    assert.deepEqual([blocks[0].done, blocks[0].repaired], [true, false]);

    const lossy = createTranscript();
    applyFrames(lossy, [...deltas.slice(0, 3), ...deltas.slice(4), done]);
    const [repaired] = lossy.turns[0].blocks as TextBlock[];
    assert.ok(repaired.text === cutText, 'with a delta lost the deltas are not the whole text: the cut full_text wins');
    assert.equal(repaired.repaired, true);
  });

  it('§4.1.2 isCutOf: a middle cut of exactly the left-out count, and nothing else', () => {
    const whole = 'head-' + 'x'.repeat(50) + '-tail';
    const cut = 'head-' + cutMark(50) + '-tail';
    assert.equal(isCutOf(cut, whole), true);
    assert.equal(isCutOf('head-' + cutMark(49) + '-tail', whole), false, 'a wrong count');
    assert.equal(isCutOf('head-' + cutMark(50) + '-tails', whole), false, 'another end');
    assert.equal(isCutOf('hexd-' + cutMark(50) + '-tail', whole), false, 'another start');
    assert.equal(isCutOf(whole, whole), false, 'no mark');
  });

  it('§4.1.2 a repeated done for a closed block, or a done with neither deltas nor full_text, adds no block', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('agent.text.delta', { content_index: 0, text: 'once' }, tt),
      b.make('agent.text.done', { content_index: 0 }, tt),
      b.make('agent.text.done', { content_index: 0 }, tt),
      b.make('agent.text.done', { content_index: 0, full_text: 'once' }, tt),
      b.make('agent.text.done', { content_index: 3, is_cancelled: true }, tt),
    ]);
    assert.deepEqual((t.turns[0].blocks as TextBlock[]).map((x) => x.text), ['once']);
  });

  it('§4.1.1 a delta after done for the same content_index starts a new block (index restarts per message)', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('agent.text.delta', { content_index: 0, text: 'first' }, tt),
      b.make('agent.text.done', { content_index: 0 }, tt),
      b.make('agent.text.delta', { content_index: 0, text: 'second' }, tt),
    ]);
    assert.deepEqual(
      (t.turns[0].blocks as TextBlock[]).map((x) => [x.text, x.done]),
      [
        ['first', true],
        ['second', false],
      ],
    );
  });

  it('§6.1.2 is_cancelled marks the text block cancelled and control.prompt.cancel marks its turn', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
      b.make('agent.text.delta', { content_index: 0, text: 'Wri' }, tt),
      b.make('control.prompt.cancel', { target_turn_id: T0, reason: 'user_cancelled' }),
      b.make('agent.text.done', { content_index: 0, is_cancelled: true }, tt),
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'cancelled' }, tt),
    ]);
    const block = t.turns[0].blocks[0] as TextBlock;
    assert.deepEqual([block.text, block.done, block.cancelled], ['Wri', true, true]);
    assert.equal(t.turns[0].cancelRequested, true);
    assert.equal(t.turns[0].stopReason, 'cancelled');
  });

  it('§9.1 metadata.content_role "plan" makes a plan block carrying its plan_id', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const meta = { content_role: 'plan' as const, plan_id: 'plan-7' };
    applyFrames(t, [
      b.make('agent.text.delta', { content_index: 0, text: '## Plan\n' }, { turn_id: T0, metadata: meta }),
      b.make('agent.text.delta', { content_index: 0, text: '1. test' }, { turn_id: T0, metadata: meta }),
      b.make('agent.text.done', { content_index: 0 }, { turn_id: T0, metadata: meta }),
      b.make('agent.text.delta', { content_index: 1, text: 'plain' }, { turn_id: T0 }),
    ]);
    const [plan, plain] = t.turns[0].blocks as TextBlock[];
    assert.deepEqual([plan.kind, plan.planId, plan.text, plan.done], ['plan', 'plan-7', '## Plan\n1. test', true]);
    assert.equal(plain.kind, 'text');
    assert.deepEqual(t.plans, [plan]);
  });

  it('§15.3 §4.2.1 redacted thinking text is never stored: the block holds a mask and redacted: true', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('agent.thinking.delta', { content_index: 0, text: 'visible. ' }, tt),
      b.make('agent.thinking.delta', { content_index: 0, text: 'TOP-SECRET-1', redacted: true }, tt),
      b.make('agent.thinking.delta', { content_index: 0, text: 'TOP-SECRET-2', redacted: true }, tt),
      b.make('agent.thinking.done', { content_index: 0 }, tt),
    ]);
    const block = t.turns[0].blocks[0] as ThinkingBlock;
    assert.deepEqual([block.kind, block.redacted, block.done], ['thinking', true, true]);
    assert.equal(block.text, `visible. ${REDACTED_THINKING}`);
    assert.ok(!snapshot(t).includes('TOP-SECRET'), 'raw redacted text appears nowhere in the view model');
  });

  it('§5.3.2 stream chunks are kept in sequence order; out-of-order chunks are inserted and repeated sequences dropped', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    const chunk = (sequence: number, text: string) => b.make('tool.invoke.stream', { invocation_id: 'inv-1', tool_name: 'Bash', stream_type: 'stdout', chunk: text, sequence }, tt);
    applyFrames(t, [
      b.make('tool.invoke.request', { invocation_id: 'inv-1', tool_name: 'Bash', input: { command: 'ls' } }, tt),
      chunk(0, 'a'),
      chunk(2, 'c'),
      chunk(1, 'b'),
      chunk(2, 'X'),
      chunk(4, 'e'),
      chunk(3, 'd'),
    ]);
    const tool = tools(t)[0];
    assert.deepEqual(tool.chunks.map((c) => c.sequence), [0, 1, 2, 3, 4]);
    assert.equal(streamText(tool), 'abcde');
    assert.equal(tool.duplicateChunks, 1);
  });

  it('§5.3.1 a result carries status, output, output_type, duration and truncated', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('tool.invoke.request', { invocation_id: 'inv-1', tool_name: 'Read', input: { file_path: 'a.ts' } }, { turn_id: T0 }),
      b.make('tool.invoke.result', { invocation_id: 'inv-1', tool_name: 'Read', status: 'success', output: '1\tx', output_type: 'file_content', duration_ms: 12, truncated: true }, { turn_id: T0 }),
    ]);
    const tool = tools(t)[0];
    assert.equal(tool.turnId, T0);
    assert.deepEqual(
      { ...tool.result, messageId: undefined },
      { status: 'success', output: '1\tx', outputType: 'file_content', durationMs: 12, truncated: true, synthetic: false, messageId: undefined },
    );
    assert.equal(t.idx.openTools.size, 0);
  });

  it('§5.3 a stream or result before its request creates a placeholder that the request then fills in', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('tool.invoke.result', { invocation_id: 'inv-9', tool_name: 'Grep', status: 'success', output: 'x', output_type: 'text' }, { turn_id: T0 }),
      b.make('tool.invoke.request', { invocation_id: 'inv-9', tool_name: 'Grep', input: { pattern: 'x' } }, { turn_id: T0 }),
    ]);
    assert.equal(t.turns[0].blocks.length, 1);
    const tool = tools(t)[0];
    assert.deepEqual([tool.requestSeen, tool.input, tool.result?.status], [true, { pattern: 'x' }, 'success']);
  });

  it('§13.4 invocations sharing a parallel_group_id are one group block, in request order', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('tool.invoke.request', { invocation_id: 'a', tool_name: 'Bash', input: {}, parallel_group_id: 'pg1' }, tt),
      b.make('tool.invoke.request', { invocation_id: 'b', tool_name: 'Bash', input: {}, parallel_group_id: 'pg1' }, tt),
      b.make('tool.invoke.request', { invocation_id: 'c', tool_name: 'Read', input: {} }, tt),
      b.make('tool.invoke.result', { invocation_id: 'b', tool_name: 'Bash', status: 'success', output: '', output_type: 'text' }, tt),
    ]);
    const blocks = t.turns[0].blocks;
    assert.deepEqual(blocks.map((x) => x.kind), ['parallel', 'tool']);
    const group = blocks[0] as ParallelGroupBlock;
    assert.equal(group.groupId, 'pg1');
    assert.deepEqual(group.invocations.map((i) => [i.invocationId, i.parallelGroupId, i.result?.status]), [
      ['a', 'pg1', undefined],
      ['b', 'pg1', 'success'],
    ]);
  });

  it('§4.3.1 §6.2 interactions end answered or timed out; an answer that arrives first is kept for its request', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const ask = (id: string) =>
      b.make('agent.interaction.request', { interaction_id: id, interaction_type: 'YN', question_text: 'ok?', timeout_sec: 30 }, { turn_id: T0 });
    applyFrames(t, [
      ask('i1'),
      b.make('control.interaction.response', { interaction_id: 'i1', selected_value: ['a', 'b'], text_input: 'note' }),
      ask('i2'),
      b.make('control.interaction.timeout', { interaction_id: 'i2' }),
      b.make('control.interaction.response', { interaction_id: 'i3', selected_value: 'yes' }),
      ask('i3'),
      ask('i4'),
    ]);
    const byId = new Map([...t.idx.interactions].map(([id, x]) => [id, x]));
    assert.deepEqual(byId.get('i1')?.response, { selectedValue: ['a', 'b'], textInput: 'note' });
    assert.equal(byId.get('i1')?.status, 'answered');
    assert.equal(byId.get('i2')?.status, 'timed_out');
    assert.equal(byId.get('i3')?.status, 'answered');
    assert.equal(byId.get('i4')?.status, 'pending');
  });

  it('§4.3 §5.3 read helpers find tools and interactions anywhere and list what is still open', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const sub = { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } };
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: {}, subagent: {} }, { turn_id: T0 }),
      b.make('tool.invoke.request', { invocation_id: 'deep', tool_name: 'Read', input: {} }, { turn_id: T0, metadata: sub }),
      b.make('agent.interaction.request', { interaction_id: 'q1', interaction_type: 'YN', question_text: '?', timeout_sec: 5 }, { turn_id: T0, metadata: sub }),
      b.make('agent.interaction.request', { interaction_id: 'q2', interaction_type: 'YN', question_text: '?', timeout_sec: 5 }, { turn_id: T0 }),
      b.make('control.interaction.response', { interaction_id: 'q2', selected_value: 'y' }),
    ]);
    assert.equal(findTool(t, 'deep')?.scope, 'task-1');
    assert.equal(findInteraction(t, 'q1')?.depth, 1);
    assert.deepEqual(pendingInteractions(t).map((x) => x.interactionId), ['q1']);
    assert.deepEqual(openTools(t).map((x) => x.invocationId), ['task-1', 'deep']);
    assert.equal(findTool(t, 'nope'), undefined);
  });

  it('§10.2 §10.3 frames with subagent_context nest under their parent invocation, two levels deep', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    const sub1 = { subagent_context: { parent_invocation_id: 'task-1', depth: 1, agent_type: 'Explore' } };
    const sub2 = { subagent_context: { parent_invocation_id: 'task-2', depth: 2 } };
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
      b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: { prompt: 'p' }, subagent: { agent_type: 'Explore' } }, tt),
      b.make('agent.subagent.started', { parent_invocation_id: 'task-1', agent_type: 'Explore', description: 'look', depth: 1 }, tt),
      b.make('agent.text.delta', { content_index: 0, text: 'sub says' }, { ...tt, metadata: sub1 }),
      b.make('tool.invoke.request', { invocation_id: 'task-2', tool_name: 'Task', input: {}, subagent: {} }, { ...tt, metadata: sub1 }),
      b.make('agent.subagent.started', { parent_invocation_id: 'task-2', depth: 2 }, { ...tt, metadata: sub1 }),
      b.make('agent.text.delta', { content_index: 0, text: 'subsub says' }, { ...tt, metadata: sub2 }),
      b.make('agent.subagent.ended', { parent_invocation_id: 'task-2', status: 'failed' }, { ...tt, metadata: sub1 }),
      b.make('agent.subagent.ended', { parent_invocation_id: 'task-1', status: 'completed', duration_ms: 900 }, tt),
      b.make('tool.invoke.result', { invocation_id: 'task-1', tool_name: 'Task', status: 'success', output: 'done', output_type: 'agent_result' }, tt),
    ]);
    assert.equal(t.subagentGrouping, true);
    const turnBlocks = t.turns[0].blocks;
    assert.equal(turnBlocks.length, 1, 'subagent frames do not land in the turn itself');
    const task1 = turnBlocks[0] as ToolBlock;
    const run1 = task1.subagent!;
    assert.deepEqual([run1.parentInvocationId, run1.depth, run1.agentType, run1.description, run1.status, run1.durationMs, run1.parentRunId], ['task-1', 1, 'Explore', 'look', 'completed', 900, undefined]);
    assert.deepEqual(run1.blocks.map((x) => x.kind), ['text', 'tool']);
    assert.deepEqual([(run1.blocks[0] as TextBlock).text, (run1.blocks[0] as TextBlock).depth, (run1.blocks[0] as TextBlock).scope], ['sub says', 1, 'task-1']);
    const task2 = run1.blocks[1] as ToolBlock;
    const run2 = task2.subagent!;
    assert.deepEqual([run2.depth, run2.status, run2.parentRunId], [2, 'failed', 'task-1']);
    assert.deepEqual(run2.blocks.map((x) => (x as TextBlock).text), ['subsub says']);
    assert.deepEqual(t.subagents.map((r) => r.parentInvocationId), ['task-1', 'task-2']);
  });

  it('§10.2 frames of a subagent whose invocation was never seen nest under a placeholder invocation in the turn', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const sub = { subagent_context: { parent_invocation_id: 'lost-task', depth: 2 } };
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('agent.text.delta', { content_index: 0, text: 'orphan' }, { turn_id: T0, metadata: sub }),
    ]);
    const placeholder = t.turns[0].blocks[0] as ToolBlock;
    assert.deepEqual([placeholder.invocationId, placeholder.requestSeen, placeholder.depth, placeholder.scope], ['lost-task', false, 1, undefined]);
    const run = placeholder.subagent!;
    assert.deepEqual([run.parentInvocationId, run.parentRunId, run.depth], ['lost-task', undefined, 2]);
    assert.equal((run.blocks[0] as TextBlock).text, 'orphan');
  });

  it('§10.2 a subagent’s own turn.start/turn.end mark its run and never become session turns', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const sub = { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } };
    const SUB_TURN = '22222222-2222-4222-8222-0000000000ff';
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: {}, subagent: {} }, { turn_id: T0 }),
      b.make('session.turn.start', { turn_id: SUB_TURN, turn_index: 0 }, { turn_id: SUB_TURN, metadata: sub }),
      b.make('session.turn.end', { turn_id: SUB_TURN, stop_reason: 'end_turn' }, { turn_id: SUB_TURN, metadata: sub }),
      b.make('agent.text.delta', { content_index: 0, text: 'main again' }),
    ]);
    assert.deepEqual(t.turns.map((x) => x.turnId), [T0]);
    assert.equal(t.subagents.length, 1);
    assert.deepEqual(t.turns[0].blocks.map((x) => x.kind), ['tool', 'text'], 'a frame without turn_id still goes to the main turn');
  });

  it('§7.5 when the current turn ends, frames without turn_id go to the turn still open before it', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      b.make('session.turn.start', { turn_id: T1, turn_index: 1 }, { turn_id: T1 }),
      b.make('agent.text.delta', { content_index: 0, text: 'to T1' }),
      b.make('session.turn.end', { turn_id: T1, stop_reason: 'end_turn' }, { turn_id: T1 }),
      b.make('agent.text.delta', { content_index: 0, text: 'to T0' }),
    ]);
    assert.deepEqual(t.turns.map((x) => (x.blocks[0] as TextBlock | undefined)?.text), ['to T0', 'to T1']);
  });

  it('§10.2-2 a frame without subagent_context (or with null) belongs to the main agent at depth 0', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('agent.text.delta', { content_index: 0, text: 'main' }, { turn_id: T0 }),
      b.make('agent.text.delta', { content_index: 1, text: 'also main' }, { turn_id: T0, metadata: { subagent_context: null } }),
    ]);
    assert.deepEqual((t.turns[0].blocks as TextBlock[]).map((x) => [x.text, x.depth, x.scope]), [
      ['main', 0, undefined],
      ['also main', 0, undefined],
    ]);
    assert.equal(t.subagents.length, 0);
  });

  for (const announced of [false, undefined]) {
    it(`§10.6-1 no grouping when the peer announced subagent_context: ${String(announced)} — context frames stay flat`, () => {
      const b = streamBuilder();
      const t = createTranscript();
      const sub = { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } };
      applyFrames(t, [
        b.make('session.capabilities', clientCapabilities(announced)),
        b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: {}, subagent: {} }, { turn_id: T0 }),
        b.make('agent.text.delta', { content_index: 0, text: 'flat' }, { turn_id: T0, metadata: sub }),
        b.make('session.usage', usagePayload(10, 1, T0), { turn_id: T0, metadata: sub }),
      ]);
      assert.equal(t.subagentGrouping, false);
      assert.deepEqual(t.turns[0].blocks.map((x) => x.kind), ['tool', 'text']);
      assert.equal((t.turns[0].blocks[1] as TextBlock).depth, 0);
      assert.equal(t.usage.cumulative.input_tokens, 10, 'usage counts for the main agent when flat');
    });
  }

  it('§10.5 a subagent usage report is kept apart from the main agent totals', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const sub = { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } };
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: {}, subagent: {} }, { turn_id: T0 }),
      b.make('session.usage', usagePayload(100, 10, T0), { turn_id: T0 }),
      b.make('session.usage', usagePayload(40, 4, T0), { turn_id: T0, metadata: sub }),
      b.make('session.usage', usagePayload(50, 5, T0), { turn_id: T0, metadata: sub }),
    ]);
    assert.equal(t.usage.cumulative.input_tokens, 100);
    assert.equal(t.usage.subagentCumulative.input_tokens, 50);
    assert.equal(t.subagents[0].usage?.token_usage.input_tokens, 50);
    assert.equal(t.usage.latest?.token_usage.input_tokens, 100, 'latest is the main agent report');
  });

  it('§7.3.1 the latest report per turn replaces the earlier one; the cumulative sums turns', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      b.make('session.usage', usagePayload(100, 10), { turn_id: T0 }),
      b.make('session.usage', usagePayload(150, 20), { turn_id: T0 }),
      b.make('session.turn.start', { turn_id: T1, turn_index: 1 }, { turn_id: T1 }),
      b.make('session.usage', usagePayload(30, 3, T1)),
      b.make('session.usage', usagePayload(5, 5)),
    ]);
    assert.equal(t.turns[0].usage?.token_usage.input_tokens, 150);
    assert.equal(t.turns[1].usage?.token_usage.input_tokens, 30);
    assert.deepEqual([t.usage.cumulative.input_tokens, t.usage.cumulative.output_tokens], [180, 23]);
    assert.equal(t.usage.latest?.token_usage.input_tokens, 5);
  });

  it('§8.2 TodoWrite and TodoRead structured results set the task list; invalid items are counted; success: false keeps the old list', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const result = (id: string, tool: string, output: object) =>
      b.make('tool.invoke.result', { invocation_id: id, tool_name: tool, status: 'success', output, output_type: 'structured' }, { turn_id: T0 });
    applyFrame(t, result('w1', 'TodoWrite', { success: true, count: 2, todos: [{ id: '1', content: 'a', status: 'pending' }, { id: '2', status: 'bogus' }] }));
    assert.deepEqual(t.todos?.items.map((i) => i.id), ['1']);
    assert.equal(t.todos?.invalidItems, 1);
    applyFrame(t, result('w2', 'TodoWrite', { success: false, count: 0, todos: [] }));
    assert.deepEqual(t.todos?.items.map((i) => i.id), ['1']);
    applyFrame(t, result('r1', 'TodoRead', { todos: [{ id: '3', content: 'c', status: 'completed', priority: 'low' }] }));
    assert.deepEqual([t.todos?.toolName, t.todos?.items[0].id, t.todos?.items[0].priority], ['TodoRead', '3', 'low']);
    applyFrame(t, result('x', 'Other', { todos: 'not a list' }));
    assert.equal(t.todos?.invocationId, 'r1');
  });

  it('§8.2 §10.2 a subagent task list is kept on its run, not as the session list', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const sub = { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } };
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('tool.invoke.request', { invocation_id: 'task-1', tool_name: 'Task', input: {}, subagent: {} }, { turn_id: T0 }),
      b.make('tool.invoke.request', { invocation_id: 'w', tool_name: 'TodoWrite', input: {} }, { turn_id: T0, metadata: sub }),
      b.make('tool.invoke.result', { invocation_id: 'w', tool_name: 'TodoWrite', status: 'success', output: { success: true, count: 1, todos: [{ id: 's', content: 'x', status: 'pending' }] }, output_type: 'structured' }, { turn_id: T0, metadata: sub }),
    ]);
    assert.equal(t.todos, undefined);
    assert.deepEqual(t.subagents[0].todos?.items.map((i) => i.id), ['s']);
  });

  it('§4.4.1 §7.4.1 agent and session errors are recorded with their severity and shown where they happened', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      b.make('agent.error', { error_code: 'W', message: 'careful', severity: 'warning', recoverable: true }, { turn_id: T0 }),
      b.make('agent.error', { error_code: 'F', message: 'boom', severity: 'fatal', recoverable: false, details: { related_tool: 'Bash' } }, { turn_id: T0 }),
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'error' }, { turn_id: T0 }),
      b.make('session.error', { error_code: 'PROMPT_IN_PROGRESS', message: 'busy', fatal: false }),
      b.make('session.error', { error_code: 'GONE', message: 'gone', fatal: true }),
    ]);
    assert.deepEqual(t.errorCounts, { fatal: 2, error: 1, warning: 1 });
    assert.deepEqual(t.errors.map((e) => [e.source, e.code, e.severity, e.turnId]), [
      ['agent', 'W', 'warning', T0],
      ['agent', 'F', 'fatal', T0],
      ['session', 'PROMPT_IN_PROGRESS', 'error', undefined],
      ['session', 'GONE', 'fatal', undefined],
    ]);
    assert.deepEqual(t.turns[0].blocks.map((x) => x.kind), ['error', 'error']);
    assert.deepEqual(t.timeline.map((x) => x.kind), ['turn', 'error', 'error']);
    assert.equal(t.errors[1].details?.related_tool, 'Bash');
  });

  it('§4.6.1 §6.3.2 agent state and mode follow the latest frames', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }),
      b.make('control.mode.switch', { mode: 'review' }),
      b.make('agent.state.changed', { previous_state: 'thinking', current_state: 'x-acme.indexing', reason: 'warm-up' }),
    ]);
    assert.deepEqual(t.agentState, { current: 'x-acme.indexing', previous: 'thinking', reason: 'warm-up', synthetic: false });
    assert.equal(t.mode, 'review');
  });

  it('§5.4.1 §12.1.1 §12.2.1 the latest tool catalog and commands, and every capabilities announcement, are kept', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.capabilities', clientCapabilities(true)),
      b.make('tool.catalog.publish', { tools: [{ name: 'A', description: 'a' }] }),
      b.make('tool.catalog.publish', { tools: [{ name: 'B', description: 'b', status: 'degraded' }], diagnostics: [{ severity: 'error', code: 'X', message: 'm' }] }),
      b.make('agent.commands.publish', { commands: [{ name: 'compact', description: 'c' }] }),
    ]);
    assert.deepEqual(t.toolCatalog?.tools.map((x) => x.name), ['B']);
    assert.equal(t.toolCatalog?.diagnostics?.[0].code, 'X');
    assert.deepEqual(t.commands?.map((c) => c.name), ['compact']);
    assert.equal(t.capabilities.length, 1);
  });

  it('§7.6.1 §7.7.1 §7.2.1 rename, deletion and compaction are recorded', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.renamed', { session_id: TEST_SESSION, name: 'one', renamed_by: 'client' }),
      b.make('session.renamed', { session_id: TEST_SESSION, name: 'two', renamed_by: 'master' }),
      b.make('session.compacted', { summary: 's', previous_token_count: 10, current_token_count: 2, trigger: 'auto' }),
      b.make('session.deleted', { session_id: TEST_SESSION, reason: 'timeout', deleted_by: 'system' }),
    ]);
    assert.deepEqual([t.name, t.previousName], ['two', 'one']);
    assert.deepEqual([t.deleted?.reason, t.deleted?.deletedBy], ['timeout', 'system']);
    assert.equal(t.compactions.length, 1);
    assert.equal(t.compactions[0].compaction.trigger, 'auto');
    assert.equal(t.timeline[0], t.compactions[0]);
  });

  it('§6.1.1 a prompt is a timeline entry placed before the turn it starts', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('control.prompt.request', { prompt_text: 'hello' }),
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
    ]);
    assert.deepEqual(t.timeline.map((x) => x.kind), ['prompt', 'turn']);
  });

  it('§16.1 file searches and candidates are not part of the transcript', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const changed = applyFrames(t, [
      b.make('control.file.search', { query_id: 'q', query: 'src' }),
      b.make('session.file.candidates', { query_id: 'q', candidates: [{ path: 'a', name: 'a', directory: '' }], truncated: false }),
      b.make('control.file.search.cancel', { query_id: 'q' }),
    ]);
    assert.equal(changed, 0);
    assert.equal(t.version, 0);
    assert.equal(t.timeline.length, 0);
    assert.equal(t.stats.ignored, 3);
  });

  it('§2.1 a frame seen twice changes nothing the second time (idempotency by message_id)', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const frames: Frame[] = [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      b.make('agent.text.delta', { content_index: 0, text: 'once' }, { turn_id: T0 }),
      b.make('tool.invoke.stream', { invocation_id: 'i', tool_name: 'Bash', stream_type: 'stdout', chunk: 'c', sequence: 0 }, { turn_id: T0 }),
      b.make('session.usage', usagePayload(10, 1), { turn_id: T0 }),
      b.make('agent.error', { error_code: 'E', message: 'm', severity: 'error', recoverable: true }, { turn_id: T0 }),
    ];
    for (const f of frames) {
      applyFrame(t, f);
      const before = snapshot(t);
      const version = t.version;
      assert.equal(applyFrame(t, f), false);
      assert.equal(applyFrame(t, structuredClone(f)), false, 'a copy with the same message_id is a duplicate too');
      assert.equal(t.version, version);
      assert.equal(snapshot(t), before.replace(/"duplicates":\d+/, `"duplicates":${t.stats.duplicates}`));
    }
    assert.equal((t.turns[0].blocks[0] as TextBlock).text, 'once');
    assert.equal(t.stats.duplicates, 10);
  });

  it('§2.2 §3.1.1 vendor frames are ignored; with a sessionId, other sessions’ frames are skipped', () => {
    const t = createTranscript({ sessionId: TEST_SESSION });
    const vendor = parseFrame({ v: 1, type: 'x-acme.debug.trace', message_id: 'm1', timestamp: '2026-03-16T10:00:00.000Z', session_id: TEST_SESSION, payload: { a: 1 } });
    assert.equal(vendor.kind, 'accepted');
    if (vendor.kind === 'accepted') assert.equal(applyFrame(t, vendor.frame), false);
    const other = streamBuilder('33333333-3333-4333-8333-333333333333');
    assert.equal(applyFrame(t, other.make('agent.text.delta', { content_index: 0, text: 'x' }, { turn_id: T0 })), false);
    assert.deepEqual([t.stats.ignored, t.stats.otherSession, t.version], [1, 1, 0]);
  });

  it('§2.3-1 session.history frames are replayed ordered by timestamp, then message_id', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    const d1 = b.make('agent.text.delta', { content_index: 0, text: 'A' }, tt);
    const d2 = b.make('agent.text.delta', { content_index: 0, text: 'B' }, tt);
    const d3 = b.make('agent.text.delta', { content_index: 0, text: 'C' }, tt);
    // Same millisecond: message_id decides.
    const same1 = { ...b.make('agent.text.delta', { content_index: 0, text: 'D' }, tt), message_id: 'aaaa' };
    const same2 = { ...b.make('agent.text.delta', { content_index: 0, text: 'E' }, tt), message_id: 'bbbb', timestamp: same1.timestamp };
    // The same instant written with another offset sorts by its instant, not its text.
    const shifted = { ...d2, timestamp: new Date(Date.parse(d2.timestamp)).toISOString().replace('Z', '+00:00') };
    const history = b.make('session.history', {
      frames: [same2, d3, shifted, same1, d1] as unknown as Array<Record<string, unknown>>,
      buffer_status: { policy_applied: 'RING', truncated: false },
      last_sync_timestamp: same2.timestamp,
      last_message_id: same2.message_id,
    });
    applyFrame(t, history);
    assert.equal((t.turns[0].blocks[0] as TextBlock).text, 'ABCDE');
    assert.equal(t.historyTruncated, undefined);
  });

  it('§7.1.1-1 a truncated history leaves a warning the UI must show: for a fresh transcript, the history budget', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrame(
      t,
      b.make('session.history', {
        frames: [],
        buffer_status: { policy_applied: 'DROP', truncated: true, lost_frame_count: 42 },
        last_sync_timestamp: '2026-03-16T10:00:00.000Z',
        last_message_id: 'm-last',
      }),
    );
    assert.deepEqual(
      { ...t.historyTruncated, message: undefined },
      { policyApplied: 'DROP', lostFrameCount: 42, lastMessageId: 'm-last', cause: 'budget', message: undefined },
    );
    assert.match(t.historyTruncated!.message, /about 42 frames\) is beyond the history budget/);
    assert.doesNotMatch(t.historyTruncated!.message, /disconnected/);
  });

  it('§7.1.1-1 a truncated history that continues a transcript (a reattach) says it was lost while disconnected', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrame(t, b.make('session.turn.start', { turn_id: 'turn-1', turn_index: 0 }, { turn_id: 'turn-1' }));
    applyFrame(
      t,
      b.make('session.history', {
        frames: [],
        buffer_status: { policy_applied: 'RING', truncated: true, lost_frame_count: 1 },
        last_sync_timestamp: '2026-03-16T10:00:00.000Z',
        last_message_id: 'm-last',
      }),
    );
    assert.equal(t.historyTruncated?.cause, 'disconnected');
    assert.match(t.historyTruncated!.message, /lost while disconnected \(about 1 frame\)/);
  });

  it('§7.1.1 §2.2 a bad frame inside a history is reported and the others are still replayed', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const good = b.make('agent.text.delta', { content_index: 0, text: 'kept' }, { turn_id: T0 });
    applyFrame(
      t,
      b.make('session.history', {
        frames: [{ v: 1, type: 'agent.text.delta', payload: {} }, { ...good, v: 2 }, { ...good, type: 'unknown.kind' }, good as unknown as Record<string, unknown>],
        buffer_status: { policy_applied: 'NONE', truncated: false },
        last_sync_timestamp: good.timestamp,
        last_message_id: good.message_id,
      }),
    );
    assert.equal((t.turns[0].blocks[0] as TextBlock).text, 'kept');
    assert.deepEqual(t.historyIssues.map((i) => i.index), [0, 1, 2]);
    assert.match(t.historyIssues[1].message, /version/);
  });

  it('§7.5.3 clean-up frames (cancelled results, turn.end error, session.deleted) leave nothing open', () => {
    const b = streamBuilder();
    const t = createTranscript();
    const tt = { turn_id: T0 };
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
      b.make('tool.invoke.request', { invocation_id: 'a', tool_name: 'Bash', input: {} }, tt),
      b.make('tool.invoke.request', { invocation_id: 'b', tool_name: 'Bash', input: {} }, tt),
      b.make('session.error', { error_code: 'SHUTDOWN', message: 'bye', fatal: true }),
      b.make('tool.invoke.result', { invocation_id: 'a', tool_name: 'Bash', status: 'cancelled', output: '', output_type: 'text' }, tt),
      b.make('tool.invoke.result', { invocation_id: 'b', tool_name: 'Bash', status: 'cancelled', output: '', output_type: 'text' }, tt),
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'error' }, tt),
      b.make('session.deleted', { session_id: TEST_SESSION, reason: 'error', deleted_by: 'system' }),
    ]);
    assert.deepEqual(tools(t).map((x) => [x.result?.status, x.result?.synthetic]), [
      ['cancelled', false],
      ['cancelled', false],
    ]);
    assert.deepEqual([t.turns[0].open, t.turns[0].stopReason], [false, 'error']);
    assert.equal(t.deleted?.reason, 'error');
    assert.deepEqual([t.idx.openTools.size, t.idx.openTurns.size], [0, 0]);
  });

  it('appending 10,000 deltas to one block keeps one block holding the whole text', () => {
    const b = streamBuilder();
    const t = createTranscript();
    for (let i = 0; i < 10_000; i++) applyFrame(t, b.make('agent.text.delta', { content_index: 0, text: 'x' }, { turn_id: T0 }));
    assert.equal(t.turns[0].blocks.length, 1);
    assert.equal((t.turns[0].blocks[0] as TextBlock).text.length, 10_000);
    assert.equal(t.version, 10_000);
    assert.ok(t.turns[0].rev >= 10_000, 'the turn revision grows with every change inside it');
  });
});
