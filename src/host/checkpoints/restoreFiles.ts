// Rewinding files to a checkpoint (issue 17 item 3, docs/decisions/334).
// Which files: every file the checkpoint and the session's later checkpoints changed (both sides
// of a rename). Where to: the checkpoint's before-state (absent there: deleted).
// A conflict — a file someone other than the agent changed after the agent did — is left alone
// unless forced. Someone else's change shows as: the file now differs from the last after-turn
// state of the chain; or it changed between two of the chain's checkpoints (a person's edit
// between turns, another session's turn); or the checkpoint marked it `concurrent` (changed while
// another session's turn ran, decision 339); or it has unsaved changes in the editor.
// Writes go through the FsBackend, guarded by the version just read, so typing that lands between
// the check and the write is a conflict too (FS_STALE_VERSION), never overwritten.
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeUtf8InTurns } from '../../workspace/bytesInTurns';
import { FsError, type FsBackend, type FsVersion } from '../../workspace/fsBackend';
import type { CheckpointRecord } from './checkpointService';
import { gitBlobId } from './looseObjects';
import type { WorkspaceRepos } from './workspaceRepos';

export interface RestoreResult {
  checkpoint_id: string;
  /** Every file now as it was before the checkpoint's turn, `unchanged` ones included. */
  restored: string[];
  /** Of `restored`, the files that already were as they were: nothing was written. */
  unchanged?: string[];
  conflicts: string[];
  failed: { path: string; message: string }[];
  undo_checkpoint_id?: string;
  error?: { code: string; message: string };
}

interface Current {
  blob?: string;
  version?: FsVersion;
  /** Something that is not a regular file is there (a symlink or a folder someone put in its place). */
  other?: true;
}

export interface RestorePlan {
  /** Files to write (`blob` set) or delete (no blob). */
  todo: { path: string; target?: { prefix: string; blob: string }; current: Current }[];
  /** Already as they were: nothing to do. */
  unchanged: string[];
  conflicts: string[];
  /** Forced, but not ours to write: something that is not a regular file is in the way. */
  failed: { path: string; message: string }[];
}

async function readCurrent(fs: FsBackend, abs: string): Promise<Current> {
  try {
    const st = await fs.stat(abs);
    if (!st) return {};
    if (st.type !== 'file') return { other: true };
    const f = await fs.readText(abs);
    return { blob: await gitBlobId(await encodeUtf8InTurns(f.text)), version: f.version };
  } catch (e) {
    if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return {};
    throw e;
  }
}

export async function planRestore(
  repos: WorkspaceRepos,
  fs: FsBackend,
  chain: readonly CheckpointRecord[],
  opts: { force?: readonly string[]; paths?: readonly string[]; unsaved?: (paths: readonly string[]) => Promise<readonly string[]> | readonly string[] },
): Promise<RestorePlan> {
  const first = chain[0];
  const last = chain[chain.length - 1];
  const wanted = opts.paths ? new Set(opts.paths) : undefined;
  const paths = new Set<string>();
  for (const r of chain) {
    for (const f of r.files) {
      for (const p of f.from !== undefined ? [f.path, f.from] : [f.path]) if (!wanted || wanted.has(p)) paths.add(p);
    }
  }
  const sorted = [...paths].sort();
  const target = await repos.entries(first.before);
  const agentState = await repos.entries(last.after);
  // Changed by someone else between two checkpoints of the chain.
  const between = new Set<string>();
  for (let i = 0; i + 1 < chain.length; i++) for (const c of await repos.changes(chain[i].after, chain[i + 1].before)) between.add(c.path).add(c.from ?? c.path);
  // Changed while another session's turn ran (decision 339): maybe that session's, so asked first.
  for (const r of chain) for (const f of r.files) if (f.concurrent) between.add(f.path).add(f.from ?? f.path);
  const unsaved = new Set(sorted.length > 0 && opts.unsaved ? await opts.unsaved(sorted) : []);
  const force = new Set(opts.force ?? []);
  const plan: RestorePlan = { todo: [], unchanged: [], conflicts: [], failed: [] };
  for (const path of sorted) {
    const current = await readCurrent(fs, join(repos.workspace, path));
    const want = target.get(path);
    // A symlink or folder in a file's place is someone's, never the turns' (they keep only files):
    // left as it is, as a conflict to choose about — not counted as rewound (the trial of 2026-12-05).
    if (current.other) {
      if (force.has(path)) plan.failed.push({ path, message: 'a symlink or a folder is in its place now; it was left as it is' });
      else plan.conflicts.push(path);
      continue;
    }
    if (current.blob === want?.blob && !unsaved.has(path)) {
      plan.unchanged.push(path);
      continue;
    }
    const conflict = current.blob !== agentState.get(path)?.blob || between.has(path) || unsaved.has(path);
    if (conflict && !force.has(path)) plan.conflicts.push(path);
    else plan.todo.push({ path, ...(want ? { target: want } : {}), current });
  }
  return plan;
}

export async function applyRestore(repos: WorkspaceRepos, fs: FsBackend, workspace: string, plan: RestorePlan): Promise<{ restored: string[]; conflicts: string[]; failed: { path: string; message: string }[] }> {
  const out = { restored: [] as string[], conflicts: [] as string[], failed: [] as { path: string; message: string }[] };
  const removedDirs = new Set<string>();
  for (const item of plan.todo) {
    const abs = join(workspace, item.path);
    try {
      if (item.target) {
        const text = await repos.text(item.target.prefix, item.target.blob);
        const guard = item.current.version !== undefined ? ({ kind: 'replaceIfVersion', version: item.current.version } as const) : ({ kind: 'createIfAbsent' } as const);
        await fs.writeText(abs, text, guard, { exact: true });
      } else if (item.current.blob !== undefined) {
        // A file the turns created: the guard is the check just made (FsBackend.delete has none).
        const now = await readCurrent(fs, abs);
        if (now.version !== item.current.version) throw new FsError(`"${item.path}" changed while it was being restored`, 'FS_STALE_VERSION');
        await fs.delete(abs);
        removedDirs.add(dirname(abs));
      }
      out.restored.push(item.path);
    } catch (e) {
      if (e instanceof FsError && (e.code === 'FS_STALE_VERSION' || e.code === 'FS_EXISTS')) out.conflicts.push(item.path);
      else out.failed.push({ path: item.path, message: e instanceof Error ? e.message : String(e) });
    }
  }
  await removeEmptyFolders(workspace, removedDirs);
  return out;
}

/** Folders the deleted files leave empty go too (the turn created them); never the workspace itself. */
async function removeEmptyFolders(workspace: string, dirs: Set<string>): Promise<void> {
  const root = join(workspace, '.');
  for (const start of [...dirs].sort((a, b) => b.length - a.length)) {
    for (let d = start; d.startsWith(root + '/') && d !== root; d = dirname(d)) {
      try {
        await fsp.rmdir(d); // fails on a folder that is not empty: that is the check
      } catch {
        break;
      }
    }
  }
}
