// Where a SessionHost (sessionHost.ts) keeps things on disk, each opened on first use: the state
// folder's journal (journal/, decisions 120-123) and the §4.5.1 file store (files/). Neither is
// required: without a folder, or when one cannot be opened, sessions still run — in memory, or
// without file exchange — and the reason is logged once.
import { join } from 'node:path';
import type { RestoredSession } from './journal/journal';
import { Journal } from './journal/journal';
import { FileStore } from './files/fileStore';
import { prepareHistory, type SessionHistory } from './sessionHistory';
import type { SessionHostOptions } from './sessionHostOptions';

export class HostStorage {
  /** undefined: not opened yet; null: none (no folder, or it could not be opened). */
  private journalState?: Journal | null;
  private store?: FileStore | null;
  /** Set when the host shuts down: nothing is opened any more. */
  closed = false;

  constructor(private readonly options: SessionHostOptions) {}

  /** The journal if it is open (never opens it). */
  get journal(): Journal | undefined {
    return this.journalState ?? undefined;
  }

  /** The file store if it is open (never opens it). */
  get openStore(): FileStore | undefined {
    return this.store ?? undefined;
  }

  /**
   * The state folder's journal, opened (and locked) on first use. Throws when it cannot be opened
   * (e.g. another host holds its lock); `rawp serve` reports that and stops.
   */
  openJournal(): Journal | undefined {
    if (this.journalState !== undefined) return this.journalState ?? undefined;
    const state = this.options.state;
    if (!state || this.closed) return undefined;
    this.journalState = null;
    this.journalState = Journal.open({ dir: state.dir, logger: state.logger ?? this.options.logger, ...(state.budgetBytes ? { budgetBytes: state.budgetBytes } : {}) });
    return this.journalState;
  }

  /** The journal, or undefined (with one error logged) when there is none or it cannot be opened. */
  journalOrNone(): Journal | undefined {
    try {
      return this.openJournal();
    } catch (e) {
      this.options.logger.error('sessions will not be kept across restarts: the state folder could not be opened', { error: String(e) });
      return undefined;
    }
  }

  /**
   * The §4.5.1 file store, opened on first use (undefined when the host has no folder for it, or
   * it could not be opened — logged once).
   */
  fileStore(): FileStore | undefined {
    if (this.store !== undefined) return this.store ?? undefined;
    const dir = this.options.files?.dir ?? (this.options.state ? join(this.options.state.dir, 'files') : undefined);
    this.store = null;
    if (!dir || this.closed) return undefined;
    try {
      this.store = FileStore.open({ dir, logger: this.options.logger, ...(this.options.files?.maxBytes !== undefined ? { maxBytes: this.options.files.maxBytes } : {}) });
    } catch (e) {
      this.options.logger.error('files cannot be exchanged: the file store could not be opened', { dir, error: String(e) });
    }
    return this.store ?? undefined;
  }

  /** The session's one history buffer, journaled when the host has a state folder. */
  history(meta: Parameters<typeof prepareHistory>[0]['meta'], restored: RestoredSession | undefined): SessionHistory {
    const base = { meta, ...(this.options.history ? { options: this.options.history() } : {}), ...(this.options.clock ? { clock: this.options.clock } : {}) };
    const journal = this.journalOrNone();
    try {
      return prepareHistory({ ...base, journal, restored });
    } catch (e) {
      this.options.logger.error('this session is not journaled: its journal could not be opened', { session_id: meta.session_id, error: String(e) });
      return prepareHistory({ ...base, restored });
    }
  }

  /** A session is gone for good (deleted, or a new one that never started): its journal and files go. */
  forget(session_id: string): void {
    this.journal?.remove(session_id);
    this.store?.removeSession(session_id);
  }
}
