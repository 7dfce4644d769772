// One session's journal file, written through: every frame the session's history records is
// appended with a synchronous write(2) before the hub hands it to any connection, so a master can
// never have seen a frame that a `kill -9` then loses (the kernel keeps what write(2) accepted).
// fdatasync runs off the loop at turn ends and on close (power loss, docs/decisions/121). The file
// stays within a byte budget: past it, the newest frame records that fill half the budget (and the
// newest aliases among them, at most KEPT_ALIASES and a quarter of the budget) are copied into a
// fresh file (atomic rename);
// the dropped positions stay gaps, so a reattach from before them is honestly reported as
// truncated (docs/decisions/122). Aliases are capped so that a flood of refused frames (each one
// an alias, never kept in memory) cannot push real frames out of the journal either.
import { closeSync, fchmodSync, fdatasync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync, writevSync } from 'node:fs';
import type { WireFrame } from '../../session/connection';
import type { HistorySink } from '../../session/history';
import type { Logger } from '../../session/ports';
import { encodeAlias, encodeFrame, encodeHeader, type JournalHeader, type SessionMeta } from './format';
import type { JournalLine } from './readJournal';

/** Alias records a compaction keeps at most (the newest; each is a handshake or refused frame's id). */
export const KEPT_ALIASES = 1000;

export interface SessionJournalOptions {
  file: string;
  meta: SessionMeta;
  /** Largest size of the file in bytes before it is compacted to half of it. */
  budgetBytes: number;
  logger: Logger;
  /** Resume an existing file: its intact length and its record lines' sizes (from readJournal). */
  resume?: { goodBytes: number; lines: JournalLine[] };
}

export class SessionJournal implements HistorySink<WireFrame> {
  private fd: number | undefined;
  private size = 0;
  private headerBytes = 0;
  /** The record lines in the file, oldest first (compaction cuts at these boundaries). */
  private lines: JournalLine[] = [];
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
      // A journal written before its mode was set (0644 under the usual umask) is made private too.
      try {
        fchmodSync(this.fd, 0o600);
      } catch {
        // not ours to change (another owner): it stays as it is
      }
      this.size = o.resume.goodBytes;
      this.lines = o.resume.lines.map((l) => ({ ...l }));
      this.headerBytes = this.size - this.lines.reduce((a, l) => a + l.bytes, 0);
    } else {
      const header = encodeHeader({ rawp_journal: 1, session: this.meta });
      this.fd = openSync(o.file, 'w', 0o600);
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
    this.write(encodeFrame(frame, seq), false);
    // A finished turn is worth a disk flush: power loss then costs at most the running turn.
    if (frame.type === 'session.turn.end' || frame.type === 'session.renamed') this.syncSoon();
  }

  aliased(message_id: string, at: number): void {
    this.write([Buffer.from(encodeAlias(message_id, at), 'utf8')], true);
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

  /** Appends one line, given as the buffers that make it up (encodeFrame). */
  private write(line: Buffer[], alias: boolean): void {
    if (this.fd === undefined || this.failed) return;
    try {
      const bytes = writeWhole(this.fd, line);
      this.size += bytes;
      this.lines.push({ bytes, alias });
      if (this.size > this.o.budgetBytes) this.compact();
    } catch (e) {
      // A journal with a hole would lie on restore, so it stops here; the live session goes on.
      this.failed = true;
      this.o.logger.error('session journal write failed; this session is no longer journaled', { file: this.o.file, error: String(e) });
    }
  }

  private compact(): void {
    if (this.fd === undefined) return;
    // Newest first: frames while they fit in half the budget, aliases among them up to the cap.
    const frameBudget = Math.floor(this.o.budgetBytes / 2);
    const aliasBudget = Math.floor(this.o.budgetBytes / 4);
    const keep: boolean[] = new Array<boolean>(this.lines.length).fill(false);
    let frameBytes = 0;
    let aliases = 0;
    let aliasBytes = 0;
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i];
      if (line.alias) {
        if (aliases < KEPT_ALIASES && aliasBytes + line.bytes <= aliasBudget) {
          keep[i] = true;
          aliases++;
          aliasBytes += line.bytes;
        }
        continue;
      }
      if (frameBytes + line.bytes > frameBudget) break;
      keep[i] = true;
      frameBytes += line.bytes;
    }
    const current = this.readWhole();
    const parts: Buffer[] = [];
    const kept: JournalLine[] = [];
    let offset = this.headerBytes;
    this.lines.forEach((line, i) => {
      if (keep[i]) {
        parts.push(current.subarray(offset, offset + line.bytes));
        kept.push(line);
      }
      offset += line.bytes;
    });
    const dropped = this.lines.length - kept.length;
    const header: JournalHeader = { rawp_journal: 1, session: this.meta, compacted: { at: new Date().toISOString(), dropped_records: dropped } };
    const headerText = Buffer.from(encodeHeader(header), 'utf8');
    const tmp = `${this.o.file}.compact.tmp`;
    const tmpFd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(tmpFd, Buffer.concat([headerText, ...parts]));
      fsyncSync(tmpFd);
    } finally {
      closeSync(tmpFd);
    }
    renameSync(tmp, this.o.file);
    closeSync(this.fd);
    this.fd = openSync(this.o.file, 'a');
    this.lines = kept;
    this.headerBytes = headerText.length;
    this.size = this.headerBytes + kept.reduce((a, l) => a + l.bytes, 0);
    this.o.logger.info('session journal compacted to stay within its budget', { session_id: this.meta.session_id, dropped_records: dropped, bytes: this.size });
  }

  /** The file as it is now (at most the budget plus one record). */
  private readWhole(): Buffer {
    const buf = Buffer.alloc(this.size);
    const fd = openSync(this.o.file, 'r');
    try {
      let off = 0;
      while (off < this.size) {
        const n = readSync(fd, buf, off, this.size - off, off);
        if (n === 0) throw new Error('journal shrank while being compacted');
        off += n;
      }
    } finally {
      closeSync(fd);
    }
    return buf;
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

/** Writes `parts` one after the other at the file's end (one writev); the bytes written. */
function writeWhole(fd: number, parts: Buffer[]): number {
  let total = 0;
  for (const p of parts) total += p.length;
  const n = writevSync(fd, parts);
  if (n < total) {
    // A short write (a full disk mid-line): finish the line or throw trying.
    const rest = Buffer.concat(parts).subarray(n);
    for (let off = 0; off < rest.length; ) off += writeSync(fd, rest, off);
  }
  return total;
}
