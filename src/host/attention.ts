// What needs the user while they look elsewhere (issue 15, decision 382): a turn waiting for an
// approval, or a turn that finished, in a session the user is not looking at (the chat hidden, the
// window unfocused, or another session in front). The count is the activity-bar badge; each new
// item is one notification. Seeing the session clears its items; an approval answered anywhere
// (this view, a remote master, its timeout) or a turn's end retires it. Pure: no vscode.
import type { WireFrame } from '../session/connection';

export type AttentionItem =
  | { kind: 'approval'; session_id: string; interaction_id: string; question: string }
  | { kind: 'finished'; session_id: string; turn_id: string; stop_reason: string };

export class AttentionTracker {
  private readonly approvals = new Map<string, Map<string, AttentionItem>>();
  private readonly finished = new Map<string, AttentionItem>();

  /**
   * One frame of a session. `seen`: the user is looking at this session right now.
   * Returns the item to notify about, if this frame made one.
   */
  onFrame(session_id: string, frame: WireFrame, seen: boolean): AttentionItem | undefined {
    switch (frame.type) {
      case 'agent.interaction.request': {
        if (seen) return undefined;
        const p = frame.payload;
        const item: AttentionItem = { kind: 'approval', session_id, interaction_id: p.interaction_id, question: p.question_text };
        this.approvalsOf(session_id).set(p.interaction_id, item);
        return item;
      }
      case 'control.interaction.response':
      case 'control.interaction.timeout':
        this.approvals.get(session_id)?.delete(frame.payload.interaction_id);
        return undefined;
      case 'session.turn.start':
        this.finished.delete(session_id);
        return undefined;
      case 'session.turn.end': {
        this.approvals.delete(session_id); // §7.5.2: its questions retire with the turn
        // A turn the user cancelled is not news.
        if (seen || frame.payload.stop_reason === 'cancelled') return undefined;
        const item: AttentionItem = { kind: 'finished', session_id, turn_id: frame.payload.turn_id, stop_reason: frame.payload.stop_reason };
        this.finished.set(session_id, item);
        return item;
      }
      default:
        return undefined;
    }
  }

  /** The user looked at the session: its items are seen. Returns whether the count changed. */
  markSeen(session_id: string): boolean {
    const had = this.count;
    this.approvals.delete(session_id);
    this.finished.delete(session_id);
    return this.count !== had;
  }

  /** The session ended or was deleted. */
  forget(session_id: string): void {
    this.markSeen(session_id);
  }

  /** Unseen approvals plus unseen finished turns (the badge). */
  get count(): number {
    let n = this.finished.size;
    for (const m of this.approvals.values()) n += m.size;
    return n;
  }

  get approvalCount(): number {
    let n = 0;
    for (const m of this.approvals.values()) n += m.size;
    return n;
  }

  private approvalsOf(session_id: string): Map<string, AttentionItem> {
    let m = this.approvals.get(session_id);
    if (!m) this.approvals.set(session_id, (m = new Map()));
    return m;
  }
}
