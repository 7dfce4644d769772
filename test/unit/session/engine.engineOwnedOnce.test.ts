// Decision 725: a frame only the engine sends, emitted by an adapter, is dropped with a warning in
// the log — one a frame, so an agent repeating it filled the log (`rawp serve` writes warnings to
// stderr even without --verbose). Now each type is said once a session.
import { strict as assert } from 'node:assert';
import type { AgentEvent } from '../../../src/session/agentAdapter';
import { EngineHarness } from '../../support/engineHarness';

describe('session: an adapter\'s engine-owned frames are logged once a type (decision 725)', () => {
  it('1,000 session.turn.start and 1,000 session.deleted from the adapter: all dropped, one warning each type; a new session says it again', async () => {
    const turnStart: AgentEvent = { type: 'session.turn.start', payload: { turn_id: 'x', turn_index: 9, agent_mode: 'default' } as never };
    const deleted: AgentEvent = { type: 'session.deleted', payload: { session_id: 'x', reason: 'user_request', deleted_by: 'edge' } };
    const steps = [...Array.from({ length: 1000 }, () => ({ kind: 'emit' as const, event: turnStart })), ...Array.from({ length: 1000 }, () => ({ kind: 'emit' as const, event: deleted }))];
    for (let round = 0; round < 2; round++) {
      const h = await EngineHarness.start({ turns: [{ steps }] });
      await h.runTurn();
      assert.deepEqual(h.ofType('session.deleted'), [], 'none went out');
      assert.equal(h.ofType('session.turn.start').length, 1, 'only the engine\'s own');
      const said = h.logs.filter((l) => /only the engine sends/.test(l.message));
      assert.deepEqual(
        said.map((l) => [l.level, l.message.split(',')[0]]),
        [
          ['warn', 'adapter emitted session.turn.start'],
          ['warn', 'adapter emitted session.deleted'],
        ],
      );
      await h.session.end();
    }
  });
});
