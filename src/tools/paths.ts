// Paths as tools take them: absolute (Claude Code style) or relative to the workspace folder; in
// a multi-root workspace also `name/rel`, as the @ picker and the tools' own listings show them
// (rootNames.ts).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { leavesRoot } from '../workspace/leavesRoot';
import { underRoot, type RootAlias } from '../workspace/rootAliases';
import { namedRoot, rootNames } from '../workspace/rootNames';
import type { FsTarget } from './fsEvents';

/**
 * `p` as an absolute path. One under a root's other name (a folder opened through a symlink:
 * `aliases`, the backend's `rootAliases`) comes back under the root as the backend names it.
 */
export function resolveToolPath(cwd: string, p: string, roots: readonly string[] = [], aliases?: readonly RootAlias[]): string {
  const named = isAbsolute(p) ? undefined : namedRoot(roots, p);
  const abs = isAbsolute(p) ? resolve(p) : named ? resolve(named.root, named.rest) : resolve(cwd, p);
  return underRoot(abs, roots, aliases);
}

/**
 * A path in a listing the agent reads (LS, Glob, Grep): as displayPath, and in a multi-root
 * workspace led by its folder's name, so the agent can name it again (`ws2/src/main.c`).
 */
export function listedPath(roots: readonly string[], abs: string): string {
  const shown = displayPath(roots, abs);
  if (roots.length < 2 || isAbsolute(shown)) return shown;
  const i = roots.findIndex((r) => displayPath([r], abs) === shown);
  const name = rootNames(roots)[i];
  return shown === '.' ? name : `${name}/${shown}`;
}

/** Workspace-relative with forward slashes where inside `roots`, else the absolute path. */
export function displayPath(roots: readonly string[], abs: string): string {
  for (const r of roots) {
    const rel = relative(r, abs);
    if (rel === '') return '.';
    // A name that only starts with two dots (`..foo`) is inside (leavesRoot).
    if (!leavesRoot(rel)) return rel.split(sep).join('/');
  }
  return abs;
}

export function isInside(roots: readonly string[], abs: string): boolean {
  return roots.some((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep));
}

export function targetOf(roots: readonly string[], cwd: string, p: string, aliases?: readonly RootAlias[]): FsTarget & { abs: string } {
  const abs = resolveToolPath(cwd, p, roots, aliases);
  return { abs, targetKey: abs, displayPath: displayPath(roots, abs) };
}
