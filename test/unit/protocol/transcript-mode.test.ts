// Issue 15 Why 5: the mode the view shows follows the engine's confirmation of a switch
// (agent.state.changed with reason "mode_switch" and `mode`, §6.3.2) at once, not the next turn.
import { strict as assert } from 'node:assert';
import { applyFrames, createTranscript } from '../../../src/protocol/transcript';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('transcript reducer: the mode (issue 15 Why 5)', () => {
  it('§6.3.2 a confirmed switch sets the mode before any turn; other state changes and unknown modes do not', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'mode_switch', mode: 'review' })]);
    assert.equal(t.mode, 'review');
    applyFrames(t, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking', mode: 'plan' })]);
    assert.equal(t.mode, 'review', 'only a mode_switch says the mode changed');
    applyFrames(t, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'mode_switch', mode: 'yolo' })]);
    assert.equal(t.mode, 'review', 'a mode that is not one of §6.3.2 is ignored');
    assert.equal(t.agentState?.current, 'idle');
  });
});
