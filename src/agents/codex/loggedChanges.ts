// The applied patches Codex's session log records (`item_completed` of a `FileChange`, each with its
// unified diff), gathered as the log grows (decision 718): each line is read once, by the tail
// (sessionLog.ts), and each entry is handed out once. Lines are held to an agent line's depth bound
// (jsonLines.ts, decision 716) before JSON.parse.
import * as path from 'node:path';
import { findFileNewestFirst } from '../../workspace/localFiles';
import { jsonTextTooDeep } from '../../protocol/limits';
import { AGENT_LINE_MAX_DEPTH, TOO_DEEP_REASON } from '../process/jsonLines';
import { SessionLogTail, type OpenLogFile } from './sessionLog';

export interface LoggedChange {
  id: string;
  changes: Record<string, { type?: string; unified_diff?: string; content?: string; move_path?: string | null }>;
}

/**
 * Entries read and not yet handed out, at most this many characters of lines together (and
 * MAX_KEPT_ENTRIES): past it the oldest go, and their items are diffed from the files.
 */
export const MAX_KEPT_CHARS = 16 << 20;
export const MAX_KEPT_ENTRIES = 1_000;

export interface LoggedChangesOptions {
  /** Codex's home (CODEX_HOME); undefined: there is no log to read. */
  codexHome: string | undefined;
  threadId(): string | undefined;
  /** A line of the log skipped (too long, nested too deep), in words. */
  onWarning?(message: string): void;
  /** How the log is opened (tests count the bytes read). */
  open?: OpenLogFile;
  pollBytes?: number;
  maxLineBytes?: number;
}

export class LoggedChanges {
  /** Entries read, oldest first, not handed out yet. */
  private kept: Array<LoggedChange & { chars: number }> = [];
  private keptChars = 0;
  /** Entries handed out: a log read again from its start does not hand them out twice. */
  private readonly used = new Set<string>();
  private tail: SessionLogTail | undefined;
  private thread: string | undefined;

  constructor(private readonly opts: LoggedChangesOptions) {}

  /** Bytes of the current log consumed (tests). */
  get offset(): number {
    return this.tail?.offset ?? 0;
  }

  /** Reads what the log gained since the last poll; true when more is waiting to be read. */
  async poll(): Promise<boolean> {
    const tail = await this.findTail();
    return tail ? tail.poll() : false;
  }

  /**
   * Before this process's first turn of a thread: the log is followed from its present end, so a
   * change of an earlier session of a resumed thread is never taken for one of this turn's (the
   * oldest entry for the same files won) and its backlog is not read.
   */
  async skipBacklog(): Promise<void> {
    // A log this process already reads is not skipped (skipToEnd does nothing then).
    await (await this.findTail())?.skipToEnd();
  }

  /** The oldest entry not handed out whose files are `wanted` (absolute paths), handed out now. */
  take(abs: (p: string) => string, wanted: ReadonlySet<string>): LoggedChange | undefined {
    const i = this.kept.findIndex((e) => sameKeys(Object.keys(e.changes).map(abs), wanted));
    if (i < 0) return undefined;
    const [entry] = this.kept.splice(i, 1);
    this.keptChars -= entry.chars;
    this.used.add(entry.id);
    return { id: entry.id, changes: entry.changes };
  }

  private async findTail(): Promise<SessionLogTail | undefined> {
    const thread = this.opts.threadId();
    if (this.tail && thread === this.thread) return this.tail;
    if (!this.opts.codexHome || !thread) return undefined;
    const root = path.join(this.opts.codexHome, 'sessions');
    const file = await findFileNewestFirst(root, (name) => name.startsWith('rollout-') && name.endsWith(`${thread}.jsonl`), 4);
    if (!file || thread !== this.opts.threadId()) return undefined;
    this.thread = thread;
    this.forget();
    // A poll of the log of a thread before still under way hands nothing on.
    const tail: SessionLogTail = new SessionLogTail({
      root,
      path: file,
      // Every line holding `"FileChange"` (the old filter) holds this; starting with a byte rarer
      // than `"`, it is found at memchr speed (7-19 ms for 50 MB; `"FileChange"`: 47-77 ms).
      mark: 'FileChange"',
      onLine: (line) => this.tail === tail && this.read(line),
      onSkip: (message) => this.tail === tail && this.opts.onWarning?.(message),
      onRestart: () => this.tail === tail && this.forget(),
      open: this.opts.open,
      pollBytes: this.opts.pollBytes,
      maxLineBytes: this.opts.maxLineBytes,
    });
    this.tail = tail;
    return tail;
  }

  private forget(): void {
    this.kept = [];
    this.keptChars = 0;
  }

  private read(line: string): void {
    if (jsonTextTooDeep(line, AGENT_LINE_MAX_DEPTH)) {
      this.opts.onWarning?.(`A line of Codex's session log was skipped (${TOO_DEEP_REASON})`);
      return;
    }
    let rec: { payload?: { type?: string; item?: { type?: string; id?: string; changes?: LoggedChange['changes'] } } };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      return; // not an entry of ours (only complete lines come here)
    }
    const it = rec?.payload?.type === 'item_completed' ? rec.payload.item : undefined;
    if (it?.type !== 'FileChange' || typeof it.id !== 'string' || !it.changes || typeof it.changes !== 'object') return;
    if (this.used.has(it.id) || this.kept.some((e) => e.id === it.id)) return;
    this.kept.push({ id: it.id, changes: it.changes, chars: line.length });
    this.keptChars += line.length;
    while (this.kept.length > MAX_KEPT_ENTRIES || (this.keptChars > MAX_KEPT_CHARS && this.kept.length > 1)) this.keptChars -= this.kept.shift()!.chars;
  }
}

function sameKeys(keys: string[], wanted: ReadonlySet<string>): boolean {
  return keys.length === wanted.size && keys.every((k) => wanted.has(k));
}
