// Codex's own session log ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread_id>.jsonl), read as it
// grows (decision 718). It was read whole on every poll of a file change's diff (every 25 ms for up
// to 500 ms): a log of 200 MB cost 3-4 s a poll, 1.7 GB of memory and 1.8 s of one blocked event
// loop, and a long session did that again for every file change. Now the bytes already consumed are
// remembered and each poll reads only what was appended since, at most SESSION_LOG_POLL_BYTES (a
// backlog is read over several polls). Lines are cut on the newline byte, which never occurs inside
// a UTF-8 sequence, so a character split across two appends is decoded whole. A line longer than
// SESSION_LOG_LINE_BYTES is skipped unread with one warning. A file that shrank, was replaced
// (another inode) or whose bytes before the offset changed is read again from its start.
import { basename } from 'node:path';
import { openInsideNoFollow } from '../../workspace/pinnedDir';
import { mib } from './workspaceRead';

/** The most one poll reads: a backlog of hundreds of MB is read a few MiB at a time. */
export const SESSION_LOG_POLL_BYTES = 4 << 20;
/** The longest line kept: a longer one is skipped unread (a warning says so), never held whole. */
export const SESSION_LOG_LINE_BYTES = 16 << 20;
/** The bytes just before the offset, read again each poll: changed, the log was rewritten. */
export const SESSION_LOG_CHECK_BYTES = 64;

/** A read under this takes a buffer of its own; a bigger one reuses the tail's. */
const SMALL_READ = 64 * 1024;

/** What the tail needs of an open file (a FileHandle; tests count its reads). */
export interface LogFile {
  stat(): Promise<{ size: number; ino: number; dev: number }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** Opens `path` under `root` for reading. */
export type OpenLogFile = (root: string, path: string) => Promise<LogFile>;

/**
 * The log is opened without following a symlink below `root` and never blocking on a FIFO
 * (pinnedDir.ts), the same open as the workspace's files.
 */
export const openLogFile: OpenLogFile = openInsideNoFollow;

export interface SessionLogTailOptions {
  /** The folder the log lies under (CODEX_HOME/sessions). */
  root: string;
  path: string;
  /** Only lines holding this text are decoded and handed on; the others are passed over as bytes. */
  mark: string;
  onLine(line: string): void;
  /** A line skipped unread, in words. */
  onSkip(message: string): void;
  /** The log is read again from its start: what was handed on before may come again. */
  onRestart?(): void;
  open?: OpenLogFile;
  pollBytes?: number;
  maxLineBytes?: number;
}

export class SessionLogTail {
  /** Bytes of the file consumed: complete lines, and the unfinished last line kept in `pending`. */
  private consumed = 0;
  /** The last bytes consumed (up to SESSION_LOG_CHECK_BYTES), to see a rewrite. */
  private before = Buffer.alloc(0);
  /** The file read (device and inode): another one is read from its start. */
  private identity: string | undefined;
  /** The unfinished last line, in the pieces it came in. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line over the bound: everything up to its newline is passed over. */
  private skipping = false;
  /** Where the line being read starts in the file (for the warning). */
  private lineStart = 0;
  private running: Promise<boolean> | undefined;
  /** The buffer reused while a backlog is read (dropped once the end of the log is reached). */
  private scratch: Buffer | undefined;
  private readonly mark: Buffer;
  private readonly pollBytes: number;
  private readonly maxLineBytes: number;

  constructor(private readonly opts: SessionLogTailOptions) {
    this.mark = Buffer.from(opts.mark, 'utf8');
    this.pollBytes = Math.max(1, opts.pollBytes ?? SESSION_LOG_POLL_BYTES);
    this.maxLineBytes = opts.maxLineBytes ?? SESSION_LOG_LINE_BYTES;
  }

  /** The bytes of the log consumed so far. */
  get offset(): number {
    return this.consumed;
  }

  /**
   * Reads what was appended since the last poll (at most `pollBytes`) and hands on its complete
   * lines. True when more is waiting past what was read. Never throws: a log that cannot be opened
   * or read now is tried again at the next poll. Polls never overlap: a second caller shares the
   * poll under way.
   */
  poll(): Promise<boolean> {
    return (this.running ??= this.pollOnce().finally(() => (this.running = undefined)));
  }

  /**
   * Starts following the log at its present end, once, before the first poll: what is there was
   * written before this process took the thread over (a resumed thread), and its changes belong
   * to earlier turns. Never throws: a log that cannot be read now is read from its start later.
   */
  async skipToEnd(): Promise<void> {
    if (this.identity !== undefined) return;
    let file: LogFile;
    try {
      file = await (this.opts.open ?? openLogFile)(this.opts.root, this.opts.path);
    } catch {
      return;
    }
    try {
      const st = await file.stat();
      const check = Math.min(SESSION_LOG_CHECK_BYTES, st.size);
      const last = Buffer.allocUnsafe(check);
      if ((await readFully(file, last, st.size - check)) < check || this.identity !== undefined) return;
      this.identity = `${st.dev}:${st.ino}`;
      this.consumed = st.size;
      this.lineStart = st.size;
      this.before = last;
      // A last line still being written: the rest of it is not the start of a line.
      this.skipping = check > 0 && last[check - 1] !== 0x0a;
    } catch {
      /* read from the start at the next poll */
    } finally {
      await file.close().catch(() => undefined);
    }
  }

  private async pollOnce(): Promise<boolean> {
    let file: LogFile;
    try {
      file = await (this.opts.open ?? openLogFile)(this.opts.root, this.opts.path);
    } catch {
      return false;
    }
    try {
      const st = await file.stat();
      const id = `${st.dev}:${st.ino}`;
      if (this.identity !== undefined && (id !== this.identity || st.size < this.consumed)) this.restart();
      this.identity = id;
      if (st.size <= this.consumed) return false;
      const check = this.before.length;
      const want = Math.min(st.size - this.consumed, this.pollBytes);
      const buf = this.buffer(check + want);
      const got = await readFully(file, buf, this.consumed - check);
      if (got < check || !buf.subarray(0, check).equals(this.before)) {
        // Shorter, or other bytes where ours were: the file was rewritten in place.
        this.restart();
        return true;
      }
      this.take(buf.subarray(check, got));
      this.before = Buffer.from(buf.subarray(Math.max(0, got - SESSION_LOG_CHECK_BYTES), got));
      const more = this.consumed < st.size;
      if (!more) this.scratch = undefined;
      return more;
    } catch {
      this.scratch = undefined;
      return false;
    } finally {
      await file.close().catch(() => undefined);
    }
  }

  /**
   * A buffer for one poll's bytes. While a backlog is read, one is used again and again: a fresh
   * 4 MiB each poll cost more in page faults than the read itself.
   */
  private buffer(bytes: number): Buffer {
    if (bytes < SMALL_READ) return Buffer.allocUnsafe(bytes);
    if (!this.scratch || this.scratch.length < bytes) this.scratch = Buffer.allocUnsafe(Math.max(bytes, this.pollBytes + SESSION_LOG_CHECK_BYTES));
    return this.scratch.subarray(0, bytes);
  }

  private restart(): void {
    this.consumed = 0;
    this.lineStart = 0;
    this.before = Buffer.alloc(0);
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    this.opts.onRestart?.();
  }

  /**
   * The bytes after `consumed`: each complete line handed on, the unfinished rest kept. The mark is
   * searched for in the whole chunk, not line by line (a search per line cost 12 ms a MB).
   */
  private take(chunk: Buffer): void {
    const base = this.consumed;
    this.consumed += chunk.length;
    let start = 0;
    let mark = chunk.indexOf(this.mark);
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      if (mark >= 0 && mark < start) mark = chunk.indexOf(this.mark, start);
      // The mark has no newline in it: found before this newline, it lies wholly in this line.
      this.endLine(chunk.subarray(start, nl), mark >= 0 && mark < nl);
      start = nl + 1;
      this.lineStart = base + start;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  private endLine(piece: Buffer, marked: boolean): void {
    if (this.skipping) {
      this.skipping = false; // the skipped line ends here; the next is read as usual
      return;
    }
    const bytes = this.pendingBytes + piece.length;
    if (bytes > this.maxLineBytes) {
      this.skip();
      return;
    }
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    // A line begun in an earlier poll is looked at whole: its mark may straddle the pieces.
    const line = pieces.length === 0 ? piece : Buffer.concat([...pieces, piece], bytes);
    if (pieces.length === 0 ? !marked : line.indexOf(this.mark) < 0) return;
    try {
      this.opts.onLine(line.toString('utf8'));
    } catch {
      /* a handler's bug must not stop the reading of every later line */
    }
  }

  private keep(rest: Buffer): void {
    if (this.skipping) return;
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.skip();
      this.skipping = true;
      return;
    }
    // A copy: the poll's buffer (up to pollBytes) is not held for the few bytes of a line's start.
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  /** Forgets what was kept of an over-long line, and says so once. */
  private skip(): void {
    this.pending = [];
    this.pendingBytes = 0;
    try {
      this.opts.onSkip(`Codex's session log ${basename(this.opts.path)} has a line longer than ${mib(this.maxLineBytes)} (from byte ${this.lineStart}); it was skipped unread, so a file change it records shows its diff from the files instead`);
    } catch {
      /* the reporter failed; the line is skipped all the same */
    }
  }
}

/** Reads `buf.length` bytes from `position`, or fewer when the file ends first. */
async function readFully(file: LogFile, buf: Buffer, position: number): Promise<number> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await file.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}
