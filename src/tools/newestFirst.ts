// Glob's order: its matches newest first (decision 576), then by path.
// The times come from the backend's `times` when it has one (decision 587): no content read, one
// pinned folder and an lstat per entry in the Node backend. Otherwise each match is statted, a few
// at a time: a stat through the Node backend walks the path for symlinks, pins the file's directory
// (one or two descriptors) and may read the whole file to hash its version (fileVersion.ts), and
// one stat per match all at once (`Promise.all`) ran out of descriptors at 20,000 matches.
//
// A match whose time cannot be read — gone since the walk, permission denied, a folder on its way
// swapped for a symlink — is listed last instead of failing the Glob: the walk did find it, and only
// its place in the order is unknown. Any other failure (an I/O error) is still the Glob's error.
import { FsError, NO_TIME_CODES, type FsBackend } from '../workspace/fsBackend';
import { inPool } from '../workspace/inPool';
import { SearchAbortedError } from './search/searchClient';

/** Stats in flight: ~3 descriptors each at most. More does not go faster (the backend's work is CPU). */
const IN_FLIGHT = 8;

/** `files` ordered by modification time, newest first (then by path); stops when `signal` aborts. */
export async function newestFirst(fs: FsBackend, files: readonly string[], signal?: AbortSignal): Promise<string[]> {
  // -Infinity: no time, after every real one (an mtime of 0 included).
  const times = new Float64Array(files.length).fill(-Infinity);
  if (fs.times) {
    const got = await fs.times(files, signal);
    for (let i = 0; i < files.length; i++) times[i] = got[i]?.mtimeMs ?? -Infinity;
  } else {
    await statEach(fs, files, times, signal);
  }
  if (signal?.aborted) throw new SearchAbortedError('cancelled');
  const byPath = (a: number, b: number) => (files[a] < files[b] ? -1 : files[a] > files[b] ? 1 : 0);
  const order = Array.from(files.keys()).sort((a, b) => (times[a] === times[b] ? byPath(a, b) : times[b] > times[a] ? 1 : -1));
  return order.map((i) => files[i]);
}

/** The fallback: `times[i]` from a stat of `files[i]`, IN_FLIGHT at once; stops at an abort or a real failure. */
async function statEach(fs: FsBackend, files: readonly string[], times: Float64Array, signal?: AbortSignal): Promise<void> {
  await inPool(IN_FLIGHT, files.length, signal, async (i) => {
    try {
      const st = await fs.stat(files[i]);
      if (st) times[i] = st.mtimeMs;
    } catch (e) {
      if (!(e instanceof FsError && NO_TIME_CODES.has(e.code))) throw e; // the others stop at their next file
    }
  });
}
