// The pure Claude Code translation (native stream-json line -> items), line by line, for the cases
// the real-CLI tests do not reach cheaply: no partial messages, redacted thinking, plan documents,
// tool outputs by Appendix A, permission asks inside subagents, costs, bad input.
import { strict as assert } from 'node:assert';
import type { AgentEvent } from '../../../src/session/agentAdapter';
import { ClaudeTranslator, type ClaudeItem } from '../../../src/agents/claudeCode/translate';
import { callOf, decisionFor, scopeOf } from '../../../src/agents/claudeCode/permission';
import { riskOf } from '../../../src/session/permissions';
import { catalogFor } from '../../../src/agents/claudeCode/tools';
import { unifiedDiff } from '../../../src/agents/claudeCode/toolOutput';
import { commandsFromInitialize } from '../../../src/agents/claudeCode/commands';

const WS = '/work/space';

function feed(t: ClaudeTranslator, ...lines: unknown[]): ClaudeItem[] {
  return lines.flatMap((l) => t.translate(l));
}
function events(items: ClaudeItem[]): AgentEvent[] {
  return items.flatMap((i) => (i.kind === 'event' ? [i.event] : []));
}
const assistant = (id: string, content: unknown[], parent: string | null = null) => ({ type: 'assistant', message: { id, model: 'claude-x', content }, parent_tool_use_id: parent });
const toolResult = (id: string, content: unknown, extra: Record<string, unknown> = {}, parent: string | null = null, is_error = false) => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(is_error ? { is_error } : {}) }] },
  parent_tool_use_id: parent,
  ...extra,
});
const result = (extra: Record<string, unknown> = {}) => ({ type: 'result', subtype: 'success', is_error: false, session_id: 'sess-1', usage: { input_tokens: 5, output_tokens: 7 }, ...extra });

describe('agents/claudeCode: translation of stream-json lines', () => {
  it('§4.1 without partial messages an assistant text arrives whole: one delta and done with full_text', () => {
    const t = new ClaudeTranslator();
    const ev = events(feed(t, assistant('m1', [{ type: 'text', text: 'whole answer' }])));
    assert.deepEqual(ev, [
      { type: 'agent.text.delta', payload: { content_index: 0, text: 'whole answer' } },
      { type: 'agent.text.done', payload: { content_index: 0, full_text: 'whole answer' } },
    ]);
  });

  it('§4.1 with partial messages the assistant line does not repeat what the stream events already sent', () => {
    const t = new ClaudeTranslator();
    const se = (event: unknown) => ({ type: 'stream_event', event, parent_tool_use_id: null });
    const ev = events(
      feed(
        t,
        se({ type: 'message_start', message: { id: 'm1', usage: { input_tokens: 3 } } }),
        se({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        se({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
        se({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } }),
        assistant('m1', [{ type: 'text', text: 'Hello' }]),
        se({ type: 'content_block_stop', index: 0 }),
      ),
    );
    assert.deepEqual(
      ev.map((e) => [e.type, (e.payload as { text?: string; full_text?: string }).text ?? (e.payload as { full_text?: string }).full_text]),
      [
        ['agent.text.delta', 'Hel'],
        ['agent.text.delta', 'lo'],
        ['agent.text.done', 'Hello'],
      ],
    );
  });

  it('§4.2 §15.3 redacted thinking is announced as redacted with no text', () => {
    const t = new ClaudeTranslator();
    const se = (event: unknown) => ({ type: 'stream_event', event, parent_tool_use_id: null });
    const ev = events(feed(t, se({ type: 'message_start', message: { id: 'm1' } }), se({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'ENCRYPTED' } }), se({ type: 'content_block_stop', index: 0 })));
    assert.deepEqual(ev, [
      { type: 'agent.thinking.delta', payload: { content_index: 0, text: '', redacted: true } },
      { type: 'agent.thinking.done', payload: { content_index: 0 } },
    ]);
    assert.ok(!JSON.stringify(ev).includes('ENCRYPTED'));
  });

  it('§15.3 text sent into a redacted thinking block (thinking or text deltas on its index) is dropped, never shown', () => {
    const t = new ClaudeTranslator();
    const se = (event: unknown) => ({ type: 'stream_event', event, parent_tool_use_id: null });
    const ev = events(
      feed(
        t,
        se({ type: 'message_start', message: { id: 'm1' } }),
        se({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'ENCRYPTED' } }),
        se({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'DELTA-INTO-REDACTED' } }),
        se({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'TEXT-INTO-REDACTED' } }),
        se({ type: 'content_block_stop', index: 0 }),
      ),
    );
    assert.deepEqual(ev, [
      { type: 'agent.thinking.delta', payload: { content_index: 0, text: '', redacted: true } },
      { type: 'agent.thinking.done', payload: { content_index: 0 } },
    ]);
  });

  it('§13.4 tool uses of one message wait for the message to end, then share one parallel_group_id; a single call has none', () => {
    const t = new ClaudeTranslator();
    const first = feed(t, assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'a' } }]));
    assert.deepEqual(events(first), [], 'held until the message is complete');
    const ev = events(feed(t, assistant('m1', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'b' } }]), toolResult('t1', 'a')));
    const reqs = ev.filter((e): e is Extract<AgentEvent, { type: 'tool.invoke.request' }> => e.type === 'tool.invoke.request');
    assert.deepEqual(reqs.map((r) => r.payload.invocation_id), ['t1', 't2']);
    assert.equal(reqs[0].payload.parallel_group_id, 'pg_m1');
    assert.equal(reqs[1].payload.parallel_group_id, 'pg_m1');
    const single = events(feed(t, assistant('m2', [{ type: 'tool_use', id: 't3', name: 'Read', input: { file_path: '/x' } }]), result()));
    const r3 = single.find((e) => e.type === 'tool.invoke.request');
    assert.ok(r3 && r3.type === 'tool.invoke.request' && r3.payload.parallel_group_id === undefined);
  });

  it('§5.3.3 Appendix A output types: Edit -> unified diff from structuredPatch, Write -> empty, Glob -> file_list (relative), Grep files -> file_list', () => {
    const t = new ClaudeTranslator({ workspacePath: WS });
    const call = (id: string, name: string, input: Record<string, unknown>) => assistant(`m-${id}`, [{ type: 'tool_use', id, name, input }]);
    const ev = events(
      feed(
        t,
        call('e', 'Edit', { file_path: `${WS}/src/a.ts` }),
        toolResult('e', 'updated', { tool_use_result: { filePath: `${WS}/src/a.ts`, structuredPatch: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, lines: ['-old', '+new'] }] } }),
        call('w', 'Write', { file_path: `${WS}/b.txt`, content: 'x' }),
        toolResult('w', 'File created', { tool_use_result: { type: 'create', filePath: `${WS}/b.txt`, content: 'x', structuredPatch: [] } }),
        call('g', 'Glob', { pattern: '*.ts' }),
        toolResult('g', 'a.ts', { tool_use_result: { filenames: [`${WS}/src/a.ts`, '/elsewhere/z.ts'] } }),
        call('s', 'Grep', { pattern: 'x', output_mode: 'files_with_matches' }),
        toolResult('s', 'Found 1 file', { tool_use_result: { mode: 'files_with_matches', filenames: [`${WS}/b.txt`] } }),
      ),
    );
    const results = ev.filter((e): e is Extract<AgentEvent, { type: 'tool.invoke.result' }> => e.type === 'tool.invoke.result').map((e) => [e.payload.tool_name, e.payload.output_type, e.payload.output]);
    assert.deepEqual(results, [
      ['Edit', 'diff', '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,1 +3,1 @@\n-old\n+new\n'],
      ['Write', 'empty', 'File created'],
      ['Glob', 'file_list', ['src/a.ts', '/elsewhere/z.ts']],
      ['Grep', 'file_list', ['b.txt']],
    ]);
  });

  it('§8.2 TodoWrite -> { success, count, todos } with §8.1 task objects; TaskList -> { todos }; TaskCreate has no list', () => {
    const t = new ClaudeTranslator();
    const call = (id: string, name: string) => assistant(`m-${id}`, [{ type: 'tool_use', id, name, input: {} }]);
    const ev = events(
      feed(
        t,
        call('w', 'TodoWrite'),
        toolResult('w', 'ok', { tool_use_result: { oldTodos: [], newTodos: [{ content: 'write tests', status: 'in_progress', activeForm: 'Writing tests' }, { content: 'ship', status: 'pending', activeForm: 'Shipping' }] } }),
        call('l', 'TaskList'),
        toolResult('l', 'ok', { tool_use_result: { tasks: [{ id: '7', subject: 'review', status: 'completed', blockedBy: [] }] } }),
        call('c', 'TaskCreate'),
        toolResult('c', 'ok', { tool_use_result: { task: { id: '8', subject: 'new one' } } }),
      ),
    );
    const out = ev.filter((e): e is Extract<AgentEvent, { type: 'tool.invoke.result' }> => e.type === 'tool.invoke.result').map((e) => [e.payload.output_type, e.payload.output]);
    assert.deepEqual(out, [
      [
        'structured',
        {
          success: true,
          count: 2,
          todos: [
            { id: '1', content: 'write tests', status: 'in_progress', metadata: { activeForm: 'Writing tests' } },
            { id: '2', content: 'ship', status: 'pending', metadata: { activeForm: 'Shipping' } },
          ],
        },
      ],
      ['structured', { todos: [{ id: '7', content: 'review', status: 'completed' }] }],
      ['structured', { success: true, count: 1, task: { id: '8', subject: 'new one' } }],
    ]);
  });

  it('§5.3.1 an errored tool result is an error with the message the model saw, as text', () => {
    const t = new ClaudeTranslator();
    const ev = events(feed(t, assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Edit', input: {} }]), toolResult('t1', '<tool_use_error>File has not been read yet.</tool_use_error>', {}, null, true)));
    const r = ev.find((e) => e.type === 'tool.invoke.result');
    assert.deepEqual(r?.payload, { invocation_id: 't1', tool_name: 'Edit', status: 'error', output: 'File has not been read yet.', output_type: 'text' });
  });

  it('§9.1 ExitPlanMode: the plan is a text block with metadata.content_role "plan" before the tool request', () => {
    const t = new ClaudeTranslator();
    const ev = events(feed(t, assistant('m1', [{ type: 'tool_use', id: 'p1', name: 'ExitPlanMode', input: { plan: '1. read\n2. edit' } }]), result()));
    assert.deepEqual(ev.slice(0, 3).map((e) => [e.type, e.metadata?.content_role]), [
      ['agent.text.delta', 'plan'],
      ['agent.text.done', 'plan'],
      ['tool.invoke.request', undefined],
    ]);
    assert.equal(ev[0].type === 'agent.text.delta' && ev[0].payload.text, '1. read\n2. edit');
  });

  it('§10.2 nested subagents: depth counts the chain; a permission ask inside a subagent carries its subagent_context', () => {
    const t = new ClaudeTranslator({ workspacePath: WS });
    const items = feed(
      t,
      assistant('m1', [{ type: 'tool_use', id: 'a1', name: 'Agent', input: { description: 'outer', prompt: 'go', subagent_type: 'Explore' } }]),
      assistant('m2', [{ type: 'tool_use', id: 'a2', name: 'Task', input: { description: 'inner', prompt: 'go deeper' } }], 'a1'),
      assistant('m3', [{ type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: `${WS}/x.ts` } }], 'a2'),
      { type: 'control_request', request_id: 'r1', request: { subtype: 'can_use_tool', tool_name: 'Edit', input: { file_path: `${WS}/x.ts` }, tool_use_id: 'e1', description: 'x.ts', permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits' }] } },
    );
    const started = events(items).filter((e) => e.type === 'agent.subagent.started');
    assert.deepEqual(started.map((e) => e.type === 'agent.subagent.started' && [e.payload.parent_invocation_id, e.payload.depth, e.payload.agent_type]), [
      ['a1', 1, 'Explore'],
      ['a2', 2, 'general-purpose'],
    ]);
    const edit = events(items).find((e) => e.type === 'tool.invoke.request' && e.payload.invocation_id === 'e1');
    assert.deepEqual(edit?.metadata?.subagent_context, { parent_invocation_id: 'a2', depth: 2, agent_type: 'general-purpose' });
    const ask = items.find((i) => i.kind === 'permission');
    assert.ok(ask && ask.kind === 'permission');
    assert.deepEqual(ask.ask.affected_paths, ['x.ts']);
    assert.equal(ask.ask.metadata?.subagent_context?.depth, 2);
    // Ending the turn with both subagents open: innermost first, each ended before its result.
    const closing = events(feed(t, result({ is_error: false })));
    assert.deepEqual(closing.filter((e) => e.type !== 'agent.text.done').map((e) => `${e.type}:${'invocation_id' in e.payload ? e.payload.invocation_id : (e.payload as { parent_invocation_id?: string }).parent_invocation_id}`), [
      'tool.invoke.result:e1',
      'agent.subagent.ended:a2',
      'tool.invoke.result:a2',
      'agent.subagent.ended:a1',
      'tool.invoke.result:a1',
    ]);
  });

  it('§4.3.1 a workspace file named by the CLI through its resolved cwd (a symlinked workspace) is workspace-relative, inside the workspace and of moderate risk', () => {
    const t = new ClaudeTranslator({ workspacePath: '/home/me/link/ws' });
    const items = feed(
      t,
      { type: 'system', subtype: 'init', session_id: 's', tools: ['Edit'], cwd: '/mnt/disk/ws' },
      assistant('m1', [{ type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: '/mnt/disk/ws/src/a.ts' } }]),
      { type: 'control_request', request_id: 'r1', request: { subtype: 'can_use_tool', tool_name: 'Edit', input: { file_path: '/mnt/disk/ws/src/a.ts' }, tool_use_id: 'e1', permission_suggestions: [] } },
      { type: 'control_request', request_id: 'r2', request: { subtype: 'can_use_tool', tool_name: 'Edit', input: { file_path: '/mnt/disk/other/b.ts' }, permission_suggestions: [] } },
    );
    const asks = items.flatMap((i) => (i.kind === 'permission' ? [i.ask] : []));
    assert.deepEqual(asks.map((a) => a.affected_paths), [['src/a.ts'], ['/mnt/disk/other/b.ts']]);
    assert.equal(riskOf(callOf(asks[0])), 'moderate', 'editing a workspace file is not dangerous');
    assert.equal(riskOf(callOf(asks[1])), 'dangerous', 'a file outside the workspace still is');
  });

  it('§17.3.1 a can_use_tool ask maps to our question and our verdict to the answer the CLI expects (an allow covers this call only: Claude gets none of its suggestions back, decision 698)', () => {
    const ask = { request_id: 'r', tool_name: 'Edit', input: { file_path: '/w/a' }, suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'localSettings' }], affected_paths: ['src/a.ts'], description: 'a' };
    assert.deepEqual(callOf(ask), { tool_name: 'Edit', paths: ['src/a.ts'] });
    assert.deepEqual(scopeOf(ask), { tool_name: 'Edit', path_glob: 'src/**' }, 'the scope the built-in tools would propose');
    const bash = { ...ask, tool_name: 'Bash', input: { command: 'npm test -- --watch' }, affected_paths: [], suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' }] };
    assert.deepEqual(scopeOf(bash), { tool_name: 'Bash', command_prefix: 'npm test' }, "Claude's own addRules suggestion becomes our rule");
    assert.deepEqual(callOf({ ...ask, affected_paths: ['/etc/passwd'] }).outsideWorkspace, true);
    const allow = (lifetime: 'once' | 'session' | 'always', via: 'user' | 'rule' = 'user') => decisionFor(ask, { allowed: true, lifetime, via });
    assert.deepEqual(allow('once'), { behavior: 'allow', updatedInput: { file_path: '/w/a' } });
    assert.deepEqual(allow('session'), allow('once'), 'no setMode acceptEdits for Claude: our session rule answers its next ask');
    assert.deepEqual(allow('always', 'rule'), allow('once'));
    assert.match((decisionFor(ask, { allowed: false, lifetime: 'once', via: 'timeout', message: 'x' }) as { message: string }).message, /timed out/);
    assert.deepEqual(decisionFor(ask, { allowed: false, lifetime: 'once', via: 'cancelled', message: 'x' }), { behavior: 'deny', message: 'The turn was cancelled; the tool was not run.', interrupt: true });
    assert.deepEqual(decisionFor(ask, { allowed: false, lifetime: 'once', via: 'user', message: 'x', text_input: 'not now' }), { behavior: 'deny', message: 'The user denied this: not now' });
    assert.match((decisionFor(ask, { allowed: false, lifetime: 'always', via: 'rule', message: 'x' }) as { message: string }).message, /saved permission rule rejects/);
  });

  it('§7.3.1 the turn cost is the change of the CLI running total; tokens and context window come along', () => {
    const t = new ClaudeTranslator();
    const r1 = feed(t, result({ total_cost_usd: 0.5, modelUsage: { m: { contextWindow: 200000 } } })).find((i) => i.kind === 'result');
    const r2 = feed(t, result({ total_cost_usd: 0.75 })).find((i) => i.kind === 'result');
    assert.ok(r1?.kind === 'result' && r2?.kind === 'result');
    assert.equal(r1.outcome.usage?.cost_usd, 0.5);
    assert.equal(r2.outcome.usage?.cost_usd, 0.25);
    assert.equal(r2.outcome.usage?.context_capacity, 200000);
    assert.equal(r1.outcome.agent_session_id, 'sess-1');
  });

  it('§7.5.2 stop reasons: max_tokens, an interrupt (cancelled), an error result with its agent.error', () => {
    const t = new ClaudeTranslator();
    const stop = (items: ClaudeItem[]) => items.find((i): i is Extract<ClaudeItem, { kind: 'result' }> => i.kind === 'result')!.outcome.stop_reason;
    assert.equal(stop(feed(t, result({ stop_reason: 'max_tokens' }))), 'max_tokens');
    t.markInterrupted();
    assert.equal(stop(feed(t, result({ subtype: 'error_during_execution', is_error: true }))), 'cancelled');
    const items = feed(t, result({ subtype: 'error_max_turns', is_error: true, result: undefined, errors: ['too many turns'] }));
    assert.equal(stop(items), 'error');
    const err = events(items)[0];
    assert.ok(err.type === 'agent.error' && err.payload.error_code === 'MAX_TURNS' && err.payload.message === 'too many turns');
  });

  it('catalog: Task in init brings Agent along; unknown and MCP tools still get entries', () => {
    const c = catalogFor(['Task', 'Read', 'mcp__github__search', 'BrandNew']);
    assert.deepEqual(c.map((e) => [e.name, e.category]), [
      ['Task', 'agent'],
      ['Read', 'filesystem'],
      ['mcp__github__search', 'mcp'],
      ['BrandNew', 'custom'],
      ['Agent', 'agent'],
    ]);
  });

  it('§12.1.1 commands from the initialize response: leading slash dropped, duplicates removed, argument hints as a parameter', () => {
    const c = commandsFromInitialize({ commands: [{ name: '/review', description: 'Review a PR', argumentHint: '[pr]' }, { name: 'review', description: 'dup' }, { name: 'compact', description: 'Compact' }, 'junk'] });
    assert.deepEqual(c, [
      { name: 'review', description: 'Review a PR', parameters: [{ name: 'args', type: 'string', required: false, description: '[pr]' }] },
      { name: 'compact', description: 'Compact', category: 'session' },
    ]);
    assert.equal(commandsFromInitialize({ nothing: true }), undefined);
  });

  it('unified diff of a new file has /dev/null as its old side', () => {
    assert.equal(unifiedDiff('n.txt', [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+hi'] }], true), '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+hi\n');
  });

  it('bad input never throws: unknown line types are skipped, results for unknown calls ignored', () => {
    const t = new ClaudeTranslator();
    assert.deepEqual(feed(t, { type: 'keep_alive' }, { type: 'brand_new_kind', x: 1 }, { type: 'system', subtype: 'brand_new_notice' }, { type: 'stream_event', event: { type: 'brand_new_event' } }), []);
    assert.deepEqual(events(feed(t, toolResult('never-seen', 'x'))), []);
  });

  it('§17.2.2 a line that does not fit its schema is one `malformed` item naming the field, never a throw, and the stream goes on', () => {
    const t = new ClaudeTranslator();
    const bad = feed(t, null, 42, [], { type: 'assistant', message: 'not an object' }, { type: 'user', message: { content: 7 } }, { type: 'stream_event', event: null }, { type: 'system', subtype: 'init', tools: 'nope' }, { type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool', tool_name: 5 } });
    assert.equal(bad.length, 9);
    assert.ok(bad.slice(0, 8).every((i) => i.kind === 'malformed'));
    const detail = (i: ClaudeItem) => (i.kind === 'malformed' ? `${i.type}: ${i.detail}` : '');
    assert.match(detail(bad[6]), /^system: tools: .*expected array/);
    assert.match(detail(bad[7]), /^control_request: request\.tool_name: .*expected string/);
    // The CLI waits for an answer to that permission ask: it gets one (unsupported), not silence.
    assert.deepEqual(bad[8], { kind: 'control_request', request_id: 'r', subtype: 'unreadable' });
    // A good line after the bad ones is translated as usual.
    const ev = events(feed(t, assistant('m1', [{ type: 'text', text: 'still here' }])));
    assert.deepEqual(ev.map((e) => e.type), ['agent.text.delta', 'agent.text.done']);
  });

  it('§17.2.2 a result line whose fields do not fit still ends the turn: a kept `malformed` item naming them, then the result with the fields that fit', () => {
    const t = new ClaudeTranslator();
    const items = t.translate(JSON.parse('{"type":"result","subtype":"success","is_error":false,"num_turns":1e400,"usage":{"input_tokens":1e400},"session_id":"s-9"}'));
    assert.deepEqual(items.map((i) => i.kind), ['malformed', 'result']);
    const [warning, end] = items;
    assert.ok(warning.kind === 'malformed' && warning.kept === true && /num_turns/.test(warning.detail) && /usage/.test(warning.detail));
    assert.ok(end.kind === 'result');
    assert.equal(end.outcome.stop_reason, 'end_turn');
    assert.equal(end.outcome.usage, undefined, 'usage that does not fit is left out, not guessed');
    assert.equal(end.outcome.agent_session_id, 's-9');
    assert.equal(end.model_turns, 1);
    // An error result whose is_error does not fit is still an error: its subtype says so.
    const err = t.translate({ type: 'result', subtype: 'error_max_turns', is_error: 'yes', errors: ['too many turns'] });
    const r = err.find((i): i is Extract<ClaudeItem, { kind: 'result' }> => i.kind === 'result');
    assert.equal(r?.outcome.stop_reason, 'error');
    assert.ok(events(err).some((e) => e.type === 'agent.error' && e.payload.error_code === 'MAX_TURNS'));
  });

  it('§17.2.2 text from the agent in a warning is cut: an api_retry error of 20 MB is a message of a few thousand characters', () => {
    const t = new ClaudeTranslator();
    const [e] = events(t.translate({ type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, error_status: 529, error: 'E'.repeat(20_000_000) }));
    assert.ok(e.type === 'agent.error' && e.payload.message.length < 5000 && /^Model API error 529 \(E+… \(\d+ more characters\)\); retry 1 of 10$/.test(e.payload.message), e.type === 'agent.error' ? e.payload.message.slice(-80) : e.type);
  });

  it('§4.1 a content block type the schema does not know (image, server tool) is skipped, its siblings kept', () => {
    const t = new ClaudeTranslator();
    const ev = events(feed(t, assistant('m1', [{ type: 'image', source: {} }, { type: 'text', text: 'after the image' }])));
    assert.deepEqual(ev.map((e) => e.type === 'agent.text.done' && e.payload.full_text).filter(Boolean), ['after the image']);
  });
});
