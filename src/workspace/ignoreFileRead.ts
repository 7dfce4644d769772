// Reads one ignore file (`.gitignore`, `.ignore`, `.git/info/exclude`) the way git does since 2.32
// (open_nofollow, a regular file only): a symlink there is not followed, a FIFO or device is not
// read, and at most MAX_IGNORE_FILE_BYTES are (decision 711). A `.gitignore` linked to /dev/zero
// made readFileSync read forever (6 GB, SIGTERM ignored); inside a git clone git already refused it,
// so both listings now agree. Synchronous, as the rules are read lazily per directory from
// synchronous checks: openFileInSync's open never waits (O_NONBLOCK) and reads of a regular file
// of bounded length do not either.
import { closeSync, lstatSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FsError } from './fsBackend';
import { MAX_IGNORE_FILE_BYTES, warnIgnore } from './ignoreLimits';
import { openFileInSync, type PinnedDir } from './pinnedDir';

/**
 * The parent of `abs` by its plain path: only the leaf is opened without following links (the
 * callers reach ignore files through directories they listed without following links themselves).
 */
function plainParent(abs: string): PinnedDir {
  const self = dirname(abs);
  return { self, child: (name) => join(self, name), isAt: async () => true, close: async () => {} };
}

function why(e: unknown): string {
  if (e instanceof FsError && e.code === 'FS_OUTSIDE_WORKSPACE') return 'it is a symbolic link, not followed';
  if (e instanceof FsError && e.code === 'FS_IS_DIRECTORY') return 'it is a directory';
  if (e instanceof FsError && e.message.endsWith('is not a regular file')) return 'it is not a regular file (a FIFO, socket or device)';
  return e instanceof Error ? e.message : String(e);
}

/**
 * The text of the ignore file `abs` (`label` names it in notices), undefined when there is none
 * or it is not read. Past MAX_IGNORE_FILE_BYTES only the whole lines before the bound are kept, so
 * the rules in use are the file's first ones (as with the rule limits of gitignoreMatcher.ts).
 */
export function readIgnoreFile(abs: string, label = abs): string | undefined {
  // Most folders have no ignore file: answered without an exception (a failed open costs two).
  // Any other failure is left to the open below, which says what it is.
  try {
    if (!lstatSync(abs, { throwIfNoEntry: false })) return undefined;
  } catch {
    // ENOTDIR, EACCES, …
  }
  let fd: number;
  try {
    fd = openFileInSync(plainParent(abs), basename(abs), abs).fd;
  } catch (e) {
    // Absent is the usual case; anything else (a link, a FIFO, no permission) git reports too.
    if (!(e instanceof FsError && e.code === 'FS_NOT_FOUND')) warnIgnore(`ignore file ${label} not read: ${why(e)}`);
    return undefined;
  }
  let buf: Buffer;
  let n = 0;
  try {
    // One byte over the bound tells a file that is longer; a small file gets a small buffer.
    buf = Buffer.allocUnsafe(4096);
    for (;;) {
      if (n === buf.length) {
        if (buf.length > MAX_IGNORE_FILE_BYTES) break;
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 4, MAX_IGNORE_FILE_BYTES + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
  } catch (e) {
    warnIgnore(`ignore file ${label} not read: ${why(e)}`);
    return undefined;
  } finally {
    closeSync(fd);
  }
  if (n <= MAX_IGNORE_FILE_BYTES) return buf.toString('utf8', 0, n);
  const lastLine = buf.lastIndexOf(0x0a, MAX_IGNORE_FILE_BYTES - 1);
  warnIgnore(`ignore file ${label} is longer than ${MAX_IGNORE_FILE_BYTES} bytes: only the lines of its first ${MAX_IGNORE_FILE_BYTES} are used`);
  return buf.toString('utf8', 0, Math.max(0, lastLine));
}
