// Where a path really leads, for the permission rules of agents that write files themselves
// (Claude Code, ACP agents): their asks name a path as written, and a rule such as
// `Write(src/**)` matched `src/link/x.txt` even when `src/link` is a symlink to a folder outside the
// workspace (the headless trial of 2026-12-05 wrote a file there with exit 0). Our own tools refuse
// such paths (rootGuard.ts); for another agent's tool the ask is marked outside the workspace, so
// no rule allows it and the person is asked every time. Synchronous: one walk per permission ask.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { leavesRoot } from './leavesRoot';

/** `path` with every symlink on the part of it that exists resolved (the rest appended as written). */
export function realLocation(path: string): string {
  const tail: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      lstatSync(at);
      const real = realpathSync.native(at);
      return tail.length > 0 ? join(real, ...tail.reverse()) : real;
    } catch {
      const up = dirname(at);
      if (up === at) return resolve(path);
      tail.push(basename(at));
      at = up;
    }
  }
}

/** True when `path` (absolute, or relative to `from`: by default the first root) really lies outside every root. */
export function resolvesOutside(path: string, roots: readonly string[], from = roots[0]): boolean {
  if (roots.length === 0) return false;
  const real = realLocation(isAbsolute(path) ? path : join(from, path));
  return !roots.some((root) => {
    const rel = relative(realLocation(root), real);
    return !leavesRoot(rel);
  });
}
