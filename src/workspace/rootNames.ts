// The names of a multi-root workspace's folders as paths show them (`name/rel`): the picker's
// entries, the built-in tools' listings, and what either resolves. One naming for all, so a path
// the picker offers is a path a tool reads (the picker trial of 2026-12-05: `ws2/x` was read as
// `<first root>/ws2/x`, and the picker's `app-2/` for a second folder named `app` meant nothing to
// anyone else). Duplicate folder names get a numeric suffix in workspace order.
import { basename } from 'node:path';

/** Each root's name: its folder name, `-2`, `-3`… for repeats. */
export function rootNames(roots: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return roots.map((r) => {
    const base = basename(r) || 'root';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n + 1}`;
  });
}

/**
 * In a multi-root workspace, the root a relative path names with its first segment, and the rest of
 * the path (`app-2/index.js` → the second `app`, `index.js`); undefined with one root or no match.
 */
export function namedRoot(roots: readonly string[], path: string): { root: string; rest: string } | undefined {
  if (roots.length < 2) return undefined;
  const normalized = path.replace(/\\/g, '/');
  const slash = normalized.indexOf('/');
  const first = slash < 0 ? normalized : normalized.slice(0, slash);
  const i = rootNames(roots).indexOf(first);
  return i < 0 ? undefined : { root: roots[i], rest: slash < 0 ? '' : normalized.slice(slash + 1) };
}
