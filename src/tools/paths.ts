// Paths as tools take them: absolute (Claude Code style) or relative to the workspace folder.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FsTarget } from './fsEvents';

export function resolveToolPath(cwd: string, p: string): string {
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** Workspace-relative with forward slashes where inside `roots`, else the absolute path. */
export function displayPath(roots: readonly string[], abs: string): string {
  for (const r of roots) {
    const rel = relative(r, abs);
    if (rel === '') return '.';
    // Outside is `..` or `../…` (path.relative uses the platform's separator); a name that only
    // starts with two dots (`..foo`) is inside.
    const outside = rel === '..' || rel.startsWith('..' + sep);
    if (!outside && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return abs;
}

export function isInside(roots: readonly string[], abs: string): boolean {
  return roots.some((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep));
}

export function targetOf(roots: readonly string[], cwd: string, p: string): FsTarget & { abs: string } {
  const abs = resolveToolPath(cwd, p);
  return { abs, targetKey: abs, displayPath: displayPath(roots, abs) };
}
