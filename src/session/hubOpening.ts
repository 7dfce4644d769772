// The frames one connection gets when its handshake ends (hub.ts `finishHandshake`): §13.7 a
// reattach gets `session.history` of what it missed, then the catalog and commands; §13.1 a fresh
// attach gets the catalog, commands, (issue 11) the transcript so far, and the agent state last:
// §13.1's "ready" signal comes after the transcript, so a master that waits for it has the
// history when it says it is attached, and one cut off before it knows it has not (decision 564).
import type { WireFrame } from './connection';
import type { SinceResult } from './history';
import { mayDeliver, type ConnRecord, type HubSession } from './hubRecords';

/** A frame for this connection only; `at` is the history position its id points at (see alias). */
export interface OpeningFrame {
  frame: WireFrame;
  at?: number;
}

export function openingFrames(rec: ConnRecord, s: HubSession, now: Date): OpeningFrame[] {
  const out: OpeningFrame[] = [];
  if (rec.last_message_id !== undefined) {
    // §13.7: history of what the peer missed; it already contains everything queued meanwhile.
    out.push({ frame: historyFrame(s, rec, s.history.since(rec.last_message_id), now) });
  }
  // A fresh attach gets the frames queued meanwhile only after these, so their ids must point at
  // the attach position: a peer cut off right after them resumes with the queued frames too.
  const at = rec.last_message_id === undefined ? rec.attachedAt : undefined;
  const stamped = (frame: WireFrame): OpeningFrame => (at === undefined ? { frame } : { frame, at });
  out.push(stamped(s.factory.make('tool.catalog.publish', s.source.catalog())));
  out.push(stamped(s.factory.make('agent.commands.publish', s.source.commands())));
  if (rec.last_message_id === undefined) {
    // The transcript so far (what was published before this attach; frames queued during the
    // handshake follow live), unless nothing was ever published; after the catalog (§13.1-3: the
    // prompts and tool calls in it come after one), before the state that ends the opening.
    if (rec.freshHistory && rec.attachedAt >= 0) out.push(stamped(historyFrame(s, rec, s.history.upTo(rec.attachedAt), now)));
    const state = s.source.agentState();
    out.push(stamped(s.factory.make('agent.state.changed', { previous_state: state, current_state: state, reason: 'attached' })));
  }
  return out;
}

/** `session.history` for one connection: the frames its features allow (§12.2.1). */
function historyFrame(s: HubSession, rec: ConnRecord, h: SinceResult<WireFrame>, now: Date): WireFrame {
  return s.factory.make('session.history', {
    frames: h.frames.filter((f) => mayDeliver(f.type, rec.features)),
    buffer_status: h.buffer_status,
    last_sync_timestamp: now.toISOString(),
    last_message_id: h.last_message_id,
  });
}
