import { strict as assert } from 'node:assert';
import { monotonicClock } from '../../../src/session/monotonicClock';
import { EngineHarness } from '../../support/engineHarness';

describe('session: strictly increasing frame timestamps', () => {
  it('§2.3 a frozen wall clock still yields strictly increasing instants', () => {
    const frozen = new Date('2026-11-29T15:00:00.000Z');
    const clock = monotonicClock({ now: () => frozen });
    const stamps = Array.from({ length: 5 }, () => clock.now().getTime());
    assert.deepEqual(stamps.map((t) => t - frozen.getTime()), [0, 1, 2, 3, 4]);
  });

  it('§2.3 every frame of a session has a later timestamp than the one before, so history replay order is exact', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'text', chunks: Array.from({ length: 200 }, (_, i) => `t${i} `) }] }] });
    await h.runTurn('many deltas in one millisecond');
    const times = h.frames.map((f) => Date.parse(f.timestamp));
    for (let i = 1; i < times.length; i++) assert.ok(times[i] > times[i - 1], `frame ${i} (${h.frames[i].type}) is stamped after frame ${i - 1}`);
  });
});
