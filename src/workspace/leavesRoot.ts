// Whether a path that `relative(root, p)` gave lies outside `root`: `..`, `../…` or, across drives,
// an absolute path. A name that only starts with two dots (`..notes.txt`, `...`) is inside:
// `rel.startsWith('..')` took it for a way out, and `@..notes.txt` or a context file so named was
// refused as outside the workspace (the adversarial review of 2026-12-06).
import { isAbsolute, sep } from 'node:path';

/** `separator`: '/' for a path `posix.relative` gave. */
export function leavesRoot(rel: string, separator: string = sep): boolean {
  return rel === '..' || rel.startsWith(`..${separator}`) || isAbsolute(rel);
}
