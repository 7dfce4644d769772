// Recorded-style frame streams for the webview tests and the benchmark, built with the typed
// stream builder (so every frame is valid by construction). Each is one session's frames in order.
import type { Frame, PayloadOf } from '../../src/protocol/frameTypes';
import { streamBuilder, usagePayload } from '../fixtures/frames/streamBuilder';

export const SESSION = '22222222-2222-4222-8222-222222222222';
export const TURN = '33333333-3333-4333-8333-333333333333';

export function clientCaps(b = streamBuilder(SESSION)) {
  return b.make('session.capabilities', {
    protocol_version: 'rawp-dps-1.0',
    supported_namespaces: ['agent', 'tool', 'session', 'control'],
    features: { thinking_stream: true, tool_streaming: true, subagent: true, subagent_context: true, plan_mode: true, file_reference: true, file_search_fuzzy: true, adapter_type: 'sdk' },
  });
}

export const DIFF_OUTPUT = {
  file_path: 'src/auth.ts',
  created: false,
  unified_diff: '',
  hunks: [{ old_start: 10, old_lines: 3, new_start: 10, new_lines: 3, lines: [' function check(t) {', '-  if (!valid) return true;', '+  if (!valid) return false;', ' }'] }],
  additions: 1,
  deletions: 1,
};

/** One turn with a tool card of every output_type, streamed output, a parallel group, a subagent, markdown and thinking. */
export function outputsStream(): Frame[] {
  const b = streamBuilder(SESSION);
  const T = { turn_id: TURN };
  const f: Frame[] = [clientCaps(b)];
  f.push(
    b.make('tool.catalog.publish', {
      tools: [
        { name: 'Bash', description: 'Run', category: 'shell' },
        { name: 'Read', description: 'Read', category: 'filesystem' },
        { name: 'Task', description: 'Delegate', category: 'agent' },
      ],
    }),
  );
  f.push(
    b.make('agent.commands.publish', {
      commands: [
        { name: 'compact', description: 'Compact the context', parameters: [{ name: 'instruction', type: 'string', required: false }] },
        { name: 'review', description: 'Review a pull request', parameters: [{ name: 'pr', type: 'number', required: true }] },
        { name: 'cost', description: 'Show usage' },
      ],
    }),
  );
  f.push(b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' }));
  f.push(b.make('control.prompt.request', { prompt_text: 'Fix <@file:ref_0|src/auth.ts> please', file_references: [{ ref_id: 'ref_0', path: 'src/auth.ts', name: 'auth.ts', workspace_relative_path: 'src/auth.ts' }] }));
  f.push(b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T));
  f.push(b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, T));
  f.push(b.make('agent.thinking.delta', { content_index: 0, text: 'Let me look at the token check. ' }, T));
  f.push(b.make('agent.thinking.delta', { content_index: 0, text: 'SECRET-RAW-THOUGHT', redacted: true }, T));
  f.push(b.make('agent.thinking.done', { content_index: 0 }, T));
  const md = [
    'Here is **the plan**: see [the docs](https://example.com/docs) and [bad](javascript:alert(1)).',
    '',
    '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true">',
    '',
    '```ts',
    'const ok = check(token);',
    '```',
  ].join('\n');
  f.push(b.make('agent.text.delta', { content_index: 1, text: md }, T));
  f.push(b.make('agent.text.done', { content_index: 1 }, T));
  const tool = (id: string, name: string, input: Record<string, unknown>, output: PayloadOf<'tool.invoke.result'>['output'], output_type: PayloadOf<'tool.invoke.result'>['output_type'], extra: { group?: string } = {}) => {
    f.push(b.make('tool.invoke.request', { invocation_id: id, tool_name: name, input, ...(extra.group ? { parallel_group_id: extra.group } : {}) }, T));
    f.push(b.make('tool.invoke.result', { invocation_id: id, tool_name: name, status: 'success', output, output_type, duration_ms: 12 }, T));
  };
  // Bash with streamed output arriving out of order (sequence 1 before 0).
  f.push(b.make('tool.invoke.request', { invocation_id: 'inv-bash', tool_name: 'Bash', input: { command: 'npm test' } }, T));
  f.push(b.make('tool.invoke.stream', { invocation_id: 'inv-bash', tool_name: 'Bash', stream_type: 'stdout', chunk: 'second line\n', sequence: 1 }, T));
  f.push(b.make('tool.invoke.stream', { invocation_id: 'inv-bash', tool_name: 'Bash', stream_type: 'stdout', chunk: 'first line\n', sequence: 0 }, T));
  f.push(b.make('tool.invoke.stream', { invocation_id: 'inv-bash', tool_name: 'Bash', stream_type: 'stderr', chunk: 'a warning\n', sequence: 2 }, T));
  tool('inv-read', 'Read', { file_path: 'src/auth.ts' }, '    10\tfunction check(t) {\n    11\t  return t.valid;\n    12\t}\n', 'file_content');
  tool('inv-glob', 'Glob', { pattern: 'src/**/*.ts' }, ['src/auth.ts', 'src/login.ts'], 'file_list');
  tool('inv-edit', 'Edit', { file_path: 'src/auth.ts' }, DIFF_OUTPUT, 'diff');
  tool('inv-web', 'WebFetch', { url: 'https://example.com' }, { url: 'https://example.com', title: 'Example Domain', content: 'This domain is for use in examples.' }, 'web_content');
  tool('inv-write', 'Write', { file_path: 'notes.txt' }, '', 'empty');
  tool(
    'inv-todo',
    'TodoWrite',
    { todos: [] },
    { success: true, count: 2, todos: [{ id: 't1', content: 'Reproduce the bug', status: 'completed' }, { id: 't2', content: 'Fix the check', status: 'in_progress' }] },
    'structured',
  );
  f.push(b.make('agent.file.transfer', { transfer_id: 'tr-1', direction: 'download', file_url: 'https://files.example.com/chart.png', file_name: 'chart.png', mime_type: 'image/png', size_bytes: 2048, context: { related_tool_invocation_id: 'inv-img' } }, T));
  tool('inv-img', 'ImageGen', { prompt: 'a chart' }, { transfer_id: 'tr-1' }, 'binary_ref');
  tool('inv-g1', 'Bash', { command: 'ls a' }, 'a.txt\n', 'text', { group: 'grp-1' });
  tool('inv-g2', 'Bash', { command: 'ls b' }, 'b.txt\n', 'text', { group: 'grp-1' });
  // A subagent run nested under its Task call (§10).
  f.push(b.make('tool.invoke.request', { invocation_id: 'inv-task', tool_name: 'Task', input: { description: 'Find callers' }, subagent: { agent_type: 'explorer', description: 'Find callers' } }, T));
  f.push(b.make('agent.subagent.started', { parent_invocation_id: 'inv-task', agent_type: 'explorer', description: 'Find callers', depth: 1 }, T));
  const sub = { ...T, metadata: { subagent_context: { parent_invocation_id: 'inv-task', agent_type: 'explorer', depth: 1 } } };
  f.push(b.make('agent.text.delta', { content_index: 0, text: 'Searching for callers of check()' }, sub));
  f.push(b.make('agent.text.done', { content_index: 0 }, sub));
  f.push(b.make('agent.subagent.ended', { parent_invocation_id: 'inv-task', status: 'completed', duration_ms: 900 }, T));
  f.push(b.make('tool.invoke.result', { invocation_id: 'inv-task', tool_name: 'Task', status: 'success', output: { summary: 'One caller: src/login.ts' }, output_type: 'agent_result' }, T));
  f.push(b.make('tool.invoke.result', { invocation_id: 'inv-bash', tool_name: 'Bash', status: 'success', output: 'first line\nsecond line\n', output_type: 'text' }, T));
  f.push(b.make('agent.error', { error_code: 'RATE_LIMITED', message: 'Slow down a little', severity: 'warning', recoverable: true }, T));
  f.push(b.make('session.usage', { ...usagePayload(1200, 340, TURN), context_window: { capacity: 200000, used: 150000, utilization: 0.75 } }, T));
  f.push(b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn', tool_invocation_count: 11 }, T));
  f.push(b.make('agent.state.changed', { previous_state: 'thinking', current_state: 'idle' }, T));
  return f;
}

export const GATE_OPTIONS = [
  { value: 'allow_once', label: 'Allow once', risk_level: 'moderate' as const },
  { value: 'allow_session', label: 'Allow for this session', description: 'Edit on src/**', risk_level: 'moderate' as const },
  { value: 'allow_always', label: 'Always allow', description: 'Saved rule for every workspace: Edit on src/**', risk_level: 'moderate' as const },
  { value: 'reject', label: 'Reject', description: 'Optionally tell the agent why', risk_level: 'safe' as const },
];

/** An open turn with pending interactions of all five types and a plan awaiting approval. */
export function interactionsStream(): Frame[] {
  const b = streamBuilder(SESSION, Date.now());
  const T = { turn_id: TURN };
  const f: Frame[] = [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0, mode: 'plan' }, T)];
  f.push(b.make('agent.text.delta', { content_index: 0, text: '## Plan\n\n1. Read the file\n2. Fix the check' }, { ...T, metadata: { content_role: 'plan', plan_id: 'plan-1' } }));
  f.push(b.make('agent.text.done', { content_index: 0 }, { ...T, metadata: { content_role: 'plan', plan_id: 'plan-1' } }));
  const ask = (id: string, type: 'YN' | 'SELECT' | 'MULTI_SELECT' | 'TEXT_INPUT' | 'PERMISSION', question: string, extra: Record<string, unknown>) =>
    f.push(b.make('agent.interaction.request', { interaction_id: id, interaction_type: type, question_text: question, timeout_sec: 300, ...extra }, T));
  ask('i-plan', 'YN', 'Carry out this plan (2 steps)?', { options: [{ value: 'yes', label: 'Approve', risk_level: 'moderate' }, { value: 'no', label: 'Reject', risk_level: 'safe' }], default_value: 'no' });
  ask('i-select', 'SELECT', 'Which branch?', { options: [{ value: 'main', label: 'main' }, { value: 'dev', label: 'dev', risk_level: 'dangerous' }], default_value: 'main' });
  ask('i-multi', 'MULTI_SELECT', 'Which checks?', { options: [{ value: 'lint', label: 'Lint' }, { value: 'test', label: 'Tests' }, { value: 'types', label: 'Types' }] });
  ask('i-text', 'TEXT_INPUT', 'Commit message?', { default_value: 'fix: token check' });
  ask('i-perm', 'PERMISSION', 'Allow Edit src/auth.ts?', { options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Edit', affected_paths: ['src/auth.ts'] } });
  return f;
}

/** A reattach whose history lost frames (§7.1.1). */
/** A reattach: the view already shows a turn, then a truncated history of what it missed. */
export function truncatedHistoryStream(): Frame[] {
  const b = streamBuilder(SESSION);
  const inner = b.make('agent.text.delta', { content_index: 0, text: 'after the gap' }, { turn_id: TURN });
  return [
    clientCaps(b),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, { turn_id: TURN }),
    b.make('agent.text.delta', { content_index: 0, text: 'before the gap ' }, { turn_id: TURN }),
    b.make('session.history', {
      frames: [inner as unknown as Record<string, unknown>],
      buffer_status: { policy_applied: 'RING', truncated: true, lost_frame_count: 42 },
      last_sync_timestamp: '2026-03-16T10:00:05.000Z',
      last_message_id: inner.message_id,
    }),
  ];
}

/** A fresh view of a session longer than the host's history budget: the history starts past its beginning. */
export function budgetHistoryStream(): Frame[] {
  const b = streamBuilder(SESSION);
  const kept = [
    b.make('session.turn.start', { turn_id: TURN, turn_index: 7 }, { turn_id: TURN }),
    b.make('agent.text.delta', { content_index: 0, text: 'the newest turn the host kept' }, { turn_id: TURN }),
  ];
  return [
    clientCaps(b),
    b.make('session.history', {
      frames: kept as unknown as Record<string, unknown>[],
      buffer_status: { policy_applied: 'RING', truncated: true, lost_frame_count: 1200 },
      last_sync_timestamp: '2026-03-16T10:00:05.000Z',
      last_message_id: kept[1].message_id,
    }),
  ];
}

/** Capabilities without file search or plan mode, plus an open turn. */
export function plainAgentStream(): Frame[] {
  const b = streamBuilder(SESSION);
  return [
    b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session'], features: { adapter_type: 'process' } }),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, { turn_id: TURN }),
  ];
}

const words = 'the agent reads the file then edits the token check and runs the tests again to be sure it works'.split(' ');
export const sentence = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 7 + k) % words.length]).join(' ');

/** A long realistic session: turns with a prompt, thinking, text, a streaming Bash call, a Read, usage. */
export function longSession(total: number, b = streamBuilder(SESSION, Date.parse('2026-03-16T08:00:00.000Z'))): Frame[] {
  const f: Frame[] = [
    b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { thinking_stream: true, tool_streaming: true, plan_mode: true, file_search_fuzzy: true } }),
    b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle' }),
  ];
  for (let turn = 0; f.length < total; turn++) {
    const turn_id = `turn-${turn}`;
    const T = { turn_id };
    f.push(b.make('control.prompt.request', { prompt_text: `Please ${sentence(turn, 8)} (${turn})` }));
    f.push(b.make('session.turn.start', { turn_id, turn_index: turn }, T));
    for (let k = 0; k < 4; k++) f.push(b.make('agent.thinking.delta', { content_index: 0, text: `${sentence(turn + k, 6)} ` }, T));
    f.push(b.make('agent.thinking.done', { content_index: 0 }, T));
    for (let k = 0; k < 16; k++) f.push(b.make('agent.text.delta', { content_index: 1, text: `${k === 8 ? '\n\n`code()` ' : ''}${sentence(turn + k, 5)} ` }, T));
    f.push(b.make('agent.text.done', { content_index: 1 }, T));
    const inv = `inv-${turn}`;
    f.push(b.make('tool.invoke.request', { invocation_id: inv, tool_name: 'Bash', input: { command: `npm test -- ${turn}` } }, T));
    for (let s = 0; s < 8; s++) f.push(b.make('tool.invoke.stream', { invocation_id: inv, tool_name: 'Bash', stream_type: 'stdout', chunk: `ok ${s} ${sentence(s, 4)}\n`, sequence: s }, T));
    f.push(b.make('tool.invoke.result', { invocation_id: inv, tool_name: 'Bash', status: 'success', output: 'ok\n'.repeat(8), output_type: 'text', duration_ms: 40 }, T));
    const read = `read-${turn}`;
    f.push(b.make('tool.invoke.request', { invocation_id: read, tool_name: 'Read', input: { file_path: `src/file${turn}.ts` } }, T));
    f.push(b.make('tool.invoke.result', { invocation_id: read, tool_name: 'Read', status: 'success', output: Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i} ${sentence(i, 4)}`).join('\n'), output_type: 'file_content' }, T));
    f.push(b.make('session.usage', usagePayload(1000 * (turn + 1), 200 * (turn + 1), turn_id), T));
    f.push(b.make('session.turn.end', { turn_id, stop_reason: 'end_turn', tool_invocation_count: 2 }, T));
  }
  return f.slice(0, total);
}


/** Two turns with structured output (§11): one the agent reports failed and one valid (§15.4). */
export function structuredOutputStream(): Frame[] {
  const b = streamBuilder(SESSION);
  const schema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
  const turn = (id: string, index: number, data: Record<string, unknown>, validation_status: 'valid' | 'failed') => [
    b.make('control.prompt.request', { prompt_text: `count ${index}`, config_overrides: { output_format: 'json', json_schema: schema } }),
    b.make('session.turn.start', { turn_id: id, turn_index: index }, { turn_id: id }),
    b.make('session.turn.end', { turn_id: id, stop_reason: 'end_turn', structured_output: { data, validation_status } }, { turn_id: id }),
  ];
  return [clientCaps(b), ...turn('t-bad', 0, { count: 'SECRET-UNVALIDATED' }, 'failed'), ...turn('t-ok', 1, { count: 7 }, 'valid')];
}
