import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { expectBroken } from '../../support/streamCheck';
import { settle, until } from '../../support/settle';

const PLAN = { features: { plan_mode: true } };

describe('session/engine: modes (§6.3.2)', () => {
  it('§6.3.2-6 MODE_NOT_SUPPORTED (non-fatal) when the agent did not announce plan_mode', async () => {
    expectBroken(); // the peer (or the agent) breaks the opening on purpose
    const h = await EngineHarness.start({ features: {} });
    const from = h.frames.length;
    const req = h.control('control.mode.switch', { mode: 'plan' });
    await settle();
    const err = h.ofType('session.error', from)[0];
    assert.equal(err.payload.error_code, 'MODE_NOT_SUPPORTED');
    assert.equal(err.payload.fatal, false);
    assert.equal(err.parent_id, req.message_id);
    assert.equal(h.session.mode, 'default');
  });

  it('§6.3.2-2 §6.3.2-3 MODE_SWITCH_DURING_TURN while a turn runs; the mode stays', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = await EngineHarness.start({ ...PLAN, turns: [{ steps: [{ kind: 'waitFor', promise: gate }] }] });
    h.prompt();
    await settle();
    const from = h.frames.length;
    h.control('control.mode.switch', { mode: 'plan' });
    await settle();
    assert.deepEqual(h.errors(from), ['MODE_SWITCH_DURING_TURN']);
    release();
    await h.turnEnded();
    assert.equal(h.session.mode, 'default');
    assert.deepEqual(h.adapter.modes, []);
  });

  it('§6.3.2-4 a successful switch sends agent.state.changed with reason mode_switch and tells the adapter', async () => {
    const h = await EngineHarness.start(PLAN);
    const from = h.frames.length;
    h.control('control.mode.switch', { mode: 'plan' });
    await until(() => h.session.mode === 'plan', 'the switch');
    const changed = h.ofType('agent.state.changed', from);
    assert.equal(changed.length, 1);
    assert.equal(changed[0].payload.reason, 'mode_switch');
    assert.deepEqual(h.adapter.modes, ['plan']);
  });

  it('§6.3.2-4 §6.3.2-5 an agent that leaves plan mode by itself (reportMode) is followed: mode_switch announced, the next turn.start carries the mode', async () => {
    const h = await EngineHarness.start({ ...PLAN, turns: [{ steps: [{ kind: 'reportMode', mode: 'default' }, { kind: 'text', chunks: ['plan approved'] }] }] });
    h.control('control.mode.switch', { mode: 'plan' });
    await until(() => h.session.mode === 'plan', 'the switch');
    const first = await h.runTurn('plan it');
    assert.equal(h.ofType('session.turn.start', first)[0].payload.mode, 'plan');
    const changed = h.ofType('agent.state.changed', first).filter((f) => f.payload.reason === 'mode_switch');
    assert.equal(changed.length, 1);
    assert.equal(h.session.mode, 'default');
    assert.deepEqual(h.adapter.modes, ['plan'], 'the adapter is not told of a switch it made itself');
    const second = await h.runTurn('go on');
    assert.equal(h.ofType('session.turn.start', second)[0].payload.mode, 'default');
  });

  it('§6.3.2-5 the first session.turn.start after a switch carries the new mode; the next one need not', async () => {
    const h = await EngineHarness.start(PLAN);
    const before = await h.runTurn('in default');
    assert.equal(h.ofType('session.turn.start', before)[0].payload.mode, undefined);
    h.control('control.mode.switch', { mode: 'plan' });
    await until(() => h.session.mode === 'plan', 'the switch');
    const first = await h.runTurn('first in plan');
    assert.equal(h.ofType('session.turn.start', first)[0].payload.mode, 'plan');
    assert.equal(h.adapter.prompts.at(-1)?.mode, 'plan');
    const second = await h.runTurn('second in plan');
    assert.equal(h.ofType('session.turn.start', second)[0].payload.mode, undefined);
  });

  for (const mode of ['plan', 'review'] as const) {
    it(`§6.3.2-1 in ${mode} mode a shell or write tool call gets tool.invoke.result status error "Tool not allowed in current mode"; reads pass`, async () => {
      const h = await EngineHarness.start({
        ...PLAN,
        turns: [
          {
            steps: [
              { kind: 'tool', name: 'Bash', input: { command: 'rm -rf /' } },
              { kind: 'tool', name: 'Write', input: { file_path: 'a' } },
              { kind: 'tool', name: 'Read', input: { file_path: 'a' }, output: 'content' },
              { kind: 'tool', name: 'Grep', input: { pattern: 'x' }, output: 'hit' },
            ],
          },
        ],
      });
      h.control('control.mode.switch', { mode });
      await until(() => h.session.mode === mode, 'the switch');
      const from = await h.runTurn();
      const results = h.ofType('tool.invoke.result', from).map((f) => [f.payload.tool_name, f.payload.status, f.payload.output]);
      assert.deepEqual(results, [
        ['Bash', 'error', 'Tool not allowed in current mode'],
        ['Write', 'error', 'Tool not allowed in current mode'],
        ['Read', 'success', 'content'],
        ['Grep', 'success', 'hit'],
      ]);
      // The adapter was told the same through checkTool (AgentHost.checkTool).
      assert.deepEqual(h.adapter.checks.map((c) => c.verdict.allowed), [false, false, true, true]);
    });
  }

  // Not §6.3.2-1: the engine cannot stop a call it only hears of after the agent ran it. What it does
  // is checked here — the wire says "refused" and the run's output never reaches a master; the
  // clause itself is kept at the source (Claude Code: PreToolUse hook, decision 623, tested in
  // claudeCode.toolPolicy.e2e.test.ts; Codex: no shell in plan mode, codex.cli.test.ts).
  it('§6.3.2 a blocked call the adapter runs without asking checkTool is not unrun: the engine answers it with the mode\'s refusal and drops the output the adapter reports (stream and result) from the wire', async () => {
    const h = await EngineHarness.start({ ...PLAN, turns: [{ steps: [{ kind: 'tool', name: 'Bash', id: 'b1', input: {}, skipCheck: true, stream: ['partial output'], output: 'ran anyway' }] }] });
    h.control('control.mode.switch', { mode: 'plan' });
    await until(() => h.session.mode === 'plan', 'the switch');
    const from = await h.runTurn();
    assert.deepEqual(h.adapter.checks, [], 'the adapter never asked');
    const results = h.ofType('tool.invoke.result', from);
    assert.equal(results.length, 1, 'the adapter\'s own result for the refused call is dropped');
    assert.equal(results[0].payload.status, 'error');
    assert.equal(results[0].payload.output, 'Tool not allowed in current mode');
    assert.equal(h.ofType('tool.invoke.stream', from).length, 0, 'its streamed output is dropped too');
    const wire = JSON.stringify(h.frames.slice(from));
    assert.ok(!wire.includes('ran anyway') && !wire.includes('partial output'), 'no output of the run reaches a master');
  });

  it('§6.3.2-5 plan → default with no turn between: everything allowed again, and the next turn.start carries mode default', async () => {
    const h = await EngineHarness.start({ ...PLAN, turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {} }] }] });
    h.control('control.mode.switch', { mode: 'plan' });
    await until(() => h.session.mode === 'plan', 'plan');
    h.control('control.mode.switch', { mode: 'default' });
    await until(() => h.session.mode === 'default', 'default');
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.status, 'success');
    assert.equal(h.ofType('session.turn.start', from)[0].payload.mode, 'default', 'the first turn after a switch carries the mode');
    const next = await h.runTurn();
    assert.equal(h.ofType('session.turn.start', next)[0].payload.mode, undefined, 'only the first turn after the switch');
  });

  it('§6.3.2 an adapter that refuses the mode leaves the mode unchanged and reports MODE_SWITCH_FAILED', async () => {
    const h = await EngineHarness.start({ ...PLAN, setModeError: 'not now' });
    const from = h.frames.length;
    h.control('control.mode.switch', { mode: 'review' });
    await until(() => h.errors(from).length > 0, 'the error');
    assert.deepEqual(h.errors(from), ['MODE_SWITCH_FAILED']);
    assert.equal(h.session.mode, 'default');
  });
});
