// A transcript with every badge, button, chip and code-span kind the chat draws, for the contrast
// test: the outputs turn (nine output types, stream, diff, subagent, file chip) and a second turn
// with inline code, a plan, a compaction, a file transfer, a tool in each status, errors of each
// severity, todos with priorities, and pending questions of every type with every risk level.
import type { Frame } from '../../../src/protocol/frameTypes';
import { streamBuilder, usagePayload } from '../../fixtures/frames/streamBuilder';
import { GATE_OPTIONS, SESSION, outputsStream } from '../streams';

export const TURN2 = '33333333-3333-4333-8333-000000000002';

export function everyKindStream(): Frame[] {
  const f = outputsStream();
  const b = streamBuilder(SESSION, Date.now());
  const T = { turn_id: TURN2 };
  f.push(b.make('control.prompt.request', { prompt_text: 'Now check <@file:ref_1|src/login.ts> and run `npm test`', file_references: [{ ref_id: 'ref_1', path: 'src/login.ts', name: 'login.ts', workspace_relative_path: 'src/login.ts' }] }, T));
  f.push(b.make('session.turn.start', { turn_id: TURN2, turn_index: 1, mode: 'plan' }, T));
  f.push(b.make('agent.text.delta', { content_index: 0, text: 'The check in `check()` uses `t.valid`; see [the spec](https://example.com/spec).\n\n```sh\nnpm test\n```' }, T));
  f.push(b.make('agent.text.done', { content_index: 0 }, T));
  // A plan document (§9.1; its YN approval is c-yn below), a compaction (§7.2.1) and a file
  // transfer of its own (§4.5), so every block type is on the page.
  const plan = { ...T, metadata: { content_role: 'plan' as const, plan_id: 'plan-2' } };
  f.push(b.make('agent.text.delta', { content_index: 1, text: '## Plan\n\n1. Run `npm test`\n2. Fix the check' }, plan));
  f.push(b.make('agent.text.done', { content_index: 1 }, plan));
  f.push(b.make('session.compacted', { summary: 'Fixed the token check.', previous_token_count: 5200, current_token_count: 900, trigger: 'manual' }, T));
  f.push(b.make('agent.file.transfer', { transfer_id: 'tr-2', direction: 'upload', file_url: 'https://files.example.com/report.txt', file_name: 'report.txt', mime_type: 'text/plain', size_bytes: 512 }, T));
  const done = (id: string, status: 'error' | 'timeout' | 'cancelled', output: string) => {
    f.push(b.make('tool.invoke.request', { invocation_id: id, tool_name: 'Bash', input: { command: `run ${status}` } }, T));
    f.push(b.make('tool.invoke.stream', { invocation_id: id, tool_name: 'Bash', stream_type: 'stdout', chunk: 'working\n', sequence: 0 }, T));
    f.push(b.make('tool.invoke.stream', { invocation_id: id, tool_name: 'Bash', stream_type: 'stderr', chunk: `${status}: see above\n`, sequence: 1 }, T));
    f.push(b.make('tool.invoke.result', { invocation_id: id, tool_name: 'Bash', status, output, output_type: 'text', duration_ms: 4, truncated: true }, T));
  };
  done('inv-err', 'error', 'exit 1');
  done('inv-timeout', 'timeout', 'took too long');
  done('inv-cancel', 'cancelled', 'stopped');
  f.push(b.make('tool.invoke.request', { invocation_id: 'inv-running', tool_name: 'Bash', input: { command: 'sleep 100' } }, T));
  f.push(b.make('tool.invoke.request', { invocation_id: 'inv-todo2', tool_name: 'TodoWrite', input: { todos: [] } }, T));
  f.push(
    b.make('tool.invoke.result', {
      invocation_id: 'inv-todo2',
      tool_name: 'TodoWrite',
      status: 'success',
      output: { todos: [{ id: 'a', content: 'High one', status: 'pending', priority: 'high' }, { id: 'b', content: 'Medium one', status: 'in_progress', priority: 'medium' }, { id: 'c', content: 'Low one', status: 'cancelled', priority: 'low' }] },
      output_type: 'structured',
    }, T),
  );
  f.push(b.make('agent.error', { error_code: 'RATE_LIMITED', message: 'Slow down a little', severity: 'warning', recoverable: true }, T));
  f.push(b.make('agent.error', { error_code: 'TOOL_FAILED', message: 'The tool failed', severity: 'error', recoverable: false }, T));
  f.push(b.make('session.error', { error_code: 'AGENT_CRASHED', message: 'The agent stopped', fatal: true }, T));
  const ask = (id: string, type: 'YN' | 'SELECT' | 'MULTI_SELECT' | 'TEXT_INPUT' | 'PERMISSION', question: string, extra: Record<string, unknown>) =>
    f.push(b.make('agent.interaction.request', { interaction_id: id, interaction_type: type, question_text: question, timeout_sec: 3600, ...extra }, T));
  ask('c-yn', 'YN', 'Carry on?', { options: [{ value: 'yes', label: 'Approve', risk_level: 'moderate' }, { value: 'no', label: 'Reject', risk_level: 'safe' }], default_value: 'no' });
  ask('c-select', 'SELECT', 'Which branch?', { options: [{ value: 'main', label: 'main', risk_level: 'safe' }, { value: 'dev', label: 'dev', risk_level: 'dangerous', description: 'Pushes to dev' }], default_value: 'main' });
  ask('c-multi', 'MULTI_SELECT', 'Which checks?', { options: [{ value: 'lint', label: 'Lint' }, { value: 'types', label: 'Types', risk_level: 'moderate' }] });
  ask('c-text', 'TEXT_INPUT', 'Commit message?', { default_value: 'fix: token check' });
  ask('c-perm', 'PERMISSION', 'Allow Edit src/auth.ts?', { options: [...GATE_OPTIONS, { value: 'allow_dangerous', label: 'Allow rm -rf', risk_level: 'dangerous' }], default_value: 'reject', context: { tool_name: 'Edit', affected_paths: ['src/auth.ts'], tool_input: { file_path: 'src/auth.ts' } } });
  f.push(b.make('session.usage', { ...usagePayload(2400, 700, TURN2), context_window: { capacity: 200000, used: 190000, utilization: 0.95 } }, T));
  return f;
}

