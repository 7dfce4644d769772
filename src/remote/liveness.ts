// Whether a remote master is alive, at each heartbeat (every 30 s): it answered the last ping, or
// its attach history is being read (decision 571). While a history of megabytes drains on a slow
// link, the ping waits behind it: each fragment of the history written out shows the peer reads.
// The last fragments may still sit in the kernel's buffers when the pump is done, and a ping sent
// then waits behind them: after the history moved, an unanswered ping is tolerated once more.
// A peer that stops reading is dropped as before: at most one heartbeat later than one that never
// got a history.
export class Liveness {
  private answered = true;
  private grace = 0;

  /** The peer answered a ping. */
  pong(): void {
    this.answered = true;
  }

  /** A fragment of the peer's history was written out. */
  progress(): void {
    this.answered = true;
    this.grace = 1;
  }

  /** At a heartbeat: whether the peer is alive (then a ping goes out), or is to be dropped. */
  beat(): boolean {
    if (this.answered) {
      this.answered = false;
      return true;
    }
    if (this.grace === 0) return false;
    this.grace--;
    return true;
  }
}
