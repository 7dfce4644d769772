import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { until } from '../../support/settle';

const SUB = { features: { subagent: true, tool_streaming: true } };

describe('session/engine: subagents (§10, §15.2)', () => {
  it('§10.3.1-1 §10.3.2-1 request(subagent) → agent.subagent.started → inner frames → agent.subagent.ended → result (agent_result)', async () => {
    const h = await EngineHarness.start({
      ...SUB,
      turns: [{ steps: [{ kind: 'subagent', id: 'task-1', agent_type: 'Explore', description: 'look around', steps: [{ kind: 'text', chunks: ['found it'] }, { kind: 'tool', name: 'Grep', input: {} }] }] }],
    });
    const from = await h.runTurn();
    const seq = h.types(from).filter((t) => t !== 'agent.state.changed');
    assert.deepEqual(seq, [
      'session.turn.start',
      'tool.invoke.request',
      'agent.subagent.started',
      'agent.text.delta',
      'agent.text.done',
      'tool.invoke.request',
      'tool.invoke.result',
      'agent.subagent.ended',
      'tool.invoke.result',
      'session.turn.end',
      'session.usage',
    ]);
    const started = h.ofType('agent.subagent.started', from)[0].payload;
    assert.deepEqual([started.parent_invocation_id, started.agent_type, started.depth], ['task-1', 'Explore', 1]);
    assert.equal(h.ofType('agent.subagent.ended', from)[0].payload.status, 'completed');
    assert.equal(h.ofType('tool.invoke.result', from).at(-1)?.payload.output_type, 'agent_result');
  });

  it('§10.2-1 §10.2-3 every frame inside the subagent carries metadata.subagent_context with the parent id and depth', async () => {
    const h = await EngineHarness.start({
      ...SUB,
      turns: [{ steps: [{ kind: 'subagent', id: 'task-1', agent_type: 'Explore', steps: [{ kind: 'text', chunks: ['a'] }, { kind: 'tool', name: 'Read', input: {} }] }] }],
    });
    const from = await h.runTurn();
    const inner = h.frames.slice(from).filter((f) => f.metadata?.subagent_context);
    assert.deepEqual(inner.map((f) => f.type), ['agent.text.delta', 'agent.text.done', 'tool.invoke.request', 'tool.invoke.result']);
    for (const f of inner) assert.deepEqual(f.metadata?.subagent_context, { parent_invocation_id: 'task-1', depth: 1, agent_type: 'Explore' });
    const outer = h.frames.slice(from).filter((f) => f.type === 'tool.invoke.request' && f.payload.invocation_id === 'task-1');
    assert.equal(outer[0].metadata?.subagent_context, undefined, 'the spawning call is the main agent\'s');
  });

  it('§10.2 a nested subagent has depth 2 and names its direct parent', async () => {
    const h = await EngineHarness.start({
      ...SUB,
      turns: [{ steps: [{ kind: 'subagent', id: 'outer', steps: [{ kind: 'subagent', id: 'inner', steps: [{ kind: 'text', chunks: ['deep'] }] }] }] }],
    });
    const from = await h.runTurn();
    const started = h.ofType('agent.subagent.started', from).map((f) => [f.payload.parent_invocation_id, f.payload.depth]);
    assert.deepEqual(started, [['outer', 1], ['inner', 2]]);
    const deep = h.ofType('agent.text.delta', from)[0];
    assert.deepEqual(deep.metadata?.subagent_context, { parent_invocation_id: 'inner', depth: 2 });
  });

  it('§15.2 a subagent may not be given tools beyond its parent\'s: the call is refused', async () => {
    const h = await EngineHarness.start({ ...SUB, turns: [{ steps: [{ kind: 'subagent', id: 't', allowed_tools: ['Read', 'Bash'], steps: [] }] }] });
    const from = await h.runTurn('go', { config_overrides: { denied_tools: ['Bash'] } });
    const result = h.ofType('tool.invoke.result', from);
    assert.equal(result.length, 1);
    assert.equal(result[0].payload.status, 'error');
    assert.match(String(result[0].payload.output), /allowed_tools exceeds the parent's tools \(§15\.2\): Bash/);
    assert.equal(h.ofType('agent.subagent.started', from).length, 0, 'no subagent was started');
  });

  it('§15.2 inside a subagent only its allowed_tools may be called', async () => {
    const h = await EngineHarness.start({
      ...SUB,
      turns: [{ steps: [{ kind: 'subagent', id: 't', allowed_tools: ['Read'], steps: [{ kind: 'tool', name: 'Read', input: {} }, { kind: 'tool', name: 'Grep', input: {}, skipCheck: true }] }] }],
    });
    const from = await h.runTurn();
    const inner = h.ofType('tool.invoke.result', from).filter((f) => f.metadata?.subagent_context);
    assert.deepEqual(inner.map((f) => [f.payload.tool_name, f.payload.status]), [['Read', 'success'], ['Grep', 'error']]);
  });

  it('§10.7-1 without subagent_context announced, the context is stripped from frames', async () => {
    const h = await EngineHarness.start({ features: { subagent: true, subagent_context: false }, turns: [{ steps: [{ kind: 'subagent', id: 't', steps: [{ kind: 'text', chunks: ['flat'] }] }] }] });
    const from = await h.runTurn();
    assert.ok(h.frames.slice(from).every((f) => f.metadata?.subagent_context === undefined));
  });

  it('§10.3.2 a cancelled subagent ends "cancelled" just before its cancelled result', async () => {
    const h = await EngineHarness.start({ ...SUB, turns: [{ steps: [{ kind: 'subagent', id: 't', steps: [{ kind: 'tool', name: 'Bash', id: 'inner-bash', input: {}, untilAborted: true }] }] }] });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('tool.invoke.request', from).length === 2, 'the inner tool');
    h.control('control.prompt.cancel', { target_turn_id: h.session.currentTurnId as string });
    await h.turnEnded();
    const tail = h.types(from).filter((t) => t.startsWith('tool.invoke.result') || t === 'agent.subagent.ended');
    assert.deepEqual(tail, ['tool.invoke.result', 'agent.subagent.ended', 'tool.invoke.result']);
    assert.equal(h.ofType('agent.subagent.ended', from)[0].payload.status, 'cancelled');
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => [f.payload.invocation_id, f.payload.status]), [['inner-bash', 'cancelled'], ['t', 'cancelled']]);
  });

  it('§10.5-1 usage reported inside a subagent keeps its subagent_context (depth filled in) and is sent on its own', async () => {
    const usage = { token_usage: { input_tokens: 3, output_tokens: 2 }, cost_usage: { limit: -1, used: 0, unit: 'USD' }, message_usage: { limit: -1, used: 0, unit: 'COUNT' }, time_to_reset: 'PT0S' };
    const h = await EngineHarness.start({
      ...SUB,
      turns: [{ steps: [{ kind: 'subagent', id: 't', agent_type: 'Plan', steps: [{ kind: 'emit', event: { type: 'session.usage', payload: usage, metadata: { subagent_context: { parent_invocation_id: 't', depth: 0 } } } }] }] }],
    });
    const from = await h.runTurn();
    const usages = h.ofType('session.usage', from);
    assert.equal(usages.length, 2, 'the subagent\'s own and the turn\'s');
    assert.deepEqual(usages[0].metadata?.subagent_context, { parent_invocation_id: 't', depth: 1, agent_type: 'Plan' });
    assert.equal(usages[1].metadata, undefined);
  });
});
