// §16.1.1: the empty @ query lists recently modified files, newest first. The modification times
// come from recency.ts (known so far, the whole load waited for only briefly); the newest `max`
// are kept in a small sorted list instead of sorting every file, and the walk over the folders
// yields a turn every few thousand paths, so a 460,000-file workspace never holds the event loop.
import type { FileIndex, Folder } from './fileIndex';
import { compileExcludes } from './excludeGlobs';
import { nextTurn } from './bytesInTurns';
import type { CancelToken } from './fileSearch';

/** How long the first empty query waits for every file's time before it answers with what it knows. */
export const RECENT_WAIT_MS = 300;
const PATHS_PER_TURN = 8192;

export interface RecentRow {
  folder: Folder;
  rel: string;
  /** -1: not known (yet). */
  mtime: number;
}

export interface RecentFilesRequest {
  folders: readonly Folder[];
  max: number;
  extensions: readonly string[];
  excludePatterns: readonly string[];
  /** Absolute paths of the files the user has open: their times are looked up first. */
  openFiles: readonly string[];
  /** false: no times at all (in-memory indexes). */
  stat: boolean;
}

/** Newest first; among equal (or unknown) times the shorter path, then by name. */
const before = (a: RecentRow, b: RecentRow): boolean => a.mtime > b.mtime || (a.mtime === b.mtime && (a.rel.length < b.rel.length || (a.rel.length === b.rel.length && a.rel < b.rel)));

/** The newest `max` files, how many files qualify, and whether every time was known; undefined when cancelled. */
export async function recentFiles(index: FileIndex, req: RecentFilesRequest, token: CancelToken): Promise<{ rows: RecentRow[]; total: number; complete: boolean } | undefined> {
  const exts = req.extensions.filter(Boolean).map((e) => (e.startsWith('.') ? e : '.' + e).toLowerCase());
  const excluded = compileExcludes(req.excludePatterns.filter(Boolean));
  const kept: RecentRow[] = [];
  let total = 0;
  let complete = true;
  for (const folder of req.folders) {
    const first = req.openFiles.map((p) => index.locate(p)).flatMap((at) => (at?.folder === folder ? [at.rel] : []));
    const known = req.stat ? await index.recency(folder, { waitMs: RECENT_WAIT_MS, first }) : { mtimes: new Map<string, number>(), complete: true };
    complete &&= known.complete;
    if (token.cancelled) return undefined;
    const paths = folder.index.allPaths();
    for (let i = 0; i < paths.length; i++) {
      if (i % PATHS_PER_TURN === PATHS_PER_TURN - 1) {
        await nextTurn();
        if (token.cancelled) return undefined;
      }
      const rel = paths[i];
      if (exts.length) {
        const lower = rel.toLowerCase();
        if (!exts.some((e) => lower.endsWith(e))) continue;
      }
      if (excluded?.test(rel)) continue;
      total++;
      const row = { folder, rel, mtime: known.mtimes.get(rel) ?? -1 };
      if (kept.length === req.max && !before(row, kept[kept.length - 1])) continue;
      let at = kept.length;
      while (at > 0 && before(row, kept[at - 1])) at--;
      kept.splice(at, 0, row);
      if (kept.length > req.max) kept.pop();
    }
  }
  return { rows: kept, total, complete };
}
