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

  /** Drop a session's entries (session ended). */
  forget(actor: string): void {
    this.sessions.delete(actor);
  }
}
