// node:fs errors as the FsBackend contract names them (FsError codes), and the lstat that says
// "not there" instead of throwing. Shared by the Node backend's parts (nodeFsBackend.ts,
// atomicWrite.ts, rootGuard.ts).
import { promises as fsp, type Stats } from 'node:fs';
import { FsError, notFoundError } from './fsBackend';

export function toFsError(e: unknown, path: string): FsError {
  if (e instanceof FsError) return e;
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return notFoundError(path);
    case 'EISDIR':
      return new FsError(`"${path}" is a directory`, 'FS_IS_DIRECTORY');
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new FsError(`permission denied: "${path}"`, 'FS_PERMISSION');
    case 'EEXIST':
      return new FsError(`"${path}" already exists`, 'FS_EXISTS');
    default:
      return new FsError(`I/O error on "${path}": ${err.message ?? String(e)}`, 'FS_IO');
  }
}

/** lstat, or undefined when nothing is there (ENOENT, ENOTDIR); other failures as FsError. */
export async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fsp.lstat(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw toFsError(e, p);
  }
}

/**
 * What identifies one state of a file without reading it: device, inode, size, and the change and
 * modification times in nanoseconds. Any write by anyone changes it (ctime moves on every write and
 * chmod); undefined when nothing is there.
 */
export async function fileSignature(p: string): Promise<string | undefined> {
  try {
    const st = await fsp.lstat(p, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw toFsError(e, p);
  }
}
