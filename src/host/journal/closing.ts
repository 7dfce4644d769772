// §7.8.2 "app restart": a session whose host died (kill -9, crash, window closed mid-turn) comes
// back with whatever was running at that moment still open in its journal. The agent process that
// ran it is gone, so nothing will ever close it: the host closes it, with real frames marked
// `metadata.synthetic: true` (§7.8.1), in the §7.5.3 order — every open tool call a cancelled
// `tool.invoke.result` ("Connection lost"), every unanswered interaction withdrawn, the turn
// ended and its usage (§7.5.2-1: none counted, the session's totals as they were), the agent
// idle. They are appended to the history (and so journaled) like any frame, so every view and every reattaching master gets the same, final story (docs/decisions/124).
import { buildFrame, type Clock } from '../../protocol/build';
import type { FrameOf, PayloadOf } from '../../protocol/frameTypes';
import { applyFrame, createTranscript, finalize } from '../../protocol/transcript';
import type { WireFrame } from '../../session/connection';

const SYNTHETIC = { synthetic: true } as const;

export function closingFrames(session_id: string, frames: readonly WireFrame[], clock: Clock): WireFrame[] {
  const openTurns = new Set<string>();
  const pending = new Map<string, string | undefined>(); // interaction_id -> turn_id
  let state = 'idle';
  let lastUsage: PayloadOf<'session.usage'> | undefined;
  const t = createTranscript({ sessionId: session_id });
  for (const f of frames) {
    applyFrame(t, f);
    if (f.type === 'session.usage') lastUsage = f.payload;
    const main = !f.metadata?.subagent_context;
    if (f.type === 'session.turn.start' && main) openTurns.add(f.payload.turn_id);
    else if (f.type === 'session.turn.end' && main) openTurns.delete(f.payload.turn_id);
    else if (f.type === 'agent.interaction.request') pending.set(f.payload.interaction_id, f.turn_id);
    else if (f.type === 'control.interaction.response' || f.type === 'control.interaction.timeout') pending.delete(f.payload.interaction_id);
    else if (f.type === 'agent.state.changed' && main) state = f.payload.current_state;
  }
  // The reducer knows every open tool call, subagent scopes included, and builds their results.
  const out: WireFrame[] = finalize(t, { reason: 'app_restart', clock });
  for (const [interaction_id, turn_id] of pending) {
    out.push(make('control.interaction.timeout', { interaction_id }, turn_id));
  }
  for (const turn_id of openTurns) {
    // §7.5.2 has no "disconnected" stop_reason (that is a view-model verdict, §7.8.1); a turn cut
    // short by its host dying ended in error, as §7.5.3 ends a turn its session loses.
    out.push(make('session.turn.end', { turn_id, stop_reason: 'error' }, turn_id));
    // §7.5.2-1: a turn's end is followed by its usage. What the dead agent used is not known, so
    // none is counted; the session's running totals stay what they were.
    out.push(
      make('session.usage', {
        token_usage: { input_tokens: 0, output_tokens: 0 },
        cost_usage: lastUsage?.cost_usage ?? { limit: -1, used: 0, unit: 'USD' },
        message_usage: lastUsage?.message_usage ?? { limit: -1, used: 0, unit: 'COUNT' },
        time_to_reset: 'PT0S',
        ...(lastUsage?.context_window ? { context_window: lastUsage.context_window } : {}),
        turn_id,
      }, turn_id),
    );
  }
  if (state !== 'idle') {
    out.push(make('agent.state.changed', { previous_state: state, current_state: 'idle', reason: 'host_restart' }));
  }
  return out;

  function make<T extends 'control.interaction.timeout' | 'session.turn.end' | 'session.usage' | 'agent.state.changed'>(type: T, payload: FrameOf<T>['payload'], turn_id?: string): FrameOf<T> {
    return buildFrame(type, payload, { session_id, ...(turn_id ? { turn_id } : {}), metadata: { ...SYNTHETIC } }, clock);
  }
}

/** A clock that never stamps at or before `after` (the newest journaled frame, §2.3 order). */
export function clockAfter(after: string | undefined, base: Clock): Clock {
  let last = after === undefined ? 0 : Date.parse(after) || 0;
  return {
    now() {
      const t = Math.max(base.now().getTime(), last + 1);
      last = t;
      return new Date(t);
    },
  };
}
