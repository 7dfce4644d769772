// A snapshot's reads of the files it stages (decision 681), each through its folder pinned once
// (pinnedDir.ts): no symlink is followed on the way or at the file, and the folder's handle is
// opened once for all its files rather than walked again from the root for each (a 10,000-file
// first snapshot opened four folders per file). Folders are pinned a chunk of paths at a time, so
// the handles held stay few whatever the batch. Small files are read in this thread (decision 701).
import { dirname, basename, join } from 'node:path';
import { pinDirectory, type PinnedDir } from '../../workspace/pinnedDir';
import { nextTurn } from '../../workspace/bytesInTurns';
import { mapLimit, openFailure, type FileFilter, type Verdict } from './fileFilter';

/** Paths whose folders are pinned together (one open handle per distinct folder). */
const CHUNK = 256;
/** The longest stretch of reads in this thread before the event loop gets a turn. */
const SLICE_MS = 8;

/**
 * Each of `paths` (relative to `workTree`, `/`-separated) judged by `filter` from bytes read through
 * a pinned handle, and handed to `use` at once (so no more than 16 big files' bytes are held);
 * `use`'s results in the order of `paths`.
 */
export async function readPinned<R>(workTree: string, paths: readonly string[], filter: FileFilter, use: (path: string, verdict: Verdict) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < paths.length; at += CHUNK) {
    const chunk = paths.slice(at, at + CHUNK);
    const folders = [...new Set(chunk.map((p) => dirname(p)))];
    const pins = new Map<string, PinnedDir | Verdict>();
    await mapLimit(folders, 8, async (f) => {
      pins.set(f, await pinDirectory(workTree, join(workTree, f)).catch(openFailure));
    });
    try {
      const results = new Array<R>(chunk.length);
      // Small files in this thread, in stretches of at most SLICE_MS (decision 701); the rest
      // (bigger, or grown since their stat) through the thread pool, 16 at a time.
      const later: number[] = [];
      let since = performance.now();
      for (let k = 0; k < chunk.length; k++) {
        const pin = pins.get(dirname(chunk[k]))!;
        const verdict = 'child' in pin ? filter.readSync(pin, basename(chunk[k]), join(workTree, chunk[k])) : pin;
        if (verdict === undefined) later.push(k);
        else results[k] = await use(chunk[k], verdict);
        if (performance.now() - since > SLICE_MS) {
          await nextTurn();
          since = performance.now();
        }
      }
      await mapLimit(later, 16, async (k) => {
        const pin = pins.get(dirname(chunk[k]))! as PinnedDir;
        results[k] = await use(chunk[k], await filter.read(pin, basename(chunk[k]), join(workTree, chunk[k])));
      });
      out.push(...results);
    } finally {
      await Promise.all([...pins.values()].map((p) => ('child' in p ? p.close() : undefined)));
    }
  }
  return out;
}
