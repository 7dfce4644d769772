// One session's journal file, written through: every frame the session's history records is
// appended with a synchronous write(2) before the hub hands it to any connection, so a master can
// never have seen a frame that a `kill -9` then loses (the kernel keeps what write(2) accepted).
// fdatasync runs off the loop at turn ends and on close (power loss, docs/decisions/121). The file
// stays within a byte budget: past it, the newest records that fill half the budget are copied
// into a fresh file (atomic rename) and the dropped positions stay gaps, so a reattach from before
// them is honestly reported as truncated (docs/decisions/122).
import { closeSync, fdatasync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { WireFrame } from '../../session/connection';
import type { HistorySink } from '../../session/history';
import type { Logger } from '../../session/ports';
import { encodeAlias, encodeFrame, encodeHeader, type JournalHeader, type SessionMeta } from './format';

export interface SessionJournalOptions {
  file: string;
  meta: SessionMeta;
  /** Largest size of the file in bytes before it is compacted to half of it. */
  budgetBytes: number;
  logger: Logger;
  /** Resume an existing file: its intact length and its record lines' sizes (from readJournal). */
  resume?: { goodBytes: number; lineBytes: number[] };
}

export class SessionJournal implements HistorySink<WireFrame> {
  private fd: number | undefined;
  private size = 0;
  private headerBytes = 0;
  /** Sizes of the record lines in the file, oldest first (compaction cuts at these boundaries). */
  private lineBytes: number[] = [];
  private meta: SessionMeta;
  private failed = false;
  private syncing = false;

  constructor(private readonly o: SessionJournalOptions) {
    this.meta = o.meta;
    if (o.resume) {
      this.fd = openSync(o.file, 'r+');
      // A torn last line (crash mid-write) is cut off, so the next record starts on a line of its own.
      ftruncateSync(this.fd, o.resume.goodBytes);
      closeSync(this.fd);
      this.fd = openSync(o.file, 'a');
      this.size = o.resume.goodBytes;
      this.lineBytes = [...o.resume.lineBytes];
      this.headerBytes = this.size - this.lineBytes.reduce((a, b) => a + b, 0);
    } else {
      const header = encodeHeader({ rawp_journal: 1, session: this.meta });
      this.fd = openSync(o.file, 'w');
      writeSync(this.fd, header);
      fsyncSync(this.fd);
      this.size = this.headerBytes = Buffer.byteLength(header);
    }
  }

  get file(): string {
    return this.o.file;
  }

  /** Bytes the file holds now (header included). */
  get bytes(): number {
    return this.size;
  }

  /** The session's name or sharing changed: later compactions carry the new header. */
  setMeta(meta: SessionMeta): void {
    this.meta = meta;
  }

  appended(frame: WireFrame, seq: number): void {
    this.write(encodeFrame(frame, seq));
    // A finished turn is worth a disk flush: power loss then costs at most the running turn.
    if (frame.type === 'session.turn.end' || frame.type === 'session.renamed') this.syncSoon();
  }

  aliased(message_id: string, at: number): void {
    this.write(encodeAlias(message_id, at));
  }

  /** Flush to disk and stop writing (host shutting down: the file stays for the next start). */
  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      fsyncSync(fd);
    } catch {
      // Nothing more to do: what write(2) accepted is in the kernel's hands already.
    }
    closeSync(fd);
  }

  /** The session was deleted: the journal goes with it. */
  remove(): void {
    this.close();
    rmSync(this.o.file, { force: true });
  }

  private write(line: string): void {
    if (this.fd === undefined || this.failed) return;
    try {
      const bytes = Buffer.from(line, 'utf8');
      writeSync(this.fd, bytes);
      this.size += bytes.length;
      this.lineBytes.push(bytes.length);
      if (this.size > this.o.budgetBytes) this.compact();
    } catch (e) {
      // A journal with a hole would lie on restore, so it stops here; the live session goes on.
      this.failed = true;
      this.o.logger.error('session journal write failed; this session is no longer journaled', { file: this.o.file, error: String(e) });
    }
  }

  private compact(): void {
    if (this.fd === undefined) return;
    const keepAtMost = Math.floor(this.o.budgetBytes / 2);
    let kept = 0;
    let first = this.lineBytes.length;
    while (first > 0 && kept + this.lineBytes[first - 1] <= keepAtMost) kept += this.lineBytes[--first];
    const dropped = first;
    const tail = Buffer.alloc(kept);
    const readFd = openSync(this.o.file, 'r');
    try {
      let off = 0;
      while (off < kept) {
        const n = readSync(readFd, tail, off, kept - off, this.size - kept + off);
        if (n === 0) throw new Error('journal shrank while being compacted');
        off += n;
      }
    } finally {
      closeSync(readFd);
    }
    const header: JournalHeader = { rawp_journal: 1, session: this.meta, compacted: { at: new Date().toISOString(), dropped_records: dropped } };
    const headerText = Buffer.from(encodeHeader(header), 'utf8');
    const tmp = `${this.o.file}.compact.tmp`;
    const tmpFd = openSync(tmp, 'w');
    try {
      writeSync(tmpFd, headerText);
      writeSync(tmpFd, tail);
      fsyncSync(tmpFd);
    } finally {
      closeSync(tmpFd);
    }
    renameSync(tmp, this.o.file);
    closeSync(this.fd);
    this.fd = openSync(this.o.file, 'a');
    this.lineBytes = this.lineBytes.slice(first);
    this.headerBytes = headerText.length;
    this.size = this.headerBytes + kept;
    this.o.logger.info('session journal compacted to stay within its budget', { session_id: this.meta.session_id, dropped_records: dropped, bytes: this.size });
  }

  private syncSoon(): void {
    const fd = this.fd;
    if (fd === undefined || this.syncing) return;
    this.syncing = true;
    fdatasync(fd, (err) => {
      this.syncing = false;
      if (err && this.fd === fd) this.o.logger.warn('session journal flush to disk failed', { file: this.o.file, error: String(err) });
    });
  }
}
