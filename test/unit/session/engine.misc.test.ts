import { strict as assert } from 'node:assert';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { EngineHarness } from '../../support/engineHarness';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { settle, until } from '../../support/settle';

describe('session/engine: output_type, agent state, file search (§5.3.3, §4.6.1, §16.1)', () => {
  it('§5.3.3 an output_type the protocol does not know is replaced by the decided one', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'tool', name: 'Read', input: {}, output: 'x', output_type: 'bogus' as never }] }],
    });
    const from = await h.runTurn();
    const results = h.ofType('tool.invoke.result', from);
    assert.equal(results.length, 1, 'the result is repaired, not dropped');
    assert.equal(results[0].payload.output_type, 'file_content');
  });

  it('§4.6.1 an adapter\'s agent.state.changed is sent with the engine\'s own previous_state', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'emit', event: { type: 'agent.state.changed', payload: { previous_state: 'error', current_state: 'tool_calling', reason: 'running Bash' } } }] }],
    });
    const from = await h.runTurn();
    const changes = h.ofType('agent.state.changed', from).map((f) => [f.payload.previous_state, f.payload.current_state]);
    assert.deepEqual(changes, [['idle', 'thinking'], ['thinking', 'tool_calling'], ['tool_calling', 'idle']]);
  });

  it('§2.2 content frames an adapter emits outside a turn are dropped and logged', async () => {
    const h = await EngineHarness.start();
    const n = h.frames.length;
    h.adapter.host?.emit({ type: 'agent.text.delta', payload: { content_index: 0, text: 'stray' } });
    assert.equal(h.frames.length, n);
    assert.ok(h.logs.some((l) => /outside a turn/.test(l.message)));
  });

  it('§16.1.2 a file search is answered with session.file.candidates for its query_id (parent_id = the search)', async () => {
    const h = await EngineHarness.start({}, {
      fileSearch: async (q) => ({ query_id: 'ignored', candidates: [{ path: `src/${q.query}.ts`, name: `${q.query}.ts`, directory: 'src' }], truncated: false }),
    });
    const from = h.frames.length;
    const search = h.control('control.file.search', { query_id: 'q-1', query: 'auth' });
    await until(() => h.ofType('session.file.candidates', from).length === 1, 'candidates');
    const c = h.ofType('session.file.candidates', from)[0];
    assert.equal(c.parent_id, search.message_id);
    assert.equal(c.payload.query_id, 'q-1');
    assert.equal(c.payload.candidates[0].path, 'src/auth.ts');
  });

  it('§16.1.3 control.file.search.cancel aborts the search and nothing is sent for it', async () => {
    let seen: AbortSignal | undefined;
    let finish!: (v: PayloadOf<'session.file.candidates'>) => void;
    const h = await EngineHarness.start({}, {
      fileSearch: (_q, signal) => {
        seen = signal;
        return new Promise((r) => (finish = r));
      },
    });
    const from = h.frames.length;
    h.control('control.file.search', { query_id: 'q-2', query: 'x' });
    await settle();
    h.control('control.file.search.cancel', { query_id: 'q-2' });
    assert.equal(seen?.aborted, true);
    finish({ query_id: 'q-2', candidates: [], truncated: false });
    await settle();
    assert.equal(h.ofType('session.file.candidates', from).length, 0);
  });

  it('§10.2 adapter metadata that would make the frame invalid is dropped; the content still goes out', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'emit', event: { type: 'agent.text.delta', payload: { content_index: 0, text: 'hi' }, metadata: { subagent_context: { parent_invocation_id: 'p', depth: -3 } } } }] }],
    });
    const from = await h.runTurn();
    const delta = h.ofType('agent.text.delta', from);
    assert.equal(delta.length, 1);
    assert.equal(delta[0].metadata, undefined);
  });

  it('§4.3.1 two asks with the same interaction_id get distinct ids, so answers cannot cross', async () => {
    const gate = new Promise<void>(() => {});
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'waitFor', promise: gate }] }] });
    h.prompt();
    await settle();
    const host = h.adapter.host!;
    const req = { interaction_id: 'dup', interaction_type: 'YN' as const, question_text: '?', timeout_sec: 0 };
    const first = host.requestInteraction(req);
    const second = host.requestInteraction(req);
    const ids = h.ofType('agent.interaction.request').map((f) => f.payload.interaction_id);
    assert.equal(ids.length, 2);
    assert.notEqual(ids[0], ids[1]);
    h.control('control.interaction.response', { interaction_id: ids[1], selected_value: 'no' });
    h.control('control.interaction.response', { interaction_id: ids[0], selected_value: 'yes' });
    assert.deepEqual([await first, await second], [{ kind: 'response', selected_value: 'yes' }, { kind: 'response', selected_value: 'no' }]);
  });

  it('§13.1 nothing an adapter emits while starting precedes session.capabilities', async () => {
    const adapter = new ScriptedAdapter();
    const start = adapter.start.bind(adapter);
    adapter.start = async (host) => {
      host.emit({ type: 'agent.state.changed', payload: { previous_state: 'idle', current_state: 'thinking' } });
      host.emit({ type: 'agent.text.delta', payload: { content_index: 0, text: 'too early' } });
      return start(host);
    };
    const h = new EngineHarness(adapter);
    await h.session.start();
    assert.deepEqual(h.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
  });

  it('a prompt that cannot be prepared for the agent is refused before any turn starts', async () => {
    const h = await EngineHarness.start({}, { preparePrompt: () => { throw new Error('bad token'); } });
    const from = h.frames.length;
    h.prompt('<@file:x|y>');
    assert.deepEqual(h.types(from), ['session.error']);
    assert.equal(h.ofType('session.error', from)[0].payload.error_code, 'INVALID_PROMPT');
    assert.equal(h.session.turnActive, false);
  });
});
