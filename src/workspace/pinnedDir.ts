// Directory handles that cannot be swapped under us (issue 12 finding 3: swapping `workspace/sub`
// with a symlink to an outside folder while the agent read and wrote under it returned outside
// files and created files outside). Node has no openat(), but Linux's /proc/self/fd/N names the
// directory an open descriptor holds: a path below it resolves from that very directory, whatever
// was renamed or swapped since. So a path is walked from the workspace root one component at a
// time, each opened with O_NOFOLLOW | O_DIRECTORY below the previous handle — no symlink is ever
// followed, and every later read, temp-file creation, rename or unlink happens in the directory
// that was checked. Elsewhere (no /proc) it falls back to checked plain paths
// (docs/decisions/183-path-race-safety.md).
import { closeSync, constants, existsSync, fstatSync, openSync, promises as fsp, type Stats } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { FsError, notFoundError } from './fsBackend';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
/** A file opened for reading: never through a symlink leaf, never blocking on a FIFO. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK;

/** True where /proc/self/fd gives openat-like resolution (Linux). */
export const HANDLE_PINNING = process.platform === 'linux' && existsSync('/proc/self/fd');

export interface PinnedDir {
  /** A path that names `name` inside the pinned directory (never through a symlink on the way). */
  child(name: string): string;
  /** A path that names the pinned directory itself. */
  readonly self: string;
  /** Is the pinned directory still at `expected` (not moved or swapped away since it was opened)? */
  isAt(expected: string): Promise<boolean>;
  close(): Promise<void>;
}

class HandleDir implements PinnedDir {
  constructor(private readonly handle: fsp.FileHandle) {}
  get self(): string {
    return `/proc/self/fd/${this.handle.fd}`;
  }
  child(name: string): string {
    return `${this.self}/${name}`;
  }
  async isAt(expected: string): Promise<boolean> {
    return (await fsp.readlink(this.self).catch(() => undefined)) === expected;
  }
  close(): Promise<void> {
    return this.handle.close().catch(() => undefined);
  }
}

class PlainDir implements PinnedDir {
  constructor(readonly self: string) {}
  child(name: string): string {
    return join(this.self, name);
  }
  async isAt(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

function refuseLink(abs: string, at: string): FsError {
  return new FsError(`"${abs}" goes through the symlink "${at}"; symlinks are refused because they can point outside the workspace`, 'FS_OUTSIDE_WORKSPACE');
}

/**
 * Opens the directory `dirAbs` (inside `root`) without following any symlink. `create` makes the
 * missing directories, each inside its checked parent. Throws FS_OUTSIDE_WORKSPACE for a symlink
 * on the way and FS_NOT_FOUND for a missing (or non-directory) component.
 */
export async function pinDirectory(root: string, dirAbs: string, opts: { create?: boolean; what?: string } = {}): Promise<PinnedDir> {
  const what = opts.what ?? dirAbs;
  const parts = relative(root, dirAbs).split(sep).filter(Boolean);
  if (!HANDLE_PINNING) return new PlainDir(await plainWalk(root, parts, what, opts.create === true));
  let cur: HandleDir;
  try {
    cur = new HandleDir(await fsp.open(root, O_RDONLY | O_DIRECTORY));
  } catch (e) {
    throw walkError(e, root, what);
  }
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = cur.child(part);
    let handle: fsp.FileHandle | undefined;
    let created = false;
    // Bounded retries: a component that was a symlink at open() and a directory at the lstat()
    // after it is being swapped right now; it is opened again, never followed.
    for (let attempt = 0; attempt < 4 && !handle; attempt++) {
      try {
        handle = await fsp.open(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && opts.create && !created) {
          created = true;
          await fsp.mkdir(next).catch((m: NodeJS.ErrnoException) => {
            if (m.code !== 'EEXIST') throw walkError(m, join(dirAbs), what);
          });
          continue;
        }
        const st = code === 'ELOOP' || code === 'ENOTDIR' ? await fsp.lstat(next).catch(() => undefined) : undefined;
        if (st?.isDirectory()) continue;
        await cur.close();
        if (st?.isSymbolicLink() || code === 'ELOOP' || (code === 'ENOTDIR' && st === undefined)) throw refuseLink(what, join(root, ...parts.slice(0, i + 1)));
        throw walkError(e, dirAbs, what);
      }
    }
    if (!handle) {
      await cur.close();
      throw refuseLink(what, join(root, ...parts.slice(0, i + 1)));
    }
    await cur.close();
    cur = new HandleDir(handle);
  }
  return cur;
}

/** The fallback: lstat each component (a window remains between this check and the use). */
async function plainWalk(root: string, parts: string[], what: string, create: boolean): Promise<string> {
  let cur = root;
  for (const part of parts) {
    cur = join(cur, part);
    let st = await fsp.lstat(cur).catch(() => undefined);
    if (!st && create) {
      await fsp.mkdir(cur).catch((m: NodeJS.ErrnoException) => {
        if (m.code !== 'EEXIST') throw walkError(m, cur, what);
      });
      st = await fsp.lstat(cur).catch(() => undefined);
    }
    if (!st || !st.isDirectory()) {
      if (st?.isSymbolicLink()) throw refuseLink(what, cur);
      throw notFoundError(what);
    }
  }
  return cur;
}

function walkError(e: unknown, at: string, what: string): FsError {
  if (e instanceof FsError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return notFoundError(what);
  if (code === 'EISDIR') return new FsError(`"${what}" is a directory`, 'FS_IS_DIRECTORY');
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new FsError(`permission denied: "${at}"`, 'FS_PERMISSION');
  return new FsError(`I/O error on "${at}": ${(e as Error).message}`, 'FS_IO');
}

/**
 * The bytes of the regular file `name` in `dir`: never through a symlink leaf (O_NOFOLLOW), never
 * blocking on a FIFO (O_NONBLOCK); FS_IS_DIRECTORY for a directory, FS_NOT_FOUND when absent.
 */
export async function readFileIn(dir: PinnedDir, name: string, abs: string): Promise<Buffer> {
  const { handle } = await openFileIn(dir, name, abs);
  try {
    return await handle.readFile();
  } catch (e) {
    throw walkError(e, abs, abs);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens the regular file `name` of the pinned `dir` for reading: never through a symlink leaf
 * (O_NOFOLLOW, FS_OUTSIDE_WORKSPACE), never blocking on a FIFO (O_NONBLOCK); FS_IS_DIRECTORY for a
 * directory, FS_IO for anything else that is not a regular file, FS_NOT_FOUND when absent.
 */
export async function openFileIn(dir: PinnedDir, name: string, abs: string): Promise<{ handle: fsp.FileHandle; stats: Stats }> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(dir.child(name), READ_FLAGS);
  } catch (e) {
    throw openError(e, abs);
  }
  const stats = await handle.stat().catch(async (e: unknown) => {
    await handle.close().catch(() => undefined);
    throw walkError(e, abs, abs);
  });
  const wrong = notRegular(stats, abs);
  if (wrong) {
    await handle.close().catch(() => undefined);
    throw wrong;
  }
  return { handle, stats };
}

/**
 * openFileIn in this thread, for readers of many small files (a checkpoint's snapshot): the same
 * open, checks and errors, a descriptor the caller closes (closeSync). Each step is one system
 * call on a local file; the caller keeps its stretches of them short.
 */
export function openFileInSync(dir: PinnedDir, name: string, abs: string): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(dir.child(name), READ_FLAGS);
  } catch (e) {
    throw openError(e, abs);
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw walkError(e, abs, abs);
  }
  const wrong = notRegular(stats, abs);
  if (wrong) {
    closeSync(fd);
    throw wrong;
  }
  return { fd, stats };
}

function openError(e: unknown, abs: string): FsError {
  if ((e as NodeJS.ErrnoException).code === 'ELOOP') return new FsError(`refusing to follow the symlink "${abs}"`, 'FS_OUTSIDE_WORKSPACE');
  return walkError(e, abs, abs);
}

/** Why an opened `abs` is not a file to read, or undefined when it is a regular file. */
function notRegular(stats: Stats, abs: string): FsError | undefined {
  if (stats.isFile()) return undefined;
  return stats.isDirectory() ? new FsError(`"${abs}" is a directory`, 'FS_IS_DIRECTORY') : new FsError(`"${abs}" is not a regular file`, 'FS_IO');
}

/**
 * Opens the regular file `abs` inside `root` for reading without following any symlink on the way
 * (each directory pinned, the leaf O_NOFOLLOW | O_NONBLOCK). For readers outside the FsBackend
 * that were handed a checked path (file references, §16.4): the check and the open are one.
 */
export async function openInsideNoFollow(root: string, abs: string): Promise<fsp.FileHandle> {
  const dir = await pinDirectory(root, dirname(abs), { what: abs });
  try {
    return (await openFileIn(dir, basename(abs), abs)).handle;
  } finally {
    await dir.close();
  }
}
