// The ACP session/update translator on the variants the real agents in our tests did not send:
// plans, streamed tool output, usage, titles, notices, and updates for calls never announced.
import { strict as assert } from 'node:assert';
import { AcpUpdateTranslator } from '../../../src/agents/acp/updates';
import { capturedPermissionRequest, outcomeFor, permissionQuestion } from '../../../src/agents/acp/permission';
import type { AgentEvent } from '../../../src/session/agentAdapter';

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

function setup(toolStreaming = true) {
  const out: AgentEvent[] = [];
  const t = new AcpUpdateTranslator({ emit: (e) => out.push(e), roots: ['/ws'], session_id: 's1', toolStreaming });
  t.goLive([]);
  t.beginTurn();
  const of = <T extends AgentEvent['type']>(type: T) => out.filter((e): e is Of<T> => e.type === type);
  return { t, out, of };
}

describe('ACP session/update -> frames', () => {
  it('§8.2 a plan update becomes a TodoWrite call with structured todos (status and priority kept)', () => {
    const { t, of } = setup();
    t.update({ sessionUpdate: 'plan', entries: [{ content: 'read', priority: 'high', status: 'completed' }, { content: 'write', priority: 'low', status: 'pending' }] });
    const res = of('tool.invoke.result')[0];
    assert.equal(res.payload.tool_name, 'TodoWrite');
    assert.equal(res.payload.output_type, 'structured');
    assert.deepEqual(res.payload.output, {
      success: true,
      count: 2,
      todos: [
        { id: 'plan-1', content: 'read', status: 'completed', priority: 'high' },
        { id: 'plan-2', content: 'write', status: 'pending', priority: 'low' },
      ],
    });
  });

  it('§5.3.2 in-progress tool content streams as tool.invoke.stream (only the new text, sequence from 0)', () => {
    const { t, of } = setup();
    t.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'make', kind: 'execute', status: 'in_progress', rawInput: { command: 'make' } });
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'step 1' } }] });
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'step 1\nstep 2' } }] });
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
    assert.deepEqual(
      of('tool.invoke.stream').map((s) => [s.payload.chunk, s.payload.sequence]),
      [
        ['step 1', 0],
        ['\nstep 2', 1],
      ],
    );
    assert.equal(of('tool.invoke.result')[0].payload.output, 'step 1\nstep 2');
    assert.equal(of('tool.invoke.request')[0].payload.tool_name, 'Bash');
  });

  it('§12.2.1 without tool_streaming announced, no stream frames are sent', () => {
    const { t, of } = setup(false);
    t.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'x', kind: 'execute', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'out' } }] });
    assert.equal(of('tool.invoke.stream').length, 0);
  });

  it('§7.3.1 usage_update feeds the turn usage (context window and cost)', () => {
    const { t } = setup();
    t.update({ sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.25, currency: 'USD' } });
    assert.deepEqual(t.turnUsage(), { context_used: 1200, context_capacity: 200000, cost_usd: 0.25 });
  });

  it('§7.6.1 a session title becomes session.renamed; a notice becomes agent.error', () => {
    const { t, of } = setup();
    t.update({ sessionUpdate: 'session_info_update', title: 'Fix the build' });
    t.update({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'retrying' });
    assert.deepEqual(of('session.renamed')[0].payload, { session_id: 's1', name: 'Fix the build', renamed_by: 'client' });
    assert.equal(of('agent.error')[0].payload.message, 'Rate limited: retrying');
  });

  it('§5.3.1 an update for a call never announced announces it first; an unknown tool name joins the catalog (§5.4.1)', () => {
    const { t, out } = setup();
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'x', name: 'mcp__docs__find', kind: 'search', status: 'failed', rawOutput: { output: 'not found' } });
    assert.deepEqual(
      out.map((e) => e.type),
      ['tool.catalog.publish', 'tool.invoke.request', 'tool.invoke.result'],
    );
    const res = out[2] as Of<'tool.invoke.result'>;
    assert.deepEqual([res.payload.tool_name, res.payload.status, res.payload.output], ['mcp__docs__find', 'error', 'not found']);
  });

  it('§7.5.3 ending a cancelled turn closes the text block (is_cancelled) and cancels open calls', () => {
    const { t, out } = setup();
    t.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'partial' } });
    t.update({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'read', kind: 'read', status: 'in_progress', rawInput: { path: '/ws/a' } });
    t.endTurn('cancelled');
    const types = out.map((e) => e.type);
    assert.deepEqual(types, ['agent.text.delta', 'agent.text.done', 'tool.invoke.request', 'tool.invoke.result']);
    assert.equal((out[3] as Of<'tool.invoke.result'>).payload.status, 'cancelled');
  });

  it('updates outside a turn (history replayed by session/load) are not turned into frames', () => {
    const out: AgentEvent[] = [];
    const t = new AcpUpdateTranslator({ emit: (e) => out.push(e), roots: [], session_id: 's', toolStreaming: true });
    t.goLive([]);
    t.update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'old prompt' } });
    t.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'old answer' } });
    assert.deepEqual(out, []);
  });
});

describe('ACP permission options <-> PERMISSION interactions (§4.3.1, §17.3.1)', () => {
  const options = [
    { optionId: 'always', name: 'Always', kind: 'allow_always' },
    { optionId: 'once', name: 'Once', kind: 'allow_once' },
    { optionId: 'no', name: 'No', kind: 'reject_once' },
  ];
  const q = permissionQuestion({ tool_name: 'Edit', title: 'a.txt', input: { file_path: '/ws/a.txt' }, paths: ['/ws/a.txt'] }, options, ['/ws']);

  it('§4.3.1 the question is ours: paths workspace-relative, longer answers only where the agent has an option for them', () => {
    assert.deepEqual(q.call, { tool_name: 'Edit', paths: ['a.txt'] });
    assert.deepEqual(q.scope, { tool_name: 'Edit', path_glob: '**' });
    assert.deepEqual(q.offer, { session: true, always: true, rejectAlways: false });
    assert.equal(q.question_text, 'Allow Edit: a.txt?');
    const outside = permissionQuestion({ tool_name: 'Edit', title: undefined, input: {}, paths: ['/etc/hosts'] }, options, ['/ws']);
    assert.equal(outside.call.outsideWorkspace, true);
    assert.deepEqual(permissionQuestion({ tool_name: 'Bash', title: 'ls', input: { command: 'ls -la' }, paths: [] }, options, ['/ws']).scope, { tool_name: 'Bash', command_prefix: 'ls -la' });
  });

  it('§17.3.1 verdicts map back: once and this session -> allow_once, always -> allow_always, reject -> reject_once, cancelled cancels', () => {
    assert.deepEqual(outcomeFor({ allowed: true, lifetime: 'once', via: 'user' }, options), { outcome: 'selected', optionId: 'once' });
    assert.deepEqual(outcomeFor({ allowed: true, lifetime: 'session', via: 'rule' }, options), { outcome: 'selected', optionId: 'once' });
    assert.deepEqual(outcomeFor({ allowed: true, lifetime: 'always', via: 'user' }, options), { outcome: 'selected', optionId: 'always' });
    assert.deepEqual(outcomeFor({ allowed: false, lifetime: 'once', via: 'timeout', message: '' }, options), { outcome: 'selected', optionId: 'no' });
    assert.deepEqual(outcomeFor({ allowed: false, lifetime: 'always', via: 'user', message: '' }, options), { outcome: 'selected', optionId: 'no' }, 'no reject_always option: reject_once');
    assert.deepEqual(outcomeFor({ allowed: false, lifetime: 'once', via: 'cancelled', message: '' }, options), { outcome: 'cancelled' });
    assert.deepEqual(outcomeFor({ allowed: true, lifetime: 'once', via: 'user' }, [{ optionId: 'n', name: 'No', kind: 'reject_once' }]), { outcome: 'selected', optionId: 'n' }, 'no allow option: refuse');
  });

  it('a captured ask (rawp convert) keeps the agent\'s options as values, reject as default, the policy\'s risk', () => {
    const ask = capturedPermissionRequest({ tool_name: 'Edit', title: 'a.txt', input: { file_path: 'a.txt' }, paths: ['/ws/a.txt'] }, options, 'i1');
    assert.deepEqual(ask.options?.map((o) => [o.value, o.risk_level]), [['always', 'moderate'], ['once', 'moderate'], ['no', 'safe']]);
    assert.equal(ask.default_value, 'no');
  });
});

describe('ACP session/update -> frames: malformed input', () => {
  it('§6.3.2 a call the engine refused ends with the engine\'s message, not the agent\'s own error text', () => {
    const { t, of } = setup();
    const call = t.callForPermission({ toolCallId: 'p1', title: 'edit a', kind: 'edit', rawInput: { file_path: '/ws/a.txt' } });
    t.refused(call.invocation_id, 'Tool not allowed in current mode');
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'p1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'Tool execution denied by policy.' } }] });
    const r = of('tool.invoke.result')[0].payload;
    assert.deepEqual([r.status, r.output], ['error', 'Tool not allowed in current mode']);
  });

  it('§17.2.2 an update that does not fit the ACP schema is one warning naming the field; unknown kinds are skipped; the turn goes on', () => {
    const { t, out, of } = setup();
    t.update({ sessionUpdate: 'tool_call', toolCallId: 7, title: 'x' });
    t.update({ sessionUpdate: 'agent_message_chunk' });
    t.update('not an object');
    t.update({ sessionUpdate: 'compaction_update', anything: 1 });
    t.update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'echo' } });
    const warnings = of('agent.error');
    assert.equal(warnings.length, 3);
    assert.ok(warnings.every((w) => w.payload.error_code === 'ACP_MALFORMED_UPDATE' && w.payload.severity === 'warning' && w.payload.recoverable));
    assert.match(warnings[0].payload.message, /session\/update tool_call .*toolCallId: .*expected string/);
    assert.match(warnings[1].payload.message, /agent_message_chunk .*content/);
    assert.equal(out.length, 3);
    t.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still here' } });
    assert.deepEqual(of('agent.text.delta').map((e) => e.payload.text), ['still here']);
  });
});
