// Checkpoints of one workspace (issue 17), for every agent, at the file-system level: before a turn
// the workspace is snapshot into the shadow repositories (workspaceRepos.ts); after it, a second
// snapshot gives the files the turn changed — whoever changed them, whatever the agent reported.
// A rewind (restore) puts every file the turn and the session's later turns changed back as it was
// before the turn, and deletes what they created — except files someone else changed after the
// agent did (a conflict, restoreFile.ts), which wait until the person forces them. A rewind records
// a checkpoint of its own first, so restoring that one undoes it (docs/decisions/334).
//
// How the review UI calls it (through SessionHost.checkpoints):
//   list(session_id)                   the session's checkpoints, oldest first (files per checkpoint)
//   get(checkpoint_id)                 one of them
//   textAt(checkpoint_id, path, side)  a file's text before ('before') or after ('after') the
//                                      checkpoint's turn, undefined where it did not exist — the
//                                      left and right sides of vscode.changes / unified diffs
//   restore(checkpoint_id, { force, paths })
//                                      rewind (all its files, or only `paths`: "revert this file");
//                                      prefer SessionCheckpoints.restore, which also tells every master
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { newId } from '../../protocol/build';
import type { CheckpointFile, CheckpointSkipped } from '../../protocol/checkpointFrames';
import type { Logger } from '../../session/ports';
import type { FsBackend } from '../../workspace/fsBackend';
import { planRestore, applyRestore, type RestoreResult } from './restoreFiles';
import { WorkspaceRepos, type Trees, type WorkspaceSnapshot } from './workspaceRepos';
import { BEFORE_TURN_WAIT_MS, settledWithin } from './turnWait';

export type { RestoreResult } from './restoreFiles';

export interface CheckpointRecord {
  checkpoint_id: string;
  session_id: string;
  /** `turn`: an agent turn; `rewind`: the state before a restore (restoring it undoes the restore). */
  kind: 'turn' | 'rewind';
  turn_id?: string;
  /** For a rewind: the checkpoint it went back to. */
  rewound?: string;
  created_at: string;
  before: Trees;
  after: Trees;
  files: CheckpointFile[];
  skipped: CheckpointSkipped[];
}

export interface CheckpointServiceOptions {
  /** The shadow repositories and the checkpoint list live here (the host's state folder). */
  dir: string;
  /** The workspace folder: the shadow repositories' work tree. */
  workspace: string;
  /** Restores go through it (the VS Code backend edits open documents, so undo survives); asked on first use. */
  fs: () => FsBackend;
  logger: Logger;
  /** Workspace-relative paths of these that have unsaved editor changes (a conflict; VS Code answers). */
  unsavedFiles?: (paths: readonly string[]) => Promise<readonly string[]> | readonly string[];
  /** Absolute paths a restore rewrote or deleted (the read-before-write ledger forgets them). */
  restored?: (absPaths: readonly string[]) => void;
  maxFileBytes?: number;
  /** Checkpoints kept (oldest dropped first). */
  maxCheckpoints?: number;
  /** How long after checkpoints were dropped their objects are pruned (decision 337). */
  pruneDelayMs?: number;
  /** How long a turn waits for its before-snapshot (turnWait.ts). */
  beforeTurnWaitMs?: number;
}

const INDEX_FILE = 'checkpoints.json';
const DEFAULT_MAX_CHECKPOINTS = 500;
/** Dropped checkpoints are pruned this long after the last drop (one prune for a burst of them). */
const DEFAULT_PRUNE_DELAY_MS = 5_000;

export class CheckpointService {
  readonly repos: WorkspaceRepos;
  private records: CheckpointRecord[] = [];
  /** Turns between their snapshots; `overlap`: other sessions whose turns or rewinds ran meanwhile. */
  private readonly pending = new Map<string, { before: Trees; skipped: CheckpointSkipped[]; at: string; overlap: Set<string> }>();
  /** Turns that went on without their before-snapshot (beforeTurn, decision 626). */
  private readonly lateTurns = new Set<string>();
  /**
   * Turns the previous process left between their snapshots (it was killed mid-turn): kept in the
   * index, so a restored session gets their checkpoints (`recoverInterrupted`, decision 617).
   */
  private interrupted: PendingRecord[] = [];
  /** Every git operation of the workspace, one after another (one index per shadow repository). */
  private queue: Promise<unknown> = Promise.resolve();

  private backend?: FsBackend;
  private pruneTimer?: NodeJS.Timeout;
  private disposed = false;

  /** The workspace folder the checkpoints' paths are relative to. */
  get workspace(): string {
    return this.options.workspace;
  }

  constructor(private readonly options: CheckpointServiceOptions) {
    this.repos = new WorkspaceRepos(options.dir, options.workspace, options.maxFileBytes);
    const index = loadIndex(join(options.dir, INDEX_FILE), options.logger);
    this.records = index.records;
    this.interrupted = index.pending;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every git operation queued so far has ended (the host awaits it on shutdown). */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /**
   * The first snapshot of a workspace hashes every file (seconds for 10,000 of them): taken when a
   * session starts, in the background, so the first turn only stages what changed since.
   */
  warm(): Promise<void> {
    return this.serial(async () => {
      await this.repos.snapshot();
    }).catch((e: unknown) => this.options.logger.warn('checkpoints: the first snapshot failed', { error: String(e) }));
  }

  /**
   * Before the agent sees the prompt: the workspace as it is now. A turn waits for it at most
   * `beforeTurnWaitMs` (turnWait.ts); later, the turn goes on without a checkpoint. Resolves
   * `late` then (the caller says so), else `taken`.
   */
  async beforeTurn(session_id: string, turn_id: string): Promise<'taken' | 'late'> {
    const key = `${session_id}\n${turn_id}`;
    let late = false; // (lateTurns loses the key when the turn ends first)
    const taken = this.serial(async () => {
      const s = await this.repos.snapshot();
      if (late) return; // the turn went on: the agent may have written while this read
      const overlap = new Set<string>();
      // Another session's turn is running in this workspace: each sees the other's writes (decision 339).
      for (const [key, other] of this.pending) {
        const other_id = key.slice(0, key.indexOf('\n'));
        if (other_id === session_id) continue;
        overlap.add(other_id);
        other.overlap.add(session_id);
      }
      this.pending.set(key, { before: s.trees, skipped: s.skipped, at: new Date().toISOString(), overlap });
      // On disk too: a process killed before the after-snapshot leaves it for the next (decision 617).
      this.save();
    });
    if ((await settledWithin(taken, this.options.beforeTurnWaitMs ?? BEFORE_TURN_WAIT_MS, () => ((late = true), this.lateTurns.add(key)))) === 'late') {
      taken.catch(() => undefined); // its failure now is the next snapshot's to meet
      return 'late';
    }
    await taken; // its failure is the caller's
    return 'taken';
  }

  /**
   * The checkpoints of `session_id`'s turns that the previous process never finished (killed
   * between the snapshots): each from its before-snapshot to the workspace as it is now. Without
   * them a cut-off turn's edits were nobody's, and read as someone else's conflict on a rewind.
   */
  recoverInterrupted(session_id: string): Promise<CheckpointRecord[]> {
    return this.serial(async () => {
      const mine = this.interrupted.filter((p) => p.session_id === session_id);
      if (mine.length === 0) return [];
      this.interrupted = this.interrupted.filter((p) => p.session_id !== session_id);
      const out: CheckpointRecord[] = [];
      const s = await this.repos.snapshot();
      for (const p of mine) {
        const rec = await this.turnRecord(session_id, p.turn_id, p, s, false);
        if (!rec) continue;
        this.add(rec);
        out.push(rec);
      }
      this.save();
      return out;
    });
  }

  /** After the turn: its checkpoint, or undefined when it changed nothing (or had no snapshot before). */
  afterTurn(session_id: string, turn_id: string): Promise<CheckpointRecord | undefined> {
    // A turn that went on without its before-snapshot has no checkpoint: its end never waits
    // behind that snapshot, still running in the queue (decision 626).
    if (this.lateTurns.delete(`${session_id}\n${turn_id}`)) return Promise.resolve(undefined);
    return this.serial(async () => {
      const key = `${session_id}\n${turn_id}`;
      const p = this.pending.get(key);
      if (!p) return undefined;
      this.pending.delete(key);
      this.save();
      const rec = await this.turnRecord(session_id, turn_id, p, await this.repos.snapshot(), p.overlap.size > 0);
      if (rec) this.add(rec);
      return rec;
    });
  }

  /**
   * A turn's checkpoint from its before-snapshot to `now`, or undefined when it changed nothing.
   * `concurrent`: honest, not exact (decision 339) — another session's turn ran here meanwhile, so
   * any of these files may be that session's change; marked, they are conflicts for its rewind.
   */
  private async turnRecord(session_id: string, turn_id: string, p: { before: Trees; skipped: CheckpointSkipped[]; at: string }, now: WorkspaceSnapshot, concurrent: boolean): Promise<CheckpointRecord | undefined> {
    const { changed, lost } = notKeptBefore(await this.repos.changes(p.before, now.trees), p.skipped, now.skipped);
    const files = concurrent ? changed.map((f) => ({ ...f, concurrent: true })) : changed;
    const before = new Set(p.skipped.map((k) => k.path));
    const skipped = [...now.skipped.filter((k) => !before.has(k.path)), ...lost];
    if (files.length === 0 && skipped.length === 0) return undefined;
    return { checkpoint_id: newId(), session_id, kind: 'turn', turn_id, created_at: p.at, before: p.before, after: now.trees, files, skipped };
  }

  /** A turn that ended without its after-snapshot (the session ended meanwhile). */
  dropPending(session_id: string): void {
    for (const k of [...this.pending.keys()]) if (k.startsWith(`${session_id}\n`)) this.pending.delete(k);
    this.save();
  }

  list(session_id: string): CheckpointRecord[] {
    return this.records.filter((r) => r.session_id === session_id);
  }

  get(checkpoint_id: string): CheckpointRecord | undefined {
    return this.records.find((r) => r.checkpoint_id === checkpoint_id);
  }

  /** A file's text before or after the checkpoint's turn; undefined where it did not exist. */
  textAt(checkpoint_id: string, path: string, side: 'before' | 'after'): Promise<string | undefined> {
    return this.serial(async () => {
      const rec = this.get(checkpoint_id);
      if (!rec) throw new Error(`no checkpoint ${checkpoint_id}`);
      const entry = (await this.repos.entries(side === 'before' ? rec.before : rec.after)).get(path);
      return entry ? this.repos.text(entry.prefix, entry.blob) : undefined;
    });
  }

  /**
   * Rewind to before the checkpoint's turn: every file it and the session's later checkpoints
   * changed (or only `paths` of them). Conflicts are left untouched unless listed in `force`.
   */
  restore(checkpoint_id: string, opts: { force?: readonly string[]; paths?: readonly string[] } = {}): Promise<RestoreResult> {
    return this.serial(async () => {
      const rec = this.get(checkpoint_id);
      if (!rec) return { checkpoint_id, restored: [], conflicts: [], failed: [], error: { code: 'CHECKPOINT_NOT_FOUND', message: `no checkpoint ${checkpoint_id}` } };
      // A turn's rewind covers the turns after it too; undoing a rewind puts back only what that
      // rewind changed — the later turns' work stays (the trial of 2026-12-05 lost a file to it).
      const all = this.list(rec.session_id);
      const chain = rec.kind === 'rewind' ? [rec] : all.slice(all.indexOf(rec));
      const plan = await planRestore(this.repos, this.workspaceFs(), chain, {
        ...opts,
        unsaved: this.options.unsavedFiles,
      });
      if (plan.todo.length === 0) return { checkpoint_id, restored: plan.unchanged, unchanged: plan.unchanged, conflicts: plan.conflicts, failed: plan.failed };
      // A rewind's writes land in the checkpoints of other sessions' running turns: they are told.
      for (const [key, other] of this.pending) if (!key.startsWith(`${rec.session_id}\n`)) other.overlap.add(rec.session_id);
      // Undoable: the state before the rewind is a checkpoint of its own.
      const before = await this.repos.snapshot();
      const applied = await applyRestore(this.repos, this.workspaceFs(), this.options.workspace, plan);
      const after = await this.repos.snapshot();
      const files = await this.repos.changes(before.trees, after.trees);
      let undo: string | undefined;
      if (files.length > 0) {
        const r: CheckpointRecord = { checkpoint_id: newId(), session_id: rec.session_id, kind: 'rewind', rewound: checkpoint_id, created_at: new Date().toISOString(), before: before.trees, after: after.trees, files, skipped: [] };
        this.add(r);
        undo = r.checkpoint_id;
      }
      const written = applied.restored.map((p) => join(this.options.workspace, p));
      if (written.length > 0) {
        try {
          this.options.restored?.(written);
        } catch (e) {
          this.options.logger.warn('checkpoints: a restore listener failed', { error: String(e) });
        }
      }
      return {
        checkpoint_id,
        restored: [...plan.unchanged, ...applied.restored].sort(),
        unchanged: plan.unchanged,
        conflicts: [...plan.conflicts, ...applied.conflicts].sort(),
        failed: [...plan.failed, ...applied.failed],
        ...(undo ? { undo_checkpoint_id: undo } : {}),
      };
    });
  }

  /** The session ended for good (deleted): its checkpoints go, and their objects soon after. */
  forgetSession(session_id: string): void {
    this.interrupted = this.interrupted.filter((p) => p.session_id !== session_id);
    this.dropPending(session_id);
    const before = this.records.length;
    this.records = this.records.filter((r) => r.session_id !== session_id);
    if (this.records.length !== before) {
      this.save();
      this.schedulePrune();
    }
  }

  /**
   * Deletes the shadow objects no kept checkpoint (nor a turn's pending before-snapshot) needs
   * (decision 337). Queued like every git operation, so it never runs during a snapshot; a turn
   * that started meanwhile keeps its before-trees. Returns once it has run.
   */
  prune(): Promise<void> {
    return this.serial(async () => {
      const keep = [...this.records.flatMap((r) => [r.before, r.after]), ...[...this.pending.values()].map((p) => p.before), ...this.interrupted.map((p) => p.before)];
      await this.repos.prune(keep);
    });
  }

  /** Stops the pending prune timer (the host is shutting down). */
  dispose(): void {
    this.disposed = true;
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    this.pruneTimer = undefined;
  }

  /** One prune, a while after the last drop, in the background; a failure is logged, never thrown. */
  private schedulePrune(): void {
    if (this.disposed) return;
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    this.pruneTimer = setTimeout(() => {
      this.pruneTimer = undefined;
      // A turn is between its snapshots: wait for it (its after-snapshot should not queue behind a prune).
      if (this.pending.size > 0) return this.schedulePrune();
      this.prune().catch((e: unknown) => this.options.logger.warn('checkpoints: pruning the shadow repository failed', { error: String(e) }));
    }, this.options.pruneDelayMs ?? DEFAULT_PRUNE_DELAY_MS);
    this.pruneTimer.unref();
  }

  /** The workspace as the tools see it (the editor's backend, or a Node one): pinned, no symlinks followed. */
  workspaceFs(): FsBackend {
    return (this.backend ??= this.options.fs());
  }

  private add(rec: CheckpointRecord): void {
    this.records.push(rec);
    const max = this.options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS;
    if (this.records.length > max) {
      this.records.splice(0, this.records.length - max);
      this.schedulePrune();
    }
    this.save();
  }

  /**
   * Written at once (like the session index): the list is small, and a write queued behind the
   * thread pool's other file work could still be pending when the host stops.
   */
  private save(): void {
    try {
      mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
      const pending: PendingRecord[] = [...this.interrupted, ...[...this.pending].map(([key, p]) => ({ session_id: key.slice(0, key.indexOf('\n')), turn_id: key.slice(key.indexOf('\n') + 1), before: p.before, skipped: p.skipped, at: p.at }))];
      writeFileAtomic.sync(join(this.options.dir, INDEX_FILE), `${JSON.stringify({ rawp_checkpoints: 1, records: this.records, ...(pending.length > 0 ? { pending } : {}) })}\n`, { mode: 0o600 });
    } catch (e) {
      this.options.logger.warn('checkpoints: the list could not be saved', { error: String(e) });
    }
  }

}

/**
 * The files the before-snapshot did not keep (large, binary, symlinks) that the turn deleted or
 * replaced with a file it keeps (decision 612). Their old bytes are in no snapshot: they are
 * reported as lost (`change`), and a replaced one is not a "created" file a rewind would delete.
 */
function notKeptBefore(changes: CheckpointFile[], skippedBefore: readonly CheckpointSkipped[], skippedAfter: readonly CheckpointSkipped[]): { changed: CheckpointFile[]; lost: CheckpointSkipped[] } {
  const after = new Set(skippedAfter.map((k) => k.path));
  const created = new Set(changes.filter((f) => f.change === 'created').map((f) => f.path));
  // A path the before-snapshot kept too names another file: one whose name is not UTF-8 decodes to
  // a kept file's name (decision 338). Such a name cannot be told apart, so it is never called lost.
  const keptBefore = new Set(changes.flatMap((f) => (f.change === 'created' ? [] : [f.from ?? f.path])));
  const lost: CheckpointSkipped[] = [];
  const replaced = new Set<string>();
  for (const k of skippedBefore) {
    if (after.has(k.path) || keptBefore.has(k.path) || k.note !== undefined) continue;
    if (created.has(k.path)) replaced.add(k.path);
    lost.push({ ...k, change: created.has(k.path) ? 'modified' : 'deleted' });
  }
  return { changed: replaced.size > 0 ? changes.filter((f) => !(f.change === 'created' && replaced.has(f.path))) : changes, lost };
}

/** A turn between its snapshots, as the index keeps it. */
interface PendingRecord {
  session_id: string;
  turn_id: string;
  before: Trees;
  skipped: CheckpointSkipped[];
  at: string;
}

function loadIndex(file: string, logger: Logger): { records: CheckpointRecord[]; pending: PendingRecord[] } {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { rawp_checkpoints?: number; records?: unknown; pending?: unknown };
    if (data.rawp_checkpoints !== 1 || !Array.isArray(data.records)) return { records: [], pending: [] };
    const records = data.records.filter((r): r is CheckpointRecord => typeof r === 'object' && r !== null && typeof (r as CheckpointRecord).checkpoint_id === 'string' && typeof (r as CheckpointRecord).before === 'object');
    const pending = (Array.isArray(data.pending) ? data.pending : []).filter(
      (p): p is PendingRecord => typeof p === 'object' && p !== null && typeof (p as PendingRecord).session_id === 'string' && typeof (p as PendingRecord).turn_id === 'string' && typeof (p as PendingRecord).before === 'object' && Array.isArray((p as PendingRecord).skipped),
    );
    return { records, pending };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn('checkpoints: the saved list could not be read; starting empty', { error: String(e) });
    return { records: [], pending: [] };
  }
}
