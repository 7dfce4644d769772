// The journal of one host's state folder: a session index plus one append-only JSON-lines file per
// session (docs/decisions/120). A host opens it once (taking the folder's lock), restores what a
// previous process left, then opens a SessionJournal per session — the HistorySink of that
// session's one history buffer, so what is journaled is exactly what reattach (§13.7) serves.
//
//   DIR/lock              pid of the host using the folder
//   DIR/sessions.json     the index: name, agent, origin, sharing per session
//   DIR/sessions/ID.jsonl header line, then {seq, frame} and {seq, alias} records
import { copyFileSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WireFrame } from '../../session/connection';
import type { HistoryRecord } from '../../session/history';
import type { Logger } from '../../session/ports';
import type { SessionMeta } from './format';
import { readJournalFile, type JournalContents, type JournalLine } from './readJournal';
import { SessionJournal } from './sessionJournal';
import { readSessionIndex, writeSessionIndex } from './sessionIndex';
import { StateLock } from './stateLock';

/** Twice the history ring's default (8 MiB): after a compaction the journal still holds what the ring does. */
export const DEFAULT_JOURNAL_BYTES = 16 * 1024 * 1024;

export interface JournalOptions {
  dir: string;
  /** Byte budget of each session's file (docs/decisions/122). */
  budgetBytes?: number;
  logger: Logger;
}

/** A session a previous process left in the folder, ready to be started again. */
export interface RestoredSession {
  meta: SessionMeta;
  /** In recorded order, for HistoryBuffer.restore. */
  records: HistoryRecord<WireFrame>[];
  /** Just the frames of `records`. */
  frames: WireFrame[];
  /** The journal's last line was cut short by a crash (and is left out). */
  torn: boolean;
  /** Lines that could not be read (reported, kept in a `.corrupt` copy, left out). */
  corruptLines: number;
  /** Where appending resumes. */
  readonly resume: { goodBytes: number; lines: JournalLine[] };
}

export class Journal {
  private readonly sessionsDir: string;
  private readonly indexFile: string;
  private readonly index = new Map<string, SessionMeta>();
  private readonly writers = new Map<string, SessionJournal>();
  private readonly budgetBytes: number;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly lock: StateLock,
    private readonly o: JournalOptions,
  ) {
    this.sessionsDir = join(dir, 'sessions');
    this.indexFile = join(dir, 'sessions.json');
    this.budgetBytes = Math.max(64 * 1024, o.budgetBytes ?? DEFAULT_JOURNAL_BYTES);
  }

  /** Create the folder if needed and take its lock (throws a clear error if another host has it). */
  static open(o: JournalOptions): Journal {
    mkdirSync(join(o.dir, 'sessions'), { recursive: true, mode: 0o700 });
    return new Journal(o.dir, StateLock.acquire(o.dir), o);
  }

  /** Every session the folder holds, oldest first. Damage is reported and skipped, never fatal. */
  restore(): RestoredSession[] {
    const log = this.o.logger;
    const indexed = new Map<string, SessionMeta>();
    const idx = readSessionIndex(this.indexFile);
    if (idx.kind === 'ok') for (const m of idx.sessions) indexed.set(m.session_id, m);
    else if (idx.kind === 'corrupt') log.error(`session index ${this.indexFile} is unreadable (${idx.reason}); rebuilt from the journals${idx.keptAs ? `, the old one kept as ${idx.keptAs}` : ''}`);

    const out: RestoredSession[] = [];
    for (const name of this.journalFiles()) {
      const file = join(this.sessionsDir, name);
      const byName = [...indexed.values()].find((m) => fileName(m.session_id) === name);
      // Our writer never lets a file pass its budget by more than a record; one far larger is not
      // ours to load into memory (a lowered budget is handled by the next compaction instead).
      const size = fileSize(file);
      if (size > Math.max(4 * this.budgetBytes, 64 * 1024 * 1024)) {
        log.error(`session journal ${file} is ${size} bytes, far more than its budget of ${this.budgetBytes}; not restored, kept aside as ${file}.oversized`);
        tryRename(file, `${file}.oversized`);
        continue;
      }
      let contents: JournalContents;
      try {
        contents = readJournalFile(file, byName?.session_id ?? name.slice(0, -'.jsonl'.length));
      } catch (e) {
        log.error(`session journal ${file} could not be read (${String(e)}); skipped`);
        continue;
      }
      const headerMeta = contents.header?.session;
      // The index has the newest name and sharing; the header is the fallback when it is lost.
      const meta = (headerMeta ? indexed.get(headerMeta.session_id) : byName) ?? headerMeta;
      if (!meta) {
        log.error(`session journal ${file} has no readable header and no index entry; kept aside as ${file}.corrupt`);
        tryRename(file, `${file}.corrupt`);
        continue;
      }
      if (contents.corrupt.length > 0) {
        const lines = contents.corrupt.map((c) => `line ${c.line}: ${c.reason}`).join('; ');
        log.error(`session journal ${file} has ${contents.corrupt.length} unreadable line(s), skipped (${lines}); the file is kept as ${file}.corrupt`);
        tryCopy(file, `${file}.corrupt`);
      }
      if (contents.tornBytes > 0) log.warn(`session journal ${file} ends in a line cut short by a crash (${contents.tornBytes} bytes); it is left out`);
      indexed.delete(meta.session_id);
      const frames: WireFrame[] = [];
      for (const r of contents.records) if ('frame' in r) frames.push(r.frame);
      out.push({
        meta,
        records: contents.records,
        frames,
        torn: contents.tornBytes > 0,
        corruptLines: contents.corrupt.length,
        resume: { goodBytes: contents.goodBytes, lines: contents.lines },
      });
    }
    for (const gone of indexed.values()) log.warn(`session ${gone.session_id} is in the index but its journal is gone; dropped`);
    // Listed until they are deleted, even if a host cannot start one now (it is tried again next time).
    for (const r of out) this.index.set(r.meta.session_id, r.meta);
    if (idx.kind !== 'ok' || indexed.size > 0 || out.length !== idx.sessions.length) this.writeIndex();
    out.sort((a, b) => (a.meta.created_at < b.meta.created_at ? -1 : a.meta.created_at > b.meta.created_at ? 1 : 0));
    return out;
  }

  /**
   * The sink of one session's history: a new journal, or `restored`'s own file continued. Listed
   * in the index before any frame is written.
   */
  open(meta: SessionMeta, restored?: RestoredSession): SessionJournal {
    if (this.closed) throw new Error('the journal is closed');
    if (this.writers.has(meta.session_id)) throw new Error(`session ${meta.session_id} is journaled already`);
    const writer = new SessionJournal({
      file: join(this.sessionsDir, fileName(meta.session_id)),
      meta,
      budgetBytes: this.budgetBytes,
      logger: this.o.logger,
      ...(restored ? { resume: restored.resume } : {}),
    });
    this.writers.set(meta.session_id, writer);
    this.index.set(meta.session_id, meta);
    this.writeIndex();
    return writer;
  }

  /** A complete session from elsewhere (an old snapshot) written as a journal, ready to restore. */
  importSession(meta: SessionMeta, frames: readonly WireFrame[]): void {
    if (this.closed) throw new Error('the journal is closed');
    if (this.index.has(meta.session_id)) throw new Error(`session ${meta.session_id} is journaled already`);
    const writer = new SessionJournal({ file: join(this.sessionsDir, fileName(meta.session_id)), meta, budgetBytes: this.budgetBytes, logger: this.o.logger });
    frames.forEach((f, seq) => writer.appended(f, seq));
    writer.close();
    this.index.set(meta.session_id, meta);
    this.writeIndex();
  }

  /** A session was renamed, (un)shared, got rules or its agent's own id: the index (and later compactions) follow. */
  update(session_id: string, patch: Partial<Pick<SessionMeta, 'name' | 'name_by_person' | 'shared' | 'session_rules' | 'agent_session_id'>>): void {
    const meta = this.index.get(session_id);
    if (!meta || this.closed) return;
    const next = { ...meta, ...patch };
    if (JSON.stringify(next) === JSON.stringify(meta)) return;
    this.index.set(session_id, next);
    this.writers.get(session_id)?.setMeta(next);
    this.writeIndex();
  }

  /** A session was deleted (§7.7): its journal and index entry go. */
  remove(session_id: string): void {
    if (this.closed) return;
    this.writers.get(session_id)?.remove();
    this.writers.delete(session_id);
    if (this.index.delete(session_id)) this.writeIndex();
  }

  /** Host shutting down: flush every journal, keep them for the next start, release the lock. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.writers.values()) w.close();
    this.writers.clear();
    this.lock.release();
  }

  private journalFiles(): string[] {
    try {
      return readdirSync(this.sessionsDir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
  }

  private writeIndex(): void {
    try {
      writeSessionIndex(this.indexFile, [...this.index.values()]);
    } catch (e) {
      // The journals' headers still say everything the index does: a restart rebuilds it.
      this.o.logger.error(`session index ${this.indexFile} could not be written`, { error: String(e) });
    }
  }
}

/** Session ids are UUIDs; anything else is made file-name safe. */
function fileName(session_id: string): string {
  return `${session_id.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function tryRename(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // It stays where it is and is reported again next time.
  }
}

function tryCopy(from: string, to: string): void {
  try {
    copyFileSync(from, to);
  } catch {
    // The report above still names the lines.
  }
}
