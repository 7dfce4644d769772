// Glob's order: its matches newest first, with a fixed number of stats in flight (decision 576).
// A stat through the Node backend is not one syscall: it walks the path for symlinks, pins the
// file's directory (one or two descriptors) and may read the whole file to hash its version
// (fileVersion.ts). One stat per match all at once (`Promise.all`) held a descriptor or three per
// match: 20,000 matches ran out of descriptors (EMFILE) after 5 s and ~500 MB.
import type { FsBackend } from '../workspace/fsBackend';
import { SearchAbortedError } from './search/searchClient';

/** Stats in flight: ~3 descriptors each at most. More does not go faster (the backend's work is CPU). */
const IN_FLIGHT = 8;

/** `files` ordered by modification time, newest first (then by path); stops when `signal` aborts. */
export async function newestFirst(fs: FsBackend, files: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const times = new Float64Array(files.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < files.length && !failed && !signal?.aborted) {
      const i = next++;
      try {
        times[i] = (await fs.stat(files[i]))?.mtimeMs ?? 0;
      } catch (e) {
        failed = true; // the others stop at their next file instead of statting on for nothing
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, files.length) }, worker));
  if (signal?.aborted) throw new SearchAbortedError('cancelled');
  const order = Array.from(files.keys()).sort((a, b) => times[b] - times[a] || (files[a] < files[b] ? -1 : files[a] > files[b] ? 1 : 0));
  return order.map((i) => files[i]);
}
