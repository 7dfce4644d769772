import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { settle, until } from '../../support/settle';

describe('session/engine: cancellation (§6.1.2)', () => {
  it('§6.1.2-1 cancel aborts the adapter, the running tool ends "cancelled", the open text block gets is_cancelled, the turn ends cancelled', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'text', chunks: ['Working on it'], done: false }, { kind: 'tool', name: 'Bash', input: { command: 'sleep 100' }, untilAborted: true }] }],
    });
    const from = h.frames.length;
    h.prompt('run it');
    await until(() => h.ofType('tool.invoke.request', from).length === 1, 'the tool to start');
    const turnId = h.session.currentTurnId as string;
    h.control('control.prompt.cancel', { target_turn_id: turnId, reason: 'user_cancelled' });
    await h.turnEnded();
    assert.equal(h.adapter.signals[0].aborted, true, "the adapter's signal was aborted");
    const result = h.ofType('tool.invoke.result', from);
    assert.equal(result.length, 1);
    assert.equal(result[0].payload.status, 'cancelled');
    const done = h.ofType('agent.text.done', from);
    assert.equal(done.length, 1);
    assert.equal(done[0].payload.is_cancelled, true);
    const types = h.types(from);
    assert.ok(types.indexOf('tool.invoke.result') < types.indexOf('session.turn.end'));
    assert.ok(types.indexOf('agent.text.done') < types.indexOf('session.turn.end'));
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'cancelled');
    assert.equal(types[types.indexOf('session.turn.end') + 1], 'session.usage');
    assert.equal(h.session.agentState(), 'idle');
  });

  it('§6.1.2-1 a stuck agent is cut off after the grace period: its open tool gets a cancelled result, its text is_cancelled, the turn ends', async () => {
    const h = await EngineHarness.start(
      // ignoreAbort: the tool waits on a signal that never fires, so the agent never stops by itself.
      { turns: [{ ignoreAbort: true, steps: [{ kind: 'text', chunks: ['still typing'], done: false }, { kind: 'tool', name: 'Bash', id: 'inv-hang', input: {}, untilAborted: true }] }] },
      { cancelGraceMs: 1000 },
    );
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('tool.invoke.request', from).length === 1, 'the tool to start');
    h.control('control.prompt.cancel', { target_turn_id: h.session.currentTurnId as string });
    await settle();
    assert.equal(h.ofType('session.turn.end', from).length, 0, 'the turn waits for the agent during the grace period');
    h.timers.advance(1000);
    await h.turnEnded();
    const result = h.ofType('tool.invoke.result', from);
    assert.deepEqual(result.map((f) => [f.payload.invocation_id, f.payload.status]), [['inv-hang', 'cancelled']]);
    assert.equal(h.ofType('agent.text.done', from)[0].payload.is_cancelled, true);
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'cancelled');
  });

  it('§6.1.2 frames the agent sends after the cancel are not streamed; a late tool result is marked cancelled', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {}, untilAborted: true }] }] });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('tool.invoke.request', from).length === 1, 'the tool to start');
    h.control('control.prompt.cancel', { target_turn_id: h.session.currentTurnId as string });
    await h.turnEnded();
    // The scripted tool reports status "error" ("killed") after the abort; the wire says cancelled.
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => [f.payload.status, f.payload.output]), [['cancelled', 'killed']]);
  });

  it('§6.1.2 a pending interaction is discarded by the cancel (the adapter is told "cancelled")', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Edit', input: { file_path: 'a.ts' }, ask: {} }] }] });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('agent.interaction.request', from).length === 1, 'the permission ask');
    h.control('control.prompt.cancel', { target_turn_id: h.session.currentTurnId as string });
    await h.turnEnded();
    assert.deepEqual(h.adapter.answers.map((a) => a.answer.kind), ['cancelled']);
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.status, 'cancelled');
  });

  it('§6.1.2 cancelling an unknown turn is a non-fatal TURN_NOT_FOUND; a late cancel of the turn that just ended is ignored', async () => {
    const h = await EngineHarness.start();
    const from = await h.runTurn();
    const ended = h.ofType('session.turn.end', from)[0].payload.turn_id;
    h.control('control.prompt.cancel', { target_turn_id: ended });
    assert.deepEqual(h.errors(from), []);
    h.control('control.prompt.cancel', { target_turn_id: '3f1f0ac4-8f9e-4a54-9a51-2a8f1e3c9b10' });
    assert.deepEqual(h.errors(from), ['TURN_NOT_FOUND']);
  });
});
