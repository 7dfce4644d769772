// §7.8.2 app restart: what a dead host left open in a journal is closed with synthetic frames.
import { strict as assert } from 'node:assert';
import { buildFrame, newId } from '../../../src/protocol/build';
import { parseValue } from '../../../src/protocol/parse';
import { applyFrames, createTranscript, CONNECTION_LOST } from '../../../src/protocol/transcript';
import type { WireFrame } from '../../../src/session/connection';
import { clockAfter, closingFrames } from '../../../src/host/journal/closing';

const session_id = newId();

function interruptedTurn(): { frames: WireFrame[]; turn_id: string; invocation_id: string; interaction_id: string } {
  const turn_id = newId();
  const invocation_id = newId();
  const interaction_id = newId();
  const ctx = { session_id, turn_id };
  const frames: WireFrame[] = [
    buildFrame('session.turn.start', { turn_id, turn_index: 0 }, ctx),
    buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'tool_calling' }, ctx),
    buildFrame('agent.text.delta', { content_index: 0, text: 'let me run it' }, ctx),
    buildFrame('tool.invoke.request', { invocation_id, tool_name: 'Bash', input: { command: 'sleep 30' } }, ctx),
    buildFrame('agent.interaction.request', { interaction_id, interaction_type: 'PERMISSION', question_text: 'Run sleep 30?', timeout_sec: 300 }, ctx),
  ];
  return { frames, turn_id, invocation_id, interaction_id };
}

describe('host/journal closing: a restored session whose host died mid-turn', () => {
  it('§7.8.2-1 §7.8.1-3 §7.5.2-1 app restart: the open tool call, the unanswered question, the turn (followed by its usage) and the agent state are closed with frames marked metadata.synthetic, in §7.5.3 order', () => {
    const { frames, turn_id, invocation_id, interaction_id } = interruptedTurn();
    const last = frames[frames.length - 1].timestamp;
    const out = closingFrames(session_id, frames, clockAfter(last, { now: () => new Date(0) }));
    assert.deepEqual(
      out.map((f) => f.type),
      ['tool.invoke.result', 'control.interaction.timeout', 'session.turn.end', 'session.usage', 'agent.state.changed'],
    );
    for (const f of out) {
      assert.equal(f.metadata?.synthetic, true, f.type);
      assert.equal(f.session_id, session_id);
      assert.ok(f.timestamp > last, 'stamped after the newest journaled frame (§2.3), even with a clock behind it');
      assert.equal(parseValue(f).kind, 'accepted', `${f.type} is a valid frame`);
    }
    const [result, timeout, end, usage, state] = out;
    // Nothing the dead agent used is known: no tokens counted, the session's totals as they were.
    assert.ok(usage.type === 'session.usage' && usage.turn_id === turn_id && usage.payload.turn_id === turn_id);
    assert.deepEqual([usage.payload.token_usage, usage.payload.cost_usage.used, usage.payload.message_usage.used], [{ input_tokens: 0, output_tokens: 0 }, 0, 0]);
    assert.ok(result.type === 'tool.invoke.result' && result.payload.invocation_id === invocation_id && result.payload.status === 'cancelled' && result.payload.output === CONNECTION_LOST);
    assert.ok(timeout.type === 'control.interaction.timeout' && timeout.payload.interaction_id === interaction_id);
    assert.ok(end.type === 'session.turn.end' && end.payload.turn_id === turn_id && end.payload.stop_reason === 'error');
    assert.ok(state.type === 'agent.state.changed' && state.payload.current_state === 'idle' && state.payload.previous_state === 'tool_calling');

    // Every view replaying the journal sees a finished turn, with nothing left waiting.
    const t = createTranscript({ sessionId: session_id });
    applyFrames(t, [...frames, ...out]);
    assert.equal(t.turns[0].open, false);
    assert.equal(t.agentState?.current, 'idle');
  });

  it('§7.8.2 the question the dead host left is closed by the restart, not "not answered in time": the card says the host restarted, and the call records no permission wait (decision 656)', () => {
    const { frames, interaction_id, invocation_id } = interruptedTurn();
    const out = closingFrames(session_id, frames, clockAfter(frames[frames.length - 1].timestamp, { now: () => new Date(Date.now() + 600_000) }));
    const t = createTranscript({ sessionId: session_id });
    applyFrames(t, [...frames, ...out]);
    const card = t.idx.interactions.get(interaction_id)!;
    assert.deepEqual([card.status, card.retiredBy], ['discarded', 'host_restart']);
    assert.equal(t.idx.tools.get(invocation_id)!.permissionWaitMs, undefined, 'ten minutes of a dead host are not a wait for the person');
    // A real timeout (the live host's, no synthetic mark) still reads as one.
    const live = createTranscript({ sessionId: session_id });
    applyFrames(live, [...frames, buildFrame('control.interaction.timeout', { interaction_id }, { session_id, turn_id: frames[0].turn_id! })]);
    assert.equal(live.idx.interactions.get(interaction_id)!.status, 'timed_out');
  });

  it('a session that was idle when its host died needs no closing frames', () => {
    const { frames, turn_id, invocation_id, interaction_id } = interruptedTurn();
    const ctx = { session_id, turn_id };
    frames.push(
      buildFrame('control.interaction.response', { interaction_id, selected_value: 'allow_once' }, ctx),
      buildFrame('tool.invoke.result', { invocation_id, tool_name: 'Bash', status: 'success', output: '', output_type: 'text' }, ctx),
      buildFrame('session.turn.end', { turn_id, stop_reason: 'end_turn' }, ctx),
      buildFrame('agent.state.changed', { previous_state: 'tool_calling', current_state: 'idle' }, ctx),
    );
    assert.deepEqual(closingFrames(session_id, frames, clockAfter(undefined, { now: () => new Date() })), []);
  });
});
