// Read-only access to files of the local machine that are not workspace content — an agent's
// installed package, a TLS certificate, the browser master's bundle, Codex's session log, Linux
// /proc — for the layers that may not import node:fs (DESIGN.md: node:fs only in src/workspace,
// src/host, src/cli, src/extension). Workspace files go through FsBackend instead, so the
// read-before-write ledger sees them. Every function says what it does when the file is missing.
import { accessSync, constants, promises as fsp, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openInsideNoFollow } from './pinnedDir';

/** The file's bytes; throws (with the system's message) when it cannot be read. */
export function readLocalFile(path: string): Buffer {
  return readFileSync(path);
}

const kept = new Map<string, { mtimeMs: number; size: number; bytes: Buffer }>();

/**
 * The file's bytes, read again only when its size or modification time changed: for files served
 * over and over (the browser master's 1.5 MB bundle). A fresh read per request let one connection
 * of pipelined GETs hold a copy per request, 1.5 GB for 1,000 (the socket review of 2026-12-06);
 * every answer now shares one Buffer. Throws as readLocalFile does.
 */
export function readServedFile(path: string): Buffer {
  const st = statSync(path);
  const had = kept.get(path);
  if (had && had.mtimeMs === st.mtimeMs && had.size === st.size) return had.bytes;
  const bytes = readFileSync(path);
  kept.set(path, { mtimeMs: st.mtimeMs, size: st.size, bytes });
  return bytes;
}

/** The file's text, or undefined when it does not exist; any other failure throws. */
export function readTextIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The file's text, or undefined when it cannot be read for any reason (optional inputs). */
export function readTextOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Async form of readTextOrUndefined. */
export async function readTextOrUndefinedAsync(path: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The bytes of a small file (e.g. /proc/<pid>/environ), or undefined when it cannot be read. */
export function readBytesOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Whether something exists at the path (a dangling symlink does not count). */
export function pathExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether the path is a file (not a directory) that we may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The path with every symlink resolved, or undefined when it does not exist. */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The first `dir/name` that exists, trying `dirs` in order. */
export function firstExistingFile(dirs: readonly string[], name: string): string | undefined {
  return dirs.map((d) => join(d, name)).find(pathExists);
}

/** Entry names of a directory, or [] when it cannot be listed. */
export function listDirectoryNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Entries of a directory with whether each is a directory (not following symlinks), or []. */
export function listDirectoryEntries(dir: string): { name: string; dir: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return [];
  }
}

/** Subdirectories searched newest name first, at most `depth` levels down (dated log folders). */
export async function findFileNewestFirst(dir: string, match: (name: string) => boolean, depth: number): Promise<string | undefined> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const file = entries.find((e) => e.isFile() && match(e.name));
  if (file) return join(dir, file.name);
  if (depth <= 0) return undefined;
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort().reverse();
  for (const d of dirs) {
    const found = await findFileNewestFirst(join(dir, d), match, depth - 1);
    if (found) return found;
  }
  return undefined;
}

export interface TextPrefix {
  /** The first `limit` bytes as text, never ending inside a multi-byte character. */
  text: string;
  /** The file's full size in bytes. */
  total: number;
  cut: boolean;
  /** A NUL byte in the prefix: the text is left empty. */
  binary: boolean;
}

/**
 * Where a cut at `end` must fall so that it never ends inside a UTF-8 sequence: the start of the
 * last sequence when that sequence needs bytes past `end`. Looks at most three bytes back (no
 * sequence is longer than four), so bytes that are not UTF-8 cost nothing more.
 */
export function utf8CutAt(bytes: Uint8Array, end: number): number {
  for (let i = end - 1; i >= 0 && i >= end - 3; i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const need = b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    return i + need > end ? i : end;
  }
  return end;
}

/**
 * The text of the first `limit` bytes of `bytes` (a file's first bytes, or all of them), whose
 * whole size is `total`: a NUL in them makes it binary; a cut never ends inside a character.
 * The one rule behind `readTextPrefix` (a bounded disk read), `cutTextPrefix` (a text in memory)
 * and a virtual folder's whole read (decision 561).
 */
export function bytesTextPrefix(bytes: Uint8Array, total: number, limit: number): TextPrefix {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept = Math.min(buf.length, Math.max(0, limit));
  if (buf.subarray(0, kept).includes(0)) return { text: '', total, cut: false, binary: true };
  const end = kept < total ? utf8CutAt(buf, kept) : kept;
  return { text: buf.subarray(0, end).toString('utf8'), total, cut: end < total, binary: false };
}

/**
 * The first `limit` bytes of a text already in memory (an unsaved document, a backend with only
 * whole reads), cut on a character boundary, as `readTextPrefix` gives them from a file.
 */
export function cutTextPrefix(text: string, limit: number): TextPrefix {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= limit && !text.includes('\0') ? { text, total: bytes.length, cut: false, binary: false } : bytesTextPrefix(bytes, bytes.length, limit);
}

/** Reads at most `limit` bytes from the start of a file (for inlining into a prompt, §16.3). */
export async function readTextPrefix(path: string, limit: number, root?: string): Promise<TextPrefix> {
  // Given the workspace root the path was checked against, the open cannot be swapped outside it
  // (issue 12 finding 3, pinnedDir.ts).
  const handle = root !== undefined ? await openInsideNoFollow(root, path) : await fsp.open(path, 'r');
  try {
    const total = (await handle.stat()).size;
    const want = Math.min(total, Math.max(0, limit));
    const buf = Buffer.alloc(want);
    const { bytesRead } = await handle.read(buf, 0, want, 0);
    return bytesTextPrefix(buf.subarray(0, bytesRead), total, want);
  } finally {
    await handle.close();
  }
}
