// Which files a checkpoint keeps (decision 332): UTF-8 text up to a size limit. A restore writes
// through the FsBackend, whose writes are text (and whose edits refuse non-UTF-8 files, issue 12
// finding 6), so what it could not put back is not kept either: large files, binary files (a NUL
// byte or invalid UTF-8), symlinks. Each is reported once per checkpoint as `skipped`.
import { isUtf8 } from 'node:buffer';
import { promises as fsp, type Stats } from 'node:fs';
import type { CheckpointSkipped } from '../../protocol/checkpointFrames';

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

export type Verdict = { keep: true } | { keep: false; reason: CheckpointSkipped['reason'] } | { gone: true };

/** Remembers verdicts by (size, mtime, inode), so an unchanged skipped file is not read every turn. */
export class FileFilter {
  private readonly cache = new Map<string, { key: string; verdict: Verdict }>();

  constructor(private readonly maxBytes: number = DEFAULT_MAX_FILE_BYTES) {}

  async judge(abs: string): Promise<Verdict> {
    let st: Stats;
    try {
      st = await fsp.lstat(abs);
    } catch {
      return { gone: true };
    }
    if (st.isSymbolicLink()) return { keep: false, reason: 'symlink' };
    if (!st.isFile()) return { keep: false, reason: 'unreadable' };
    if (st.size > this.maxBytes) return { keep: false, reason: 'large' };
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    const hit = this.cache.get(abs);
    if (hit && hit.key === key) return hit.verdict;
    let verdict: Verdict;
    try {
      const bytes = await fsp.readFile(abs);
      verdict = bytes.includes(0) || !isUtf8(bytes) ? { keep: false, reason: 'binary' } : { keep: true };
    } catch {
      verdict = { keep: false, reason: 'unreadable' };
    }
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(abs, { key, verdict });
    return verdict;
  }
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
