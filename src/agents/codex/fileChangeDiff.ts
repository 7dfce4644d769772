// Codex's `file_change` items name the files and the kind of change, but carry no diff. Two
// sources give it back:
// 1. Codex's own session log ($CODEX_HOME/sessions/**/rollout-*-<thread_id>.jsonl) records every
//    applied patch with its unified diff: exact, so it is tried first (it may lag the stdout line by
//    a few milliseconds, so it is polled briefly). Each poll reads only what the log gained since
//    the last one, a few MiB at most (loggedChanges.ts, sessionLog.ts, decision 718).
// 2. A snapshot of the files taken when the item started, diffed against the files after it
//    completed (best effort: Codex may already have written them by the time we read). The item's
//    paths are the agent's word: they are read only inside the workspace, only regular files of a
//    bounded size (workspaceRead.ts, decision 714); any other is left out of the diff with a note.
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { FileChangeItem } from './nativeEvents';
import { leavesRoot } from '../../workspace/leavesRoot';
import { diffOutput } from '../../tools/diff';
import { ABSENT, mib, refused, type FileSnapshot, type WorkspaceTextReader } from './workspaceRead';
import { LoggedChanges, type LoggedChange } from './loggedChanges';
import type { OpenLogFile } from './sessionLog';

/**
 * What one item's snapshots may hold together: a change naming thousands of files, each under the
 * per-file bound, must not hold gigabytes either. Files past it get a note.
 */
export const MAX_ITEM_DIFF_BYTES = 16 << 20;

/** How long past the wait a backlog of the session log is read on (under the translator's 5 s). */
export const LOG_CATCH_UP_MS = 3_000;

export interface FileChangeDiffOptions {
  workspacePath: string;
  /** How the item's files are read: inside the workspace, bounded, never blocking. */
  reader: Pick<WorkspaceTextReader, 'read'>;
  /** Codex's home (CODEX_HOME, default ~/.codex); undefined disables the session-log source. */
  codexHome: string | undefined;
  threadId(): string | undefined;
  /** How long to wait for the session log to show the change. */
  logWaitMs?: number;
  /** A line of the session log skipped (over its bound), in words: a warning of the turn. */
  onWarning?(message: string): void;
  /** How the session log is opened (tests count what is read). */
  openLog?: OpenLogFile;
}

export class CodexFileChangeDiffer {
  private readonly before = new Map<string, FileSnapshot>();
  /** The session log's entries, each handed out once, so two identical patches map to two entries. */
  readonly log: LoggedChanges;

  constructor(private readonly opts: FileChangeDiffOptions) {
    this.log = new LoggedChanges({ codexHome: opts.codexHome, threadId: opts.threadId, onWarning: opts.onWarning, open: opts.openLog });
  }

  async diff(item: FileChangeItem, phase: 'started' | 'completed'): Promise<string | undefined> {
    if (phase === 'started') {
      const budget = { left: MAX_ITEM_DIFF_BYTES };
      for (const c of item.changes) this.before.set(c.path, await this.read(c.path, budget));
      return undefined;
    }
    const fromLog = await this.fromSessionLog(item);
    if (fromLog !== undefined) return fromLog;
    return this.fromSnapshot(item);
  }

  private abs(p: string): string {
    return path.isAbsolute(p) ? p : path.join(this.opts.workspacePath, p);
  }

  private rel(p: string): string {
    const r = path.relative(this.opts.workspacePath, this.abs(p));
    return leavesRoot(r) ? p : r.split(path.sep).join('/');
  }

  /** One file's snapshot, counted against the item's budget. */
  private async read(p: string, budget: { left: number }): Promise<FileSnapshot> {
    if (budget.left <= 0) return refused(`the change's files are over ${mib(MAX_ITEM_DIFF_BYTES)} together`);
    const s = await this.opts.reader.read(p);
    if (s.kind === 'text') budget.left -= s.text.length;
    return s;
  }

  private async fromSnapshot(item: FileChangeItem): Promise<string | undefined> {
    const notes: string[] = [];
    const patches: string[] = [];
    const budget = { left: MAX_ITEM_DIFF_BYTES };
    for (const c of item.changes) {
      // No snapshot (no item.started): taken as absent, so a new file shows whole, as before.
      const before = this.before.get(c.path) ?? ABSENT;
      this.before.delete(c.path);
      // A path refused before is not read again: its answer would be the same, or a race.
      const after = before.kind === 'refused' ? before : await this.read(c.path, budget);
      const rel = this.rel(c.path);
      const no = before.kind === 'refused' ? before : after.kind === 'refused' ? after : undefined;
      if (no?.kind === 'refused') {
        notes.push(`${c.kind} ${rel}: no diff shown, ${no.why}\n`);
        continue;
      }
      const a = before.kind === 'text' ? before.text : undefined;
      const b = after.kind === 'text' ? after.text : undefined;
      if (a === b) return undefined; // we read too late: no honest diff from snapshots
      patches.push(unifiedDiff(rel, a, b));
    }
    // Notes first: a reader of unified diffs (ours, git apply) skips text before the first header.
    return notes.join('') + patches.join('');
  }

  private async fromSessionLog(item: FileChangeItem): Promise<string | undefined> {
    const wanted = new Set(item.changes.map((c) => this.abs(c.path)));
    const deadline = Date.now() + (this.opts.logWaitMs ?? 500);
    for (;;) {
      const more = await this.log.poll();
      const entry = this.log.take((p) => this.abs(p), wanted);
      if (entry) {
        return Object.entries(entry.changes)
          .map(([p, ch]) => formatLogged(this.rel(p), ch))
          .join('');
      }
      // The wait is for the log to show the change: a backlog (a resumed session's log of hundreds
      // of MB, read for the first time) is read on past it, up to LOG_CATCH_UP_MS more.
      const now = Date.now();
      if (now >= deadline && (!more || now >= deadline + LOG_CATCH_UP_MS)) return undefined;
      // A backlog is read on at once (a turn of the event loop between its slices); the end of the
      // log is looked at again a little later.
      await new Promise((r) => (more ? setImmediate(r) : setTimeout(r, 25)));
    }
  }
}

/**
 * The unified diff of one file, `/dev/null` for a side that is absent. diffOutput bounds the work
 * (Myers only while cheap, else linear: src/tools/diff.ts), so a 1 MiB rewrite never holds the
 * event loop for seconds as a plain Myers diff of it would.
 */
function unifiedDiff(rel: string, before: string | undefined, after: string | undefined): string {
  const text = diffOutput(rel, before ?? '', after ?? '', before === undefined).unified_diff;
  return after === undefined ? text.replace(`\n+++ b/${rel}\n`, '\n+++ /dev/null\n') : text;
}

function formatLogged(rel: string, ch: LoggedChange['changes'][string]): string {
  const kind = ch.type ?? 'update';
  const from = kind === 'add' ? '/dev/null' : `a/${rel}`;
  const to = kind === 'delete' ? '/dev/null' : `b/${ch.move_path ? ch.move_path : rel}`;
  if (ch.unified_diff !== undefined) return `--- ${from}\n+++ ${to}\n${ch.unified_diff.endsWith('\n') ? ch.unified_diff : ch.unified_diff + '\n'}`;
  if (ch.content !== undefined) return createTwoFilesPatch(from, to, kind === 'add' ? '' : ch.content, kind === 'add' ? ch.content : '');
  return `--- ${from}\n+++ ${to}\n`;
}
