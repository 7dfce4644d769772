// The observation ledger (read-before-write.md): per session and per file, one of
// unobserved (no entry) / present@version / absent. Every successful read, write and edit updates it.
import type { FsObservation } from '../fsEvents';

export class ObservationLedger {
  private readonly sessions = new Map<string, Map<string, FsObservation>>();

  get(actor: string, targetKey: string): FsObservation | undefined {
    return this.sessions.get(actor)?.get(targetKey);
  }

  set(actor: string, targetKey: string, observation: FsObservation): void {
    let files = this.sessions.get(actor);
    if (!files) this.sessions.set(actor, (files = new Map()));
    files.set(targetKey, observation);
  }

  /**
   * Every session's entry for one file goes (it is unobserved again): a checkpoint restore rewrote
   * it, so an edit needs a fresh read even where the restored bytes match an old read (issue 17).
   */
  forgetTarget(targetKey: string): void {
    for (const files of this.sessions.values()) files.delete(targetKey);
  }

  /** Drop a session's entries (session ended). */
  forget(actor: string): void {
    this.sessions.delete(actor);
  }
}
