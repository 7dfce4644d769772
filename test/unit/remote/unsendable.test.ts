// A frame the session publishes that JSON cannot write (an agent's tool input nested 20,000 levels
// deep) must not drop every master (issue 12 #1, decision 160): each connection skips it and logs,
// the next frame arrives, nobody is disconnected.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { WireFrame } from '../../../src/session/connection';
import { rig, TestMaster, waitFor, type Rig } from './harness';

describe('remote/unsendable frames: skipped per connection, never a disconnect', () => {
  let r: Rig;
  afterEach(async () => {
    await r.close();
  });

  it('§14.2 a frame nested beyond JSON.stringify is skipped; both masters stay and get the next frame', async () => {
    r = await rig();
    const a = await new TestMaster(r).open();
    const b = await new TestMaster(r).open();
    const deep = buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, { session_id: r.session.session_id }) as WireFrame & { payload: Record<string, unknown> };
    let v: unknown = [];
    for (let i = 0; i < 20_000; i++) v = [v];
    deep.payload.extra = v;
    assert.doesNotThrow(() => r.hub.publish(r.session.session_id, deep));
    const next = buildFrame('agent.state.changed', { previous_state: 'thinking', current_state: 'idle', reason: 'after' }, { session_id: r.session.session_id }) as WireFrame;
    r.hub.publish(r.session.session_id, next);
    await waitFor(() => [a, b].every((m) => m.frames.some((f) => f.message_id === next.message_id)), 'the next frame reaches both');
    assert.ok([a, b].every((m) => !m.frames.some((f) => f.message_id === deep.message_id)));
    assert.deepEqual([a.closes.length, b.closes.length], [0, 0]);
    assert.deepEqual([a.invalid, b.invalid], [[], []]);
    for (const m of [a, b]) m.client.stop();
  });
});
