// What a session restored from its journal takes from its own frames to go on where it stopped:
// the agent's own conversation id and the next turn index. (Closing what was left running is
// journal/closing.ts, §7.8.2.)
import type { WireFrame } from '../session/connection';
import { continuedFromOf, type ContinuedFrom } from '../protocol/continuation';

/**
 * The agent's own session id (§18.3) from the newest `session.capabilities` of a stored session,
 * so an agent that can (Claude Code announces it) continues its conversation after a reload.
 */
export function agentSessionIdOf(frames: readonly WireFrame[]): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if (f.type !== 'session.capabilities') continue;
    const id = f.payload.extensions?.agent_session_id;
    if (typeof id === 'string' && id.length > 0) return id;
  }
  return undefined;
}

/**
 * Where a stored session continued from (decision 630): its restored agent announces it again, so
 * the link outlives the history budget that may drop the session's first capabilities.
 */
export function continuedFromIn(frames: readonly WireFrame[]): ContinuedFrom | undefined {
  return continuedFromOf(frames.flatMap((f) => (f.type === 'session.capabilities' ? [f.payload] : [])));
}

/**
 * The next turn_index of a stored transcript: one past the highest main-agent turn it holds (the
 * journal keeps a byte budget, so early turns may be gone: counting them would go backwards).
 */
export function nextTurnIndex(frames: readonly WireFrame[]): number {
  let next = 0;
  for (const f of frames) {
    if (f.type !== 'session.turn.start' || f.metadata?.subagent_context) continue;
    if (f.payload.turn_index + 1 > next) next = f.payload.turn_index + 1;
  }
  return next;
}

/** The newest timestamp among `frames` (restored sessions stamp after it, §2.3). */
export function lastTimestampOf(frames: readonly WireFrame[]): string | undefined {
  let last: string | undefined;
  for (const f of frames) if (last === undefined || f.timestamp > last) last = f.timestamp;
  return last;
}
