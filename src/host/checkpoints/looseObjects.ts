// Blobs written into the shadow repository by us, not by `git add` (decision 681). `git add` opens
// each file again by its path, after our check of it: a process swapping a workspace file for a
// symlink in between got an outside file's bytes into a checkpoint, and a rewind wrote them back
// into the workspace. A snapshot now stages the very bytes it read through a pinned handle
// (fileFilter.ts): each becomes a loose object here, named by git's own id (`gitBlobId`), and
// enters the index by `update-index --index-info`. Loose, like git's own in this repository
// (gc.auto=0), so `git prune` frees them as before (decision 337).
import { existsSync, mkdirSync, promises as fsp, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';
import { digestInTurns } from '../../workspace/bytesInTurns';

/**
 * git's id of a blob with these bytes (so the workspace compares with trees without running git);
 * a big file is hashed in event-loop turns (bytesInTurns.ts).
 */
export function gitBlobId(bytes: Uint8Array): Promise<string> {
  return digestInTurns('sha1', [Buffer.from(`blob ${bytes.byteLength}\0`), bytes], 'hex');
}

// A big file's compression runs in the thread pool, so it never holds the event loop.
const deflateAsync = promisify(deflate);
/** Below this a blob is compressed and written in this thread (and its file read there, fileFilter.ts):
 * each is a few microseconds, where a trip to the thread pool per step made a 10,000-file first
 * snapshot three times slower (decisions 681, 701). */
export const IN_THREAD_BYTES = 64 * 1024;
let written = 0;

/**
 * zlib settings for `size` bytes: a window just big enough for all of them (so the same matches are
 * found) and a hash table to match. zlib's default (32 KiB window, 128 KiB table) spent most of a
 * small blob's time setting up memory: 60 µs per 300-byte blob, 18 µs fitted (decision 701). git
 * inflates any window size.
 */
export function fittedDeflate(size: number): { level: number; windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 1))));
  return { level: 1, windowBits, memLevel: Math.max(1, windowBits - 7) };
}
/** Object folders made (`objects/00` … `objects/ff`), per repository; `git prune` may remove one since. */
const folders = new Set<string>();

/** Stores `bytes` as a blob of the repository at `gitDir` (once: an existing object is kept); its id. */
export async function writeLooseBlob(gitDir: string, bytes: Uint8Array): Promise<string> {
  const id = await gitBlobId(bytes);
  const dir = join(gitDir, 'objects', id.slice(0, 2));
  const file = join(dir, id.slice(2));
  if (existsSync(file)) return id;
  const raw = Buffer.concat([Buffer.from(`blob ${bytes.byteLength}\0`), bytes]);
  // Level 1: a checkpoint is written every turn and rarely read; git reads any zlib level.
  const body = raw.byteLength < IN_THREAD_BYTES ? deflateSync(raw, fittedDeflate(raw.byteLength)) : await deflateAsync(raw, { level: 1 });
  if (!folders.has(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    folders.add(dir);
  }
  // git's own temporary name: a file left by a crash is removed by `git prune`.
  const tmp = join(dir, `tmp_obj_rawp${process.pid}_${written++}`);
  const write = () => (raw.byteLength < IN_THREAD_BYTES ? writeFileSync(tmp, body, { mode: 0o444, flag: 'wx' }) : fsp.writeFile(tmp, body, { mode: 0o444, flag: 'wx' }));
  try {
    await write();
  } catch (e) {
    // `git prune` removes a folder it emptied: made again, once.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await write();
  }
  // Same content under the same name if another writer got there first: replacing it is harmless.
  renameSync(tmp, file);
  return id;
}
