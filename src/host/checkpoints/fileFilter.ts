// Which files a checkpoint keeps (decision 332): UTF-8 text up to a size limit. A restore writes
// through the FsBackend, whose writes are text (and whose edits refuse non-UTF-8 files, issue 12
// finding 6), so what it could not put back is not kept either: large files, binary files (a NUL
// byte or invalid UTF-8), symlinks. Each is reported once per checkpoint as `skipped`.
// What it keeps it hands over as bytes, for the snapshot to stage (decision 681).
import { isUtf8 } from 'node:buffer';
import { closeSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { CheckpointSkipped } from '../../protocol/checkpointFrames';
import { FsError } from '../../workspace/fsBackend';
import { openFileIn, openFileInSync, type PinnedDir } from '../../workspace/pinnedDir';
import { IN_THREAD_BYTES } from './looseObjects';

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** What a snapshot does with one listed path: stage these bytes, skip it (why), or stage its deletion. */
export type Verdict = { keep: true; bytes: Buffer; executable: boolean } | { keep: false; reason: CheckpointSkipped['reason'] } | { gone: true };

/**
 * Reads each file to keep through a pinned handle (pinnedDir.ts: no symlink followed, neither the
 * file nor a folder on its way), and the bytes it judged are the bytes staged (decision 681).
 * Remembers skip verdicts by (size, mtime, inode), so an unchanged skipped file is not read every turn.
 */
export class FileFilter {
  private readonly cache = new Map<string, { key: string; verdict: Verdict }>();

  constructor(private readonly maxBytes: number = DEFAULT_MAX_FILE_BYTES) {}

  /** The verdict on file `name` of the pinned folder `dir` (`abs` names it in messages and the cache). */
  async read(dir: PinnedDir, name: string, abs: string): Promise<Verdict> {
    let handle: FileHandle;
    let st: Stats;
    try {
      ({ handle, stats: st } = await openFileIn(dir, name, abs));
    } catch (e) {
      return openFailure(e);
    }
    try {
      const before = this.beforeRead(abs, st);
      if (typeof before !== 'string') return before;
      // One read of one byte more than the stat said: a file that grew since is read whole again.
      const room = Buffer.allocUnsafe(st.size + 1);
      const { bytesRead } = await handle.read(room, 0, room.byteLength, 0);
      const bytes = bytesRead <= st.size ? room.subarray(0, bytesRead) : await handle.readFile();
      return this.judge(abs, before, st, bytes);
    } catch {
      return { keep: false, reason: 'unreadable' };
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * `read` in this thread, for a file of at most IN_THREAD_BYTES; undefined for a bigger one (or
   * one that grew past its stat), which `read` takes. A snapshot of 10,000 small files spent more on
   * four thread-pool trips per file than on the reads (decision 701).
   */
  readSync(dir: PinnedDir, name: string, abs: string): Verdict | undefined {
    let fd: number;
    let st: Stats;
    try {
      ({ fd, stats: st } = openFileInSync(dir, name, abs));
    } catch (e) {
      return openFailure(e);
    }
    try {
      if (st.size > IN_THREAD_BYTES) return undefined;
      const before = this.beforeRead(abs, st);
      if (typeof before !== 'string') return before;
      const room = Buffer.allocUnsafe(st.size + 1);
      const bytesRead = readSync(fd, room, 0, room.byteLength, 0);
      return bytesRead <= st.size ? this.judge(abs, before, st, room.subarray(0, bytesRead)) : undefined;
    } catch {
      return { keep: false, reason: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }

  /** The verdict the stat alone gives (too large; a skipped file unchanged since), else the cache key to read under. */
  private beforeRead(abs: string, st: Stats): Verdict | string {
    if (st.size > this.maxBytes) return { keep: false, reason: 'large' };
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    const hit = this.cache.get(abs);
    return hit && hit.key === key ? hit.verdict : key;
  }

  /** The verdict on the bytes read: kept as they are, or skipped (and remembered) as too large or binary. */
  private judge(abs: string, key: string, st: Stats, bytes: Buffer): Verdict {
    if (bytes.byteLength > this.maxBytes) return { keep: false, reason: 'large' };
    if (bytes.includes(0) || !isUtf8(bytes)) {
      const verdict: Verdict = { keep: false, reason: 'binary' };
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(abs, { key, verdict });
      return verdict;
    }
    this.cache.delete(abs);
    return { keep: true, bytes, executable: (st.mode & 0o100) !== 0 };
  }
}

/** What a file (or its folder) that could not be opened means for the snapshot. */
export function openFailure(e: unknown): Verdict {
  if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return { gone: true };
  if (e instanceof FsError && e.code === 'FS_OUTSIDE_WORKSPACE') return { keep: false, reason: 'symlink' };
  return { keep: false, reason: 'unreadable' };
}

/** Runs `fn` over `items` with at most `limit` at a time (file reads of a 10,000-file first snapshot). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
