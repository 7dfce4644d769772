// The VS Code backend's `times` (decision 587): the types and modification times of many paths
// for Glob's newest-first order. One `workspace.fs.stat` per path, a few at once, and each folder
// walked for symlinks once (the backend's `checked`, which its `stat` runs for every path) — no
// content read, no version hashed. No path lock, unlike `stat`: nothing is read, so our own write
// under way gives the old time or the new, never a torn version.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { FsError, NO_TIME_CODES, type FsEntryType, type FsTime } from '../workspace/fsBackend';
import { inPool } from '../workspace/inPool';
import { toFsError } from './vscodeFsErrors';

/**
 * Stats in flight. Each holds nothing but its request; a few at once hide a provider's round trip
 * (a remote or virtual folder), and the bound keeps 20,000 matches from being 20,000 requests at once.
 */
const IN_FLIGHT = 16;

export interface TimesTarget {
  abs: string;
  uri: vscode.Uri;
  /** '' for a workspace folder itself. */
  rel: string;
}

/**
 * The stat of the folder `dir` after the backend's symlink walk: FS_OUTSIDE_WORKSPACE for a link
 * on the way (the folder itself included), undefined when it does not exist.
 */
export type CheckedFolder = (dir: string) => Promise<vscode.FileStat | undefined>;

/** FsBackend.times over targets the backend has resolved (and refused, for outside paths). */
export async function vscodeTimes(targets: readonly TimesTarget[], checkedFolder: CheckedFolder, signal?: AbortSignal): Promise<(FsTime | undefined)[]> {
  const out = new Array<FsTime | undefined>(targets.length).fill(undefined);
  const folders = new Map<string, Promise<boolean>>();
  const reachable = (dir: string): Promise<boolean> => {
    let ok = folders.get(dir);
    if (!ok) folders.set(dir, (ok = reachableFolder(checkedFolder, dir)));
    return ok;
  };
  await inPool(IN_FLIGHT, targets.length, signal, async (i) => {
    const t = targets[i];
    if (t.rel === '' || (await reachable(dirname(t.abs)))) out[i] = await timeOf(t);
  });
  return out;
}

/** One stat. A symlink gets no time: VS Code's stat of a link is its target's, which may be outside. */
async function timeOf(t: TimesTarget): Promise<FsTime | undefined> {
  let st: vscode.FileStat;
  try {
    st = await vscode.workspace.fs.stat(t.uri);
  } catch (e) {
    const err = toFsError(e, t.abs);
    if (NO_TIME_CODES.has(err.code)) return undefined;
    throw err;
  }
  if (st.type & vscode.FileType.SymbolicLink) return undefined;
  return { type: entryType(st.type), size: st.size, mtimeMs: st.mtime };
}

async function reachableFolder(checkedFolder: CheckedFolder, dir: string): Promise<boolean> {
  try {
    const st = await checkedFolder(dir);
    return st !== undefined && (st.type & vscode.FileType.Directory) !== 0;
  } catch (e) {
    if (e instanceof FsError && NO_TIME_CODES.has(e.code)) return false;
    throw e;
  }
}

function entryType(type: vscode.FileType): FsEntryType {
  if (type & vscode.FileType.File) return 'file';
  if (type & vscode.FileType.Directory) return 'directory';
  return 'other';
}
