// Where a master resumes after a dropped connection (§7.1: `?last_message_id=`), for every master
// we ship: `rawp attach` (src/cli/attach/masterClient.ts) and the browser master
// (webview-ui/src/transport/websocket.ts). The browser took every frame's id, opening frames
// included, so a connection cut while its `session.history` was still on the way resumed past the
// transcript it never got (decision 564).
//
// The rule: the last frame of the session this master has, but NOT the opening frames the server
// made for this connection alone after it attached (catalog, commands, state): frames published
// while the opening ran are delivered after them, so resuming from one of those could skip them. A
// history's `last_message_id` is a safe point, and so is every frame after the opening. The
// connection's first `session.capabilities` (sent at attach) is one only once the opening is
// through: a fresh attach's history comes before its `agent.state.changed` (decision 564), and a
// master cut off before it arrived attaches afresh, so it still gets that transcript.

/** The frames of a connection's opening (§13.1, §13.7). */
export const OPENING_TYPES: ReadonlySet<string> = new Set(['session.capabilities', 'session.history', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);

export class ResumePoint {
  private id?: string;
  private opening = false;
  private sawHistory = false;
  private openingCaps?: string;

  /** The id to resume from, or undefined for a fresh attach. */
  get value(): string | undefined {
    return this.id;
  }

  /** Whether the connection's opening is still under way. */
  get inOpening(): boolean {
    return this.opening;
  }

  /** A new connection starts (its opening follows); what the master has so far is kept. */
  connecting(): void {
    this.opening = true;
    this.sawHistory = false;
    this.openingCaps = undefined;
  }

  /** Another session: nothing to resume. */
  forget(): void {
    this.id = undefined;
    this.opening = false;
  }

  /**
   * One frame received, in order. `historyLast`: a `session.history`'s `last_message_id`. True when
   * this frame ended the connection's opening (a fresh attach ends with agent.state.changed after
   * its history, a reattach with agent.commands.publish after its history, §13.7).
   */
  track(type: string, message_id: string, historyLast?: string): boolean {
    if (!(this.opening && OPENING_TYPES.has(type))) {
      this.opening = false;
      this.id = message_id;
      return false;
    }
    if (type === 'session.capabilities') this.openingCaps ??= message_id;
    if (type === 'session.history') {
      // The transcript up to its last frame is ours now. An empty one (nothing kept) covers what
      // was published before this connection attached: its capabilities' position.
      this.id = historyLast || this.openingCaps || this.id;
      this.sawHistory = true;
    }
    if (type === 'agent.state.changed' || (type === 'agent.commands.publish' && this.sawHistory)) {
      this.id ??= this.openingCaps;
      this.opening = false;
      return true;
    }
    return false;
  }
}
