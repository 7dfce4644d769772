import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { settle, until } from '../../support/settle';

describe('session/engine: ending, renaming (§7.5.3, §7.6, §7.7, §4.4.1)', () => {
  it('§7.5.3-1 §7.7.1-1 ending mid-turn: cancelled results for open calls → turn.end "error" → (usage) → session.deleted, then onEnded', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'tool', name: 'Read', id: 'r1', input: {} }, { kind: 'tool', name: 'Bash', id: 'b1', input: {}, untilAborted: true }] }],
    });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('tool.invoke.request', from).length === 2, 'the long tool');
    await h.session.end('master_request', 'master');
    const types = h.types(from).filter((t) => t !== 'agent.state.changed');
    const secondRequest = types.lastIndexOf('tool.invoke.request');
    assert.deepEqual(types.slice(secondRequest), ['tool.invoke.request', 'tool.invoke.result', 'session.turn.end', 'session.usage', 'session.deleted']);
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => [f.payload.invocation_id, f.payload.status]), [['r1', 'success'], ['b1', 'cancelled']]);
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'error');
    const deleted = h.ofType('session.deleted', from)[0].payload;
    assert.deepEqual([deleted.session_id, deleted.reason, deleted.deleted_by], [h.session.session_id, 'master_request', 'master']);
    assert.deepEqual(h.ended, { reason: 'master_request', deleted_by: 'master' });
    assert.equal(h.adapter.disposed, 1, 'the agent was stopped');
    assert.equal(h.frames.at(-1)?.type, 'session.deleted', 'nothing after session.deleted');
  });

  it('§7.5.3 ending with no turn running: just session.deleted', async () => {
    const h = await EngineHarness.start();
    const from = h.frames.length;
    await h.session.end();
    assert.deepEqual(h.types(from), ['session.deleted']);
  });

  it('§7.5.3-1 a fatal session.error starts the same clean-up', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Bash', id: 'b1', input: {}, untilAborted: true }] }] });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('tool.invoke.request', from).length === 1, 'the tool');
    await h.session.fail('PROTOCOL_VIOLATION', 'the peer broke the protocol');
    const types = h.types(from).filter((t) => t !== 'agent.state.changed');
    assert.deepEqual(types.slice(types.indexOf('session.error')), ['session.error', 'tool.invoke.result', 'session.turn.end', 'session.usage', 'session.deleted']);
    assert.equal(h.ofType('session.error', from)[0].payload.fatal, true);
    assert.equal(h.ofType('session.deleted', from)[0].payload.reason, 'error');
  });

  it('§4.4.1-1 an agent.error with severity fatal ends the session: the agent is disposed, then the clean-up frames', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'text', chunks: ['half'], done: false }, { kind: 'error', payload: { error_code: 'CRASH', message: 'gone', severity: 'fatal', recoverable: false } }, { kind: 'tool', name: 'Bash', input: {}, untilAborted: true }] }],
    });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ended !== undefined, 'the session to end');
    const types = h.types(from).filter((t) => t !== 'agent.state.changed');
    assert.deepEqual(types.slice(types.indexOf('agent.error')), ['agent.error', 'agent.text.done', 'session.turn.end', 'session.usage', 'session.deleted']);
    assert.equal(h.ofType('agent.text.done', from)[0].payload.is_cancelled, true);
    assert.equal(h.ended?.reason, 'error');
    assert.equal(h.adapter.disposed, 1, 'the agent process is cleaned up');
  });

  it('§4.4.1 a warning agent.error keeps the session', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'error', payload: { error_code: 'SLOW', message: 'slow', severity: 'warning', recoverable: true } }] }] });
    const from = await h.runTurn();
    assert.equal(h.ofType('agent.error', from).length, 1);
    assert.equal(h.ended, undefined);
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'end_turn');
  });

  it('§7.5.3 after the session ended nothing more is sent, whatever the agent still emits', async () => {
    const h = await EngineHarness.start();
    await h.session.end();
    const n = h.frames.length;
    h.adapter.host?.emit({ type: 'agent.state.changed', payload: { previous_state: 'idle', current_state: 'thinking' } });
    h.prompt();
    await settle();
    assert.equal(h.frames.length, n);
  });

  it('§7.5.3 end() twice ends once', async () => {
    const h = await EngineHarness.start();
    await Promise.all([h.session.end(), h.session.end('timeout', 'system')]);
    assert.equal(h.ofType('session.deleted').length, 1);
    assert.equal(h.adapter.disposed, 1);
  });

  it('§7.6.1 rename broadcasts session.renamed with the previous name and who renamed it', async () => {
    const h = await EngineHarness.start({}, { name: 'old' });
    const from = h.frames.length;
    h.session.rename('new', 'client');
    h.session.rename('new', 'client'); // no change, no frame
    assert.deepEqual(h.ofType('session.renamed', from).map((f) => f.payload), [{ session_id: h.session.session_id, name: 'new', previous_name: 'old', renamed_by: 'client' }]);
  });

  it('§7.6.1 a peer\'s session.renamed renames the session and is re-announced to everyone', async () => {
    const h = await EngineHarness.start({}, { name: 'old' });
    const from = h.frames.length;
    h.control('session.renamed', { session_id: h.session.session_id, name: 'by master', renamed_by: 'master' });
    assert.equal(h.session.name, 'by master');
    assert.equal(h.ofType('session.renamed', from)[0].payload.renamed_by, 'master');
  });

  it('§7.7.1 a peer\'s session.deleted ends the session with its reason', async () => {
    const h = await EngineHarness.start();
    h.control('session.deleted', { session_id: h.session.session_id, reason: 'master_request', deleted_by: 'master' });
    await until(() => h.ended !== undefined, 'the end');
    assert.deepEqual(h.ended, { reason: 'master_request', deleted_by: 'master' });
  });

  it('§7.5.3 a dispose that hangs does not hold the clean-up frames back forever', async () => {
    const h = await EngineHarness.start({}, { disposeTimeoutMs: 2000 });
    h.adapter.dispose = () => new Promise<void>(() => {});
    const ending = h.session.end();
    await settle();
    assert.equal(h.ofType('session.deleted').length, 0);
    h.timers.advance(2000);
    await ending;
    assert.equal(h.ofType('session.deleted').length, 1);
  });
});
