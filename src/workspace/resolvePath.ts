// Resolves a referenced path (§16.4 `workspace_relative_path` / `path`) to a file inside a
// workspace folder, refusing everything that leaves the workspace: `..` segments that climb out,
// absolute paths elsewhere, and symlinks (anywhere on the way) whose target is outside.
//
// Multi-root: a relative path is tried against each folder in order; a path whose first segment is
// a folder's name (`name/rel`, as the picker shows it in multi-root workspaces) is tried in that
// folder first.
import { promises as fsp } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { namedRoot } from './rootNames';
import { leavesRoot } from './leavesRoot';
import { realNamesOf, underRoot } from './rootAliases';

/**
 * The longest path we resolve, in characters: Linux's PATH_MAX (4,096 bytes) — the system refuses
 * longer ones anyway — and no Windows or macOS path is longer. A 4 MB "path" in a prompt once took
 * `path.resolve` and `path.relative` 0.5–0.7 s of the event loop before anything refused it.
 */
export const MAX_PATH_CHARS = 4096;

/** The refusal of a path over MAX_PATH_CHARS, naming only its start (not echoing megabytes back). */
export function pathTooLongMessage(path: string): string {
  return `the path is ${path.length.toLocaleString('en-US')} characters long, more than any file system takes (${MAX_PATH_CHARS.toLocaleString('en-US')}): "${path.slice(0, 80)}…"`;
}

export type ResolveErrorCode = 'FS_OUTSIDE_WORKSPACE' | 'FS_NOT_FOUND' | 'FS_INVALID_PATH';

export type ResolvedPath =
  | { ok: true; absolute: string; root: string; relative: string }
  | { ok: false; code: ResolveErrorCode; message: string };

function within(root: string, p: string): boolean {
  const rel = relative(root, p);
  return !leavesRoot(rel);
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (for new files). */
async function realOrNearest(p: string): Promise<{ real: string; exists: boolean }> {
  const rest: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = await fsp.realpath(cur);
      return { real: rest.length ? join(real, ...rest.reverse()) : real, exists: rest.length === 0 };
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return { real: p, exists: false };
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

function refuse(code: ResolveErrorCode, message: string): ResolvedPath {
  return { ok: false, code, message };
}

async function tryIn(root: string, rel: string, original: string, mustExist: boolean): Promise<ResolvedPath> {
  const lexical = resolve(root, rel);
  if (!within(root, lexical)) return refuse('FS_OUTSIDE_WORKSPACE', `"${original}" is outside the workspace folder ${root}`);
  const rootReal = await fsp.realpath(root).catch(() => root);
  const { real, exists } = await realOrNearest(lexical);
  if (!within(rootReal, real)) return refuse('FS_OUTSIDE_WORKSPACE', `"${original}" leads outside the workspace through a symlink (to ${real})`);
  if (mustExist && !exists) return refuse('FS_NOT_FOUND', `"${original}" does not exist in ${root}`);
  return { ok: true, absolute: lexical, root, relative: relative(root, lexical).split(sep).join('/') };
}

/**
 * Resolves `path` against the workspace folders. `mustExist` (default true) also refuses paths
 * that are not there.
 */
export async function resolveInWorkspace(roots: readonly string[], path: string, mustExist = true): Promise<ResolvedPath> {
  if (roots.length === 0) return refuse('FS_OUTSIDE_WORKSPACE', 'there is no workspace folder');
  if (path.length === 0 || path.includes('\0')) return refuse('FS_INVALID_PATH', 'the path is empty or contains a NUL character');
  if (path.length > MAX_PATH_CHARS) return refuse('FS_INVALID_PATH', pathTooLongMessage(path));
  const normalized = path.replace(/\\/g, '/');
  if (isAbsolute(normalized) || /^[a-zA-Z]:\//.test(normalized)) {
    // A root opened through a symlink is also named by its real path (an agent's cwd is that).
    const placed = underRoot(normalized, roots, realNamesOf(roots));
    for (const root of roots) if (within(root, placed)) return tryIn(root, relative(root, placed), path, mustExist);
    return refuse('FS_OUTSIDE_WORKSPACE', `"${path}" is not inside any workspace folder`);
  }
  const order: { root: string; rel: string }[] = [];
  const named = namedRoot(roots, normalized);
  if (named) order.push({ root: named.root, rel: named.rest });
  for (const root of roots) order.push({ root, rel: normalized });
  let firstFailure: ResolvedPath | undefined;
  for (const { root, rel } of order) {
    const r = await tryIn(root, rel, path, mustExist);
    if (r.ok) return r;
    // An escape is reported even when another folder would not have the file at all.
    if (!firstFailure || firstFailure.ok || (r.code === 'FS_OUTSIDE_WORKSPACE' && firstFailure.code !== 'FS_OUTSIDE_WORKSPACE')) firstFailure = r;
  }
  return firstFailure as ResolvedPath;
}
