// Sessions kept across window reloads: one JSON file per session in the extension's workspace
// storage folder (context.storageUri), written a moment after the last change so a busy turn is
// not rewritten per delta. Corrupt files are moved aside, never trusted and never lost.
import { mkdirSync, promises as fsp, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedFrame } from './transcriptLog';

export interface StoredSession {
  version: 1;
  session_id: string;
  name: string;
  agent: string;
  created_at: string;
  frames: LoggedFrame[];
}

export class SessionStore {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly pending = new Map<string, () => StoredSession>();
  /** Deleted sessions: a write already in flight must not bring their file back. */
  private readonly removed = new Set<string>();
  /** Per session, bumped by every write: an older write still in flight never lands over a newer one. */
  private readonly generation = new Map<string, number>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    readonly dir: string,
    private readonly delayMs = 250,
    private readonly report: (message: string) => void = () => undefined,
  ) {}

  /** Every stored session, oldest first; unreadable files are moved aside and reported. */
  loadAll(): StoredSession[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: StoredSession[] = [];
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        const s = JSON.parse(readFileSync(file, 'utf8')) as StoredSession;
        if (s.version !== 1 || typeof s.session_id !== 'string' || !Array.isArray(s.frames)) throw new Error('not a stored session');
        out.push(s);
      } catch (e) {
        this.report(`stored session ${name} could not be read (${e instanceof Error ? e.message : String(e)}); kept aside as ${name}.corrupt`);
        try {
          renameSync(file, `${file}.corrupt`);
        } catch {
          // Leave it where it is; it is skipped next time too.
        }
      }
    }
    return out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  /** Write soon (debounced); `snapshot` is called at write time, so it sees the newest state. */
  schedule(session_id: string, snapshot: () => StoredSession): void {
    if (this.removed.has(session_id)) return;
    this.pending.set(session_id, snapshot);
    if (this.timers.has(session_id)) return;
    this.timers.set(
      session_id,
      setTimeout(() => {
        this.timers.delete(session_id);
        const write = this.writeNow(session_id);
        this.inflight.add(write);
        void write.finally(() => this.inflight.delete(write));
      }, this.delayMs),
    );
  }

  async remove(session_id: string): Promise<void> {
    this.removed.add(session_id);
    const t = this.timers.get(session_id);
    if (t) clearTimeout(t);
    this.timers.delete(session_id);
    this.pending.delete(session_id);
    await fsp.rm(this.fileOf(session_id), { force: true });
  }

  /** Write everything pending now, synchronously (window closing). */
  flushSync(): void {
    for (const [id, t] of this.timers) {
      clearTimeout(t);
      this.timers.delete(id);
      const snap = this.pending.get(id);
      this.pending.delete(id);
      if (!snap) continue;
      this.nextGeneration(id);
      try {
        mkdirSync(this.dir, { recursive: true });
        writeFileSync(this.fileOf(id), JSON.stringify(snap()));
      } catch (e) {
        this.report(`could not save session ${id}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** Resolves when every write in flight has landed (or been discarded). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  private nextGeneration(session_id: string): number {
    const g = (this.generation.get(session_id) ?? 0) + 1;
    this.generation.set(session_id, g);
    return g;
  }

  private async writeNow(session_id: string): Promise<void> {
    const snap = this.pending.get(session_id);
    this.pending.delete(session_id);
    if (!snap) return;
    const gen = this.nextGeneration(session_id);
    const file = this.fileOf(session_id);
    const tmp = `${file}.${gen}.tmp`;
    try {
      await fsp.mkdir(this.dir, { recursive: true });
      await fsp.writeFile(tmp, JSON.stringify(snap()));
      // Removed meanwhile, or a newer write (a flush on close) already landed: drop this one.
      if (this.removed.has(session_id) || this.generation.get(session_id) !== gen) await fsp.rm(tmp, { force: true });
      else await fsp.rename(tmp, file);
    } catch (e) {
      this.report(`could not save session ${session_id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private fileOf(session_id: string): string {
    // Session ids are UUIDs; anything else is made file-name safe.
    return join(this.dir, `${session_id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
}
