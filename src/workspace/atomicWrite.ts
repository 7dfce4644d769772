// How the Node backend (nodeFsBackend.ts) puts bytes in place: a temp file beside the target in
// the pinned directory (pinnedDir.ts), then a rename — or, when the file must not exist yet, a
// link(), which fails atomically when someone created it meanwhile. The old file mode is kept; a
// half-written file is never visible, and a failed write leaves no temp file behind.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { FsError } from './fsBackend';
import { lstatOrUndefined, toFsError } from './nodeFsErrors';
import type { PinnedDir } from './pinnedDir';

/** Marks our temp files: listings and watchers leave them out. */
export const TEMP_MARK = '.rawp-tmp-';

export interface AtomicWrite {
  dir: PinnedDir;
  leaf: string;
  /** The target's absolute path (for checks and messages). */
  abs: string;
  bytes: Buffer;
  /** The old file's mode, kept exactly. */
  mode: number | undefined;
  /** Never clobber: the file must not exist when the write lands. */
  exclusive: boolean;
  /** Checks the path again right before writing (where handles cannot be pinned). */
  recheck?: () => Promise<unknown>;
  /**
   * Is the target still as the caller read it? Asked after the temp file is written and synced,
   * right before the rename; when false, `changed()` is thrown and nothing replaces the target.
   */
  unchanged?: () => Promise<boolean>;
  changed?: () => Error;
}

export async function atomicWrite({ dir, leaf, abs, bytes, mode, exclusive, recheck, unchanged, changed }: AtomicWrite): Promise<void> {
  // Without handle pinning, check the path again right before writing: a parent swapped for a
  // symlink since the first check must not carry the write outside the workspace.
  if (recheck) await recheck();
  const tmp = dir.child(`.${leaf}${TEMP_MARK}${randomBytes(6).toString('hex')}`);
  const target = dir.child(leaf);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(tmp, 'wx', mode !== undefined ? mode & 0o7777 : 0o666);
    await handle.writeFile(bytes);
    // open() honours the umask; chmod restores the exact bits the old file had.
    if (mode !== undefined) await handle.chmod(mode & 0o7777);
    await handle.sync();
    await handle.close();
    handle = undefined;
    // The directory was swapped or moved away while we wrote: the write would land where the
    // caller does not expect it (still inside the workspace — the handle saw to that). Refuse.
    if (!(await dir.isAt(dirname(abs)))) throw new FsError(`"${dirname(abs)}" was moved or replaced (by a symlink?) during the write; nothing was written`, 'FS_OUTSIDE_WORKSPACE');
    // Someone else wrote the file since the caller read it (the caller's lock is ours alone): a
    // rename now would drop their bytes. The window left is this check to the rename, microseconds.
    if (unchanged && !(await unchanged())) throw changed ? changed() : new FsError(`"${abs}" changed meanwhile; nothing was written`, 'FS_STALE_VERSION');
    if (exclusive) {
      // link() fails with EEXIST if someone created the file since our check: never clobber it.
      await linkOrRename(tmp, target);
    } else {
      await fsp.rename(tmp, target);
    }
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fsp.unlink(tmp).catch(() => undefined);
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new FsError(`"${abs}" was created by someone else meanwhile`, 'FS_EXISTS');
    throw toFsError(e, abs);
  }
}

/** link() where the file system has hard links; else a re-checked rename (a tiny race, but never a half file). */
async function linkOrRename(tmp: string, abs: string): Promise<void> {
  try {
    await fsp.link(tmp, abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e;
    if (await lstatOrUndefined(abs)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    await fsp.rename(tmp, abs);
    return;
  }
  await fsp.unlink(tmp);
}
