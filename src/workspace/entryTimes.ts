// The Node backend's `times` (decision 587): the modification times of many paths for Glob's
// newest-first order, with no content read. A `stat` of the backend walks the path for symlinks,
// pins the parent directory and hashes the whole file for its version (fileVersion.ts): 20,000
// small files took 7–11 s, a folder of big files its whole size in reads, and one unreadable file
// failed the Glob although only its time was wanted. Here each folder is pinned once (pinnedDir.ts:
// opened component by component with O_NOFOLLOW, so no symlink on the way is followed) and each of
// its entries is one lstat in it — the leaf is never followed and never opened.
import { promises as fsp } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { FsError, NO_TIME_CODES, type FsEntryType, type FsTime } from './fsBackend';
import { inPool } from './inPool';
import { toFsError } from './nodeFsErrors';
import { pinDirectory, type PinnedDir } from './pinnedDir';
import { MAX_PATH_CHARS, pathTooLongMessage } from './resolvePath';
import type { RootGuard } from './rootGuard';

/** Folders pinned at once: up to two descriptors each while pinning, one after. */
const DIRS_IN_FLIGHT = 4;
/** lstats in flight per pinned folder. libuv runs 4 at a time; a few more keep its threads fed. */
const LSTATS_IN_FLIGHT = 8;

/** What refuses an entry's lstat without being an error of the whole call: no time to give. */
const NO_TIME_ERRNO: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

export function entryType(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FsEntryType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

/** The times of `paths` (FsBackend.times) inside `guard`'s roots; outside ones too when `allowOutside`. */
export async function entryTimes(guard: RootGuard, allowOutside: boolean, paths: readonly string[], signal?: AbortSignal): Promise<(FsTime | undefined)[]> {
  // Every path is refused or accepted before the first syscall, so a refusal has touched nothing.
  const abs = paths.map((p) => placed(guard, allowOutside, p));
  const out = new Array<FsTime | undefined>(paths.length).fill(undefined);
  const byDir = new Map<string, number[]>();
  for (let i = 0; i < abs.length; i++) {
    const dir = dirname(abs[i]);
    const group = byDir.get(dir);
    if (group) group.push(i);
    else byDir.set(dir, [i]);
  }
  const groups = [...byDir];
  await inPool(DIRS_IN_FLIGHT, groups.length, signal, async (g) => {
    const [dir, members] = groups[g];
    const pinned = await pin(guard, allowOutside, dir);
    if (!pinned) return; // gone, denied or a symlink on the way: none of its entries has a time
    try {
      await inPool(LSTATS_IN_FLIGHT, members.length, signal, async (m) => {
        const i = members[m];
        out[i] = await timeIn(pinned, abs[i]);
      });
    } finally {
      await pinned.close();
    }
  });
  return out;
}

/**
 * `path` absolute, refused as RootGuard.resolve refuses it (same codes and words) but without its
 * lstat of every component for every path: the folder's pinning refuses symlinks on the way, once
 * per folder instead of once per file.
 */
function placed(guard: RootGuard, allowOutside: boolean, path: string): string {
  if (typeof path === 'string' && path.length > MAX_PATH_CHARS) throw new FsError(pathTooLongMessage(path), 'FS_OUTSIDE_WORKSPACE');
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw new FsError(`invalid path ${JSON.stringify(path)}`, 'FS_OUTSIDE_WORKSPACE');
  const abs = isAbsolute(path) ? resolve(path) : resolve(guard.roots[0], path);
  if (!allowOutside && !guard.contains(abs)) throw new FsError(`"${path}" is outside the workspace (${guard.roots.join(', ')})`, 'FS_OUTSIDE_WORKSPACE');
  return abs;
}

/**
 * The folder `dir` opened without following a symlink, walked from its root as `stat` walks it
 * (from '/' for an allowed outside path; a root's parent, holding the root itself, as it is).
 * Undefined when its entries have no time to give.
 */
async function pin(guard: RootGuard, allowOutside: boolean, dir: string): Promise<PinnedDir | undefined> {
  const from = guard.contains(dir) ? guard.rootOf(dir) : allowOutside ? '/' : dir;
  try {
    return await pinDirectory(from, dir);
  } catch (e) {
    if (e instanceof FsError && NO_TIME_CODES.has(e.code)) return undefined;
    throw e;
  }
}

/** One lstat of `abs`'s name in its pinned folder: a symlink is reported, not followed. */
async function timeIn(dir: PinnedDir, abs: string): Promise<FsTime | undefined> {
  try {
    const st = await fsp.lstat(dir.child(basename(abs)));
    return { type: entryType(st), size: st.size, mtimeMs: st.mtimeMs };
  } catch (e) {
    if (NO_TIME_ERRNO.has((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw toFsError(e, abs);
  }
}
