// Issue 15 Why 7, one rendering per fact, in the reducer: which of a tool's stream and result a
// view shows (toolOutputPlan), and the plan that owns its approval question (§9.2).
import { strict as assert } from 'node:assert';
import type { Frame, PayloadOf } from '../../../src/protocol/frameTypes';
import { applyFrames, createTranscript, findInteraction, findTool, shownAsBlock, toolOutputPlan, type TextBlock, type Transcript } from '../../../src/protocol/transcript';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T0 = '33333333-3333-4333-8333-000000000000';
const T = { turn_id: T0 };

function turn(): { t: Transcript; b: ReturnType<typeof streamBuilder> } {
  const b = streamBuilder();
  const t = createTranscript();
  applyFrames(t, [b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, T)]);
  return { t, b };
}

function bash(b: ReturnType<typeof streamBuilder>, id: string, chunks: Array<['stdout' | 'stderr', string]>, result?: { status: 'success' | 'error'; output: PayloadOf<'tool.invoke.result'>['output']; output_type?: 'text' | 'structured' }): Frame[] {
  const frames: Frame[] = [b.make('tool.invoke.request', { invocation_id: id, tool_name: 'Bash', input: { command: 'x' } }, T)];
  chunks.forEach(([stream_type, chunk], sequence) => frames.push(b.make('tool.invoke.stream', { invocation_id: id, tool_name: 'Bash', stream_type, chunk, sequence }, T)));
  if (result) frames.push(b.make('tool.invoke.result', { invocation_id: id, tool_name: 'Bash', status: result.status, output: result.output, output_type: result.output_type ?? 'text' }, T));
  return frames;
}

describe('transcript reducer: one rendering per fact (issue 15 Why 7)', () => {
  it('§5.2 while a tool runs its stream is shown; §5.3 a result that holds the stream replaces it (Bash returns its stdout)', () => {
    const { t, b } = turn();
    applyFrames(t, bash(b, 'b1', [['stdout', 'one\n'], ['stderr', 'two\n']]));
    assert.deepEqual(toolOutputPlan(findTool(t, 'b1')!), { stream: true, result: false });
    applyFrames(t, [b.make('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: 'one\ntwo\n', output_type: 'text' }, T)]);
    assert.deepEqual(toolOutputPlan(findTool(t, 'b1')!), { stream: false, result: true });
  });

  it('§5.3 a failed command whose result repeats the stream plus an exit note shows the result only', () => {
    const { t, b } = turn();
    applyFrames(t, bash(b, 'b2', [['stdout', 'three\n']], { status: 'error', output: 'three\n(exit code 3)' }));
    assert.deepEqual(toolOutputPlan(findTool(t, 'b2')!), { stream: false, result: true });
  });

  it('§5.3.1 a structured result with stdout/stderr fields holding the stream shows the result only', () => {
    const { t, b } = turn();
    applyFrames(t, bash(b, 'b3', [['stdout', 'out\r\n'], ['stderr', 'err']], { status: 'success', output: { stdout: 'out\n', stderr: 'err', exit_code: 0 }, output_type: 'structured' }));
    assert.deepEqual(toolOutputPlan(findTool(t, 'b3')!), { stream: false, result: true });
  });

  it('§5.3 a result that says something else ("[exit code 2]") is shown beside the stream; an empty result leaves the stream', () => {
    const { t, b } = turn();
    applyFrames(t, [...bash(b, 'b4', [['stdout', 'partial output']], { status: 'error', output: '[exit code 2]' }), ...bash(b, 'b5', [['stdout', 'all of it']], { status: 'success', output: '' })]);
    assert.deepEqual(toolOutputPlan(findTool(t, 'b4')!), { stream: true, result: true });
    assert.deepEqual(toolOutputPlan(findTool(t, 'b5')!), { stream: true, result: false });
  });

  it('§5.3 a result that is a clipped part of the stream shows the stream; no stream means the result', () => {
    const { t, b } = turn();
    applyFrames(t, [...bash(b, 'b6', [['stdout', 'line 1\nline 2\nline 3\n']], { status: 'success', output: 'line 3' })]);
    applyFrames(t, [b.make('tool.invoke.request', { invocation_id: 'r1', tool_name: 'Read', input: { file_path: 'a.txt' } }, T), b.make('tool.invoke.result', { invocation_id: 'r1', tool_name: 'Read', status: 'success', output: '1\thi', output_type: 'file_content' }, T)]);
    assert.deepEqual(toolOutputPlan(findTool(t, 'b6')!), { stream: true, result: false });
    assert.deepEqual(toolOutputPlan(findTool(t, 'r1')!), { stream: false, result: true });
  });

  it('§9.2 the YN question after a plan is the plan\'s approval: linked both ways, not a block of its own, and its answer re-renders the plan', () => {
    const { t, b } = turn();
    const plan = { content_role: 'plan' as const, plan_id: '44444444-4444-4444-8444-000000000000' };
    applyFrames(t, [
      b.make('agent.text.delta', { content_index: 0, text: '## Plan\n1. read' }, { ...T, metadata: plan }),
      b.make('agent.text.done', { content_index: 0, full_text: '## Plan\n1. read' }, { ...T, metadata: plan }),
      b.make('agent.interaction.request', { interaction_id: 'yn', interaction_type: 'YN', question_text: 'Carry out this plan?', timeout_sec: 300 }, T),
    ]);
    const block = t.plans[0] as TextBlock;
    const yn = findInteraction(t, 'yn')!;
    assert.equal(block.approval, yn);
    assert.equal(yn.planKey, block.key);
    assert.equal(shownAsBlock(yn), false, 'rendered inside the plan only');
    assert.equal(shownAsBlock(block), true);
    const rev = block.rev;
    applyFrames(t, [b.make('control.interaction.response', { interaction_id: 'yn', selected_value: 'yes' })]);
    assert.equal(yn.status, 'answered');
    assert.ok(block.rev > rev, 'the plan re-renders with the answer');
  });

  it('§9.2 Claude Code: the ExitPlanMode permission after the plan and its tool call is the approval; an unrelated YN later is not', () => {
    const { t, b } = turn();
    const plan = { content_role: 'plan' as const, plan_id: 'toolu_1' };
    applyFrames(t, [
      b.make('agent.text.done', { content_index: 0, full_text: '1. edit' }, { ...T, metadata: plan }),
      b.make('tool.invoke.request', { invocation_id: 'toolu_1', tool_name: 'ExitPlanMode', input: { plan: '1. edit' } }, T),
      b.make('agent.interaction.request', { interaction_id: 'perm', interaction_type: 'PERMISSION', question_text: 'Exit plan mode?', timeout_sec: 0, context: { tool_name: 'ExitPlanMode' } }, T),
      b.make('agent.text.done', { content_index: 1, full_text: 'Something else' }, T),
      b.make('agent.interaction.request', { interaction_id: 'other', interaction_type: 'YN', question_text: 'Also run tests?', timeout_sec: 0 }, T),
    ]);
    assert.equal(t.plans[0].approval?.interactionId, 'perm');
    assert.equal(findInteraction(t, 'other')?.planKey, undefined);
    assert.equal(shownAsBlock(findInteraction(t, 'other')!), true);
  });

  it('§9.2 a permission for another tool after a plan stays its own card', () => {
    const { t, b } = turn();
    applyFrames(t, [
      b.make('agent.text.done', { content_index: 0, full_text: '1. edit' }, { ...T, metadata: { content_role: 'plan' } }),
      b.make('agent.interaction.request', { interaction_id: 'w', interaction_type: 'PERMISSION', question_text: 'Write a.ts?', timeout_sec: 0, context: { tool_name: 'Write' } }, T),
    ]);
    assert.equal(t.plans[0].approval, undefined);
    assert.equal(findInteraction(t, 'w')?.planKey, undefined);
  });
});
