// Codex's `file_change` items name the files and the kind of change, but carry no diff. Two
// sources give it back:
// 1. Codex's own session log ($CODEX_HOME/sessions/**/rollout-*-<thread_id>.jsonl) records every
//    applied patch with its unified diff: exact, so it is tried first (it may lag the stdout line by
//    a few milliseconds, so it is polled briefly).
// 2. A snapshot of the files taken when the item started, diffed against the files after it
//    completed (best effort: Codex may already have written them by the time we read).
import { findFileNewestFirst, readTextOrUndefinedAsync } from '../../workspace/localFiles';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { FileChangeItem } from './nativeEvents';
import { leavesRoot } from '../../workspace/leavesRoot';

export interface FileChangeDiffOptions {
  workspacePath: string;
  /** Codex's home (CODEX_HOME, default ~/.codex); undefined disables the session-log source. */
  codexHome: string | undefined;
  threadId(): string | undefined;
  /** How long to wait for the session log to show the change. */
  logWaitMs?: number;
}

interface LoggedChange {
  id: string;
  changes: Record<string, { type?: string; unified_diff?: string; content?: string; move_path?: string | null }>;
}

export class CodexFileChangeDiffer {
  private readonly before = new Map<string, string | undefined>();
  /** Session-log entries already used, so two identical patches map to two entries. */
  private readonly consumed = new Set<string>();
  private logPath: string | undefined;

  constructor(private readonly opts: FileChangeDiffOptions) {}

  async diff(item: FileChangeItem, phase: 'started' | 'completed'): Promise<string | undefined> {
    if (phase === 'started') {
      for (const c of item.changes) this.before.set(c.path, await readTextOrUndefinedAsync(this.abs(c.path)));
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

  private async fromSnapshot(item: FileChangeItem): Promise<string | undefined> {
    const parts: string[] = [];
    for (const c of item.changes) {
      const after = await readTextOrUndefinedAsync(this.abs(c.path));
      const before = this.before.get(c.path);
      this.before.delete(c.path);
      if (before === after) return undefined; // we read too late: no honest diff from snapshots
      const rel = this.rel(c.path);
      parts.push(createTwoFilesPatch(before === undefined ? '/dev/null' : `a/${rel}`, after === undefined ? '/dev/null' : `b/${rel}`, before ?? '', after ?? ''));
    }
    return parts.join('');
  }

  private async fromSessionLog(item: FileChangeItem): Promise<string | undefined> {
    const wanted = new Set(item.changes.map((c) => this.abs(c.path)));
    const deadline = Date.now() + (this.opts.logWaitMs ?? 500);
    for (;;) {
      const entry = (await this.loggedChanges()).find((e) => !this.consumed.has(e.id) && sameKeys(Object.keys(e.changes).map((p) => this.abs(p)), wanted));
      if (entry) {
        this.consumed.add(entry.id);
        return Object.entries(entry.changes)
          .map(([p, ch]) => formatLogged(this.rel(p), ch))
          .join('');
      }
      if (Date.now() >= deadline) return undefined;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private async loggedChanges(): Promise<LoggedChange[]> {
    const file = await this.findLog();
    if (!file) return [];
    const text = await readTextOrUndefinedAsync(file);
    if (!text) return [];
    const out: LoggedChange[] = [];
    for (const line of text.split('\n')) {
      if (!line.includes('"FileChange"')) continue;
      try {
        const rec = JSON.parse(line) as { payload?: { type?: string; item?: { type?: string; id?: string; changes?: LoggedChange['changes'] } } };
        const it = rec.payload?.type === 'item_completed' ? rec.payload.item : undefined;
        if (it?.type === 'FileChange' && it.id && it.changes) out.push({ id: it.id, changes: it.changes });
      } catch {
        /* a half-written last line: the next poll reads it whole */
      }
    }
    return out;
  }

  private async findLog(): Promise<string | undefined> {
    if (this.logPath) return this.logPath;
    const thread = this.opts.threadId();
    if (!this.opts.codexHome || !thread) return undefined;
    this.logPath = await findFileNewestFirst(path.join(this.opts.codexHome, 'sessions'), (name) => name.startsWith('rollout-') && name.endsWith(`${thread}.jsonl`), 4);
    return this.logPath;
  }
}

function formatLogged(rel: string, ch: LoggedChange['changes'][string]): string {
  const kind = ch.type ?? 'update';
  const from = kind === 'add' ? '/dev/null' : `a/${rel}`;
  const to = kind === 'delete' ? '/dev/null' : `b/${ch.move_path ? ch.move_path : rel}`;
  if (ch.unified_diff !== undefined) return `--- ${from}\n+++ ${to}\n${ch.unified_diff.endsWith('\n') ? ch.unified_diff : ch.unified_diff + '\n'}`;
  if (ch.content !== undefined) return createTwoFilesPatch(from, to, kind === 'add' ? '' : ch.content, kind === 'add' ? ch.content : '');
  return `--- ${from}\n+++ ${to}\n`;
}

function sameKeys(keys: string[], wanted: Set<string>): boolean {
  return keys.length === wanted.size && keys.every((k) => wanted.has(k));
}

