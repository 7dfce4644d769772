// Reads the `*.md` files of one directory (a slash-command directory) the way the spec's
// loadFilesFromDir does (slash-commands §1 "file scanning"): not recursive, hidden files skipped,
// gitignored paths skipped. A directory that does not exist is simply empty. The .gitignore files
// are the repository's own, so they go through the linear-time GitignoreMatcher (decisions 540, 548),
// case-insensitive as the `ignore` package it replaces.
// The files are read bounded (decision 712): only regular files, at most MAX_COMMAND_FILE_BYTES
// each (a link to /proc/self/pagemap took `rawp run` to 1.74 GB), and in a workspace's folder
// nothing a symlink leads to outside the workspace (a link to /proc/self/environ published the
// environment as the command's description to every master).
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { GitignoreMatcher } from './gitignoreMatcher';
import { readIgnoreFile } from './ignoreFileRead';
import { leavesRoot } from './leavesRoot';
import { openInsideNoFollow } from './pinnedDir';

/** The largest command file read, in bytes; a real one is a few KiB. */
export const MAX_COMMAND_FILE_BYTES = 256 * 1024;

export interface ScannedFile {
  /** File name without `.md`. */
  name: string;
  path: string;
  content: string;
}

export interface ScanResult {
  files: ScannedFile[];
  /**
   * Files that matched but could not be read. `refused`: not read on purpose (a link out of the
   * workspace, not a regular file, too big), so the command is a bad one rather than a passing
   * I/O failure; a refused folder is one entry with the folder's path.
   */
  unreadable: { path: string; message: string; refused?: RefusalReason }[];
}

/** Why a file or folder was not read on purpose (the commands' picker words each, decision 721). */
export type RefusalReason = 'folder_link_root' | 'folder_link_out' | 'link_out' | 'not_a_file' | 'file_too_big';

export interface ScanOptions {
  /**
   * `boundary` is a workspace folder: a symlink — the folder itself, one on its way, or a file in
   * it — that leads out of it is not followed, nor a folder that leads to the workspace folder
   * itself. Off for the user's home and plugin roots, where links into a dotfiles repository are
   * normal. Default on.
   */
  confined?: boolean;
  maxFileBytes?: number;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

interface IgnoreLayer {
  base: string;
  matcher: GitignoreMatcher;
}

/**
 * The `.gitignore` files that govern `dir`: those in `dir` and its ancestors up to `boundary`
 * (the workspace folder, the home directory or a plugin root) or up to the first directory that
 * holds `.git` (the repository root), whichever comes first.
 */
async function ignoreLayers(dir: string, boundary: string): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  let current = dir;
  const inside = relative(boundary, dir);
  const bounded = !leavesRoot(inside);
  for (;;) {
    // Read as every ignore file is (decision 711): no link followed, regular files only, 1 MiB
    // at most; a `.gitignore` linked to /dev/zero never ended before.
    const text = readIgnoreFile(join(current, '.gitignore'));
    if (text !== undefined) layers.push({ base: current, matcher: new GitignoreMatcher({ ignoreCase: true }).add(text) });
    if (!bounded || current === boundary || (await exists(join(current, '.git')))) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return layers;
}

function isIgnored(layers: IgnoreLayer[], file: string): boolean {
  return layers.some((l) => {
    const rel = relative(l.base, file).split(sep).join('/');
    return rel !== '' && !leavesRoot(rel, '/') && l.matcher.ignores(rel);
  });
}

/** A file or folder not read on purpose; its message says why. */
class Refused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** The real paths of `dir` and `boundary` when `dir` may be read; undefined when either is missing. */
async function confinedFolder(dir: string, boundary: string): Promise<{ real: string; root: string } | undefined> {
  let root: string;
  let real: string;
  try {
    root = await realpath(boundary);
    real = await realpath(dir);
  } catch {
    return undefined;
  }
  const rel = relative(root, real);
  if (leavesRoot(rel)) throw new Refused('folder_link_out', `the commands folder ${dir} leads out of the workspace through a symlink; not read`);
  // A folder linked to the root would read the root's *.md files as commands, and have every
  // write in the root refresh them (`.codex/commands -> ..`).
  if (rel === '') throw new Refused('folder_link_root', `the commands folder ${dir} leads to the workspace folder itself through a symlink; not read`);
  return { real, root };
}

/** Reads at most `max` bytes; undefined when there are more (a /proc file says size 0). */
async function readUpTo(handle: FileHandle, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > max) return undefined;
    chunks.push(chunk.subarray(0, bytesRead));
  }
}

/** Opens the command file `path`: inside `root` with no link on the way when confined, else followed. */
async function openCommandFile(path: string, root: string | undefined): Promise<FileHandle | undefined> {
  if (root !== undefined) {
    // Links that stay inside the workspace are fine (`.codex/commands/x.md -> ../../.claude/…`);
    // the real path is then opened without following any link, so a swap since is refused.
    const real = await realpath(path);
    if (leavesRoot(relative(root, real))) throw new Refused('link_out', 'is a symlink that leads out of the workspace');
    return openInsideNoFollow(root, real);
  }
  // Followed (the user's own links), but nothing is opened that is not a regular file: a FIFO or
  // a device would block the read or never end. O_NONBLOCK and the fstat after the open cover one
  // swapped in between.
  const s = await stat(path);
  if (s.isDirectory()) return undefined;
  if (!s.isFile()) throw new Refused('not_a_file', 'is not a regular file');
  return open(path, constants.O_RDONLY | constants.O_NONBLOCK);
}

async function readCommandFile(path: string, root: string | undefined, max: number): Promise<string | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await openCommandFile(path, root);
  } catch (err) {
    // openInsideNoFollow's refusals: a directory is skipped as before; FS_IO is a FIFO, device or
    // socket; FS_OUTSIDE_WORKSPACE a link that appeared on the way after the check.
    const code = (err as { code?: string }).code;
    if (code === 'FS_IS_DIRECTORY') return undefined;
    if (code === 'FS_IO') throw new Refused('not_a_file', 'is not a regular file');
    if (code === 'FS_OUTSIDE_WORKSPACE') throw new Refused('link_out', 'was swapped for a symlink while it was read');
    throw err;
  }
  if (!handle) return undefined;
  try {
    const s = await handle.stat();
    if (s.isDirectory()) return undefined;
    if (!s.isFile()) throw new Refused('not_a_file', 'is not a regular file');
    const bytes = s.size > max ? undefined : await readUpTo(handle, max);
    if (!bytes) throw new Refused('file_too_big', `is larger than ${max / 1024} KiB`);
    return bytes.toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Loads `dir/*.md` (not recursive, no hidden files, .gitignore honoured, bounded reads). */
export async function scanMarkdownDir(dir: string, boundary: string, options: ScanOptions = {}): Promise<ScanResult> {
  const confined = options.confined !== false;
  const max = options.maxFileBytes ?? MAX_COMMAND_FILE_BYTES;
  let root: string | undefined;
  let listed = dir;
  if (confined) {
    try {
      const folder = await confinedFolder(dir, boundary);
      if (folder === undefined) return { files: [], unreadable: [] };
      listed = folder.real;
      root = folder.root;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      return { files: [], unreadable: [{ path: dir, message: err.message, refused: err.reason }] };
    }
  }
  let names: string[];
  try {
    names = await readdir(listed);
  } catch {
    return { files: [], unreadable: [] };
  }
  const candidates = names.filter((n) => n.endsWith('.md') && !n.startsWith('.') && n.length > 3).sort();
  const layers = candidates.length > 0 ? await ignoreLayers(dir, boundary) : [];
  const files: ScannedFile[] = [];
  const unreadable: ScanResult['unreadable'] = [];
  for (const n of candidates) {
    const path = join(dir, n);
    if (isIgnored(layers, path)) continue;
    try {
      const content = await readCommandFile(root === undefined ? path : join(listed, n), root, max);
      if (content !== undefined) files.push({ name: n.slice(0, -3), path, content });
    } catch (err) {
      if (err instanceof Refused) unreadable.push({ path, message: `the command file ${path} ${err.message}; not read`, refused: err.reason });
      else unreadable.push({ path, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { files, unreadable };
}

/**
 * The first symlink on the way from `boundary` down to `dir` that leads out of `boundary` or to
 * `boundary` itself, as its parent and its name; undefined when there is none (no link, links
 * that stay inside, or the way ends in a missing folder before any such link). What the command
 * watcher watches instead of a folder `scanMarkdownDir` refuses (decision 712).
 */
export async function linkOutOnTheWay(dir: string, boundary: string): Promise<{ dir: string; name: string } | undefined> {
  const rel = relative(boundary, dir);
  if (rel === '' || leavesRoot(rel)) return undefined;
  let root: string;
  try {
    root = await realpath(boundary);
  } catch {
    return undefined;
  }
  let at = boundary;
  for (const name of rel.split(sep)) {
    const parent = at;
    at = join(at, name);
    const s = await lstat(at).catch(() => undefined);
    if (!s) return undefined;
    if (!s.isSymbolicLink()) continue;
    const real = await realpath(at).catch(() => undefined);
    if (real === undefined) return undefined; // a dangling link: the scan finds no folder either
    const inside = relative(root, real);
    if (inside === '' || leavesRoot(inside)) return { dir: parent, name };
  }
  return undefined;
}
