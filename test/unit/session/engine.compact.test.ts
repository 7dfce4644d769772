import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { settle, until } from '../../support/settle';

const COMPACT = { features: { context_compaction: true }, supportsCompact: true };

describe('session/engine: compaction (§6.3.1, §7.2.1)', () => {
  it('§6.3.1-2 COMPACTION_NOT_SUPPORTED (non-fatal) without context_compaction', async () => {
    const h = await EngineHarness.start({ features: {}, supportsCompact: true });
    const from = h.frames.length;
    const req = h.control('control.session.compact', {});
    await settle();
    const err = h.ofType('session.error', from)[0];
    assert.equal(err.payload.error_code, 'COMPACTION_NOT_SUPPORTED');
    assert.equal(err.payload.fatal, false);
    assert.equal(err.parent_id, req.message_id);
    assert.equal(h.adapter.compactions.length, 0);
  });

  it('§13.6 a master\'s compact request gives session.compacted (trigger "requested") then session.usage', async () => {
    const h = await EngineHarness.start(COMPACT);
    const from = h.frames.length;
    h.control('control.session.compact', { instruction: 'keep the API', target_token_ratio: 0.5 }, 'remote');
    await until(() => h.ofType('session.usage', from).length === 1, 'usage after compaction');
    assert.deepEqual(h.types(from), ['session.compacted', 'session.usage']);
    const c = h.ofType('session.compacted', from)[0].payload;
    assert.equal(c.trigger, 'requested');
    assert.equal(c.current_token_count, 1000);
    assert.deepEqual(h.adapter.compactions, [{ instruction: 'keep the API', ratio: 0.5 }]);
    assert.equal(h.ofType('session.usage', from)[0].payload.context_window?.used, 1000);
  });

  it('§7.2.1 a compact request from the local UI (the user\'s /compact) has trigger "manual"', async () => {
    const h = await EngineHarness.start(COMPACT);
    const from = h.frames.length;
    h.control('control.session.compact', {}, 'local');
    await until(() => h.ofType('session.compacted', from).length === 1, 'compaction');
    assert.equal(h.ofType('session.compacted', from)[0].payload.trigger, 'manual');
  });

  it('§6.3.1-1 utilization ≥ 0.95 after a turn: the engine compacts by itself with trigger "auto"', async () => {
    const h = await EngineHarness.start({
      ...COMPACT,
      turns: [{ steps: [{ kind: 'text', chunks: ['big'] }], outcome: { usage: { input_tokens: 1, output_tokens: 1, context_capacity: 1000, context_used: 960 } } }],
    });
    const from = await h.runTurn();
    await until(() => h.ofType('session.compacted', from).length === 1, 'auto compaction');
    assert.equal(h.ofType('session.compacted', from)[0].payload.trigger, 'auto');
    assert.equal(h.ofType('session.usage', from)[0].payload.context_window?.utilization, 0.96);
  });

  it('§6.3.1-3 between 0.80 and 0.95 the engine only compacts when the host\'s policy says so', async () => {
    const usage = { input_tokens: 1, output_tokens: 1, context_capacity: 1000, context_used: 850 };
    const quiet = await EngineHarness.start({ ...COMPACT, turns: [{ steps: [], outcome: { usage } }] });
    await quiet.runTurn();
    await settle();
    assert.equal(quiet.adapter.compactions.length, 0);
    const seen: number[] = [];
    const eager = await EngineHarness.start({ ...COMPACT, turns: [{ steps: [], outcome: { usage } }] }, { autoCompactConsider: (u) => (seen.push(u), true) });
    const from = await eager.runTurn();
    await until(() => eager.ofType('session.compacted', from).length === 1, 'considered compaction');
    assert.deepEqual(seen, [0.85]);
  });

  it('§6.3.1 below 0.80 there is no automatic compaction, and none at all without context_compaction', async () => {
    const usage = { input_tokens: 1, output_tokens: 1, context_capacity: 1000, context_used: 990 };
    const low = await EngineHarness.start({ ...COMPACT, turns: [{ steps: [], outcome: { usage: { ...usage, context_used: 100 } } }] }, { autoCompactConsider: () => true });
    await low.runTurn();
    const unsupported = await EngineHarness.start({ features: {}, supportsCompact: true, turns: [{ steps: [], outcome: { usage } }] });
    await unsupported.runTurn();
    await settle();
    assert.equal(low.adapter.compactions.length, 0);
    assert.equal(unsupported.adapter.compactions.length, 0);
  });

  it('§6.3.1 a compact request during a turn is refused with a non-fatal error', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = await EngineHarness.start({ ...COMPACT, turns: [{ steps: [{ kind: 'waitFor', promise: gate }] }] });
    h.prompt();
    await settle();
    const from = h.frames.length;
    h.control('control.session.compact', {});
    await settle();
    assert.deepEqual(h.errors(from), ['COMPACTION_DURING_TURN']);
    release();
    await h.turnEnded();
  });
});
