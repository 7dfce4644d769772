import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { expectBroken } from '../../support/streamCheck';
import { ScriptedAdapter } from '../../support/scriptedAdapter';

describe('session/engine: opening sequence (§13.1, §12.2.1, §17.4)', () => {
  it('§13.1-1 §13.1-2 §13.1-3 §13.1-4 session.capabilities first, then tool.catalog.publish and agent.commands.publish, then agent.state.changed → idle', async () => {
    const h = await EngineHarness.start();
    assert.deepEqual(h.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
    const state = h.ofType('agent.state.changed')[0].payload;
    assert.equal(state.current_state, 'idle');
    assert.notEqual(state.previous_state, 'idle');
  });

  it('§17.4-1 capabilities carry features with adapter_type, and §12.2.1 max_frame_size', async () => {
    const h = await EngineHarness.start({ info: { adapter_type: 'process' }, features: { thinking_stream: true, plan_mode: true } }, { maxFrameSize: 123_456 });
    const caps = h.ofType('session.capabilities')[0].payload;
    assert.equal(caps.protocol_version, 'rawp-dps-1.0');
    assert.equal(caps.features?.adapter_type, 'process');
    assert.equal(caps.features?.thinking_stream, true);
    assert.equal(caps.features?.plan_mode, true);
    assert.equal(caps.max_frame_size, 123_456);
    assert.deepEqual([...caps.supported_namespaces].sort(), ['agent', 'control', 'session', 'tool']);
  });

  it('§10.6 an agent with subagents announces subagent_context (the engine fills it in)', async () => {
    const h = await EngineHarness.start({ features: { subagent: true } });
    assert.equal(h.ofType('session.capabilities')[0].payload.features?.subagent_context, true);
  });

  it('§16.1 file_search_fuzzy is announced only when the engine has a search to answer with', async () => {
    const without = await EngineHarness.start({ features: { file_search_fuzzy: true } });
    assert.equal(without.ofType('session.capabilities')[0].payload.features?.file_search_fuzzy, undefined);
    const withSearch = await EngineHarness.start({}, { fileSearch: async (q) => ({ query_id: q.query_id, candidates: [], truncated: false }) });
    assert.equal(withSearch.ofType('session.capabilities')[0].payload.features?.file_search_fuzzy, true);
  });

  it('§5.4.1 the catalog published is the agent\'s tools and diagnostics', async () => {
    const h = await EngineHarness.start({
      tools: [{ name: 'Read', description: 'r', category: 'filesystem' }],
      diagnostics: [{ severity: 'warning', code: 'VERSION_MISMATCH', message: 'old' }],
    });
    const cat = h.ofType('tool.catalog.publish')[0].payload;
    assert.deepEqual(cat.tools.map((t) => t.name), ['Read']);
    assert.equal(cat.diagnostics?.[0].code, 'VERSION_MISMATCH');
  });

  it('§7.4.1 an agent that cannot start ends the session with a fatal session.error and session.deleted', async () => {
    expectBroken(); // the peer (or the agent) breaks the opening on purpose
    const h = new EngineHarness(new ScriptedAdapter({ startError: 'no binary' }));
    await assert.rejects(h.session.start(), /no binary/);
    assert.deepEqual(h.types(), ['session.error', 'session.deleted']);
    const err = h.ofType('session.error')[0].payload;
    assert.equal(err.fatal, true);
    assert.equal(err.error_code, 'AGENT_START_FAILED');
    assert.equal(h.ended?.reason, 'error');
  });

  it('§13.1 a prompt before the opening sequence is done is refused with a non-fatal session.error', async () => {
    expectBroken(); // the peer (or the agent) breaks the opening on purpose
    const h = new EngineHarness(new ScriptedAdapter());
    h.prompt('too early');
    assert.deepEqual(h.errors(), ['SESSION_NOT_READY']);
    assert.equal(h.ofType('session.turn.start').length, 0);
  });
});
