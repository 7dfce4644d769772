// The folders of a listing that are symbolic links. VS Code's file search follows them
// (`search.followSymlinks`, on by default): a link to `/usr` put 119,000 names from outside the
// workspace in the @ picker and 250 MB in the extension host, and a link to a home folder would
// show its names to anyone the session is shared with (the picker trial of 2026-12-05). Their
// files are left out of the listing, as the walk leaves symlinks out, and the file backend refuses
// to read through them anyway.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

/** Folders checked at once (lstat calls in flight). */
const AT_ONCE = 32;

/**
 * Of the folders `rels` (`/`-separated, relative to `root`) lie in, those that are symbolic links —
 * checked top-down, so nothing under a link is looked at; a folder that cannot be read is taken as
 * it is listed (not a link).
 */
export async function symlinkedDirs(root: string, rels: readonly string[]): Promise<Set<string>> {
  const byDepth: Set<string>[] = [];
  for (const rel of rels) {
    let depth = 0;
    for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) (byDepth[depth++] ??= new Set()).add(rel.slice(0, i));
  }
  const links = new Set<string>();
  for (const level of byDepth) {
    if (!level) continue;
    const dirs = [...level].filter((d) => !underAny(d, links));
    for (let i = 0; i < dirs.length; i += AT_ONCE) {
      const slice = dirs.slice(i, i + AT_ONCE);
      const stats = await Promise.all(slice.map((d) => fsp.lstat(join(root, d)).catch(() => undefined)));
      stats.forEach((st, k) => st?.isSymbolicLink() && links.add(slice[k]));
    }
  }
  return links;
}

/** Is `rel` one of `dirs` or inside one of them? */
export function underAny(rel: string, dirs: ReadonlySet<string>): boolean {
  if (dirs.size === 0) return false;
  if (dirs.has(rel)) return true;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) if (dirs.has(rel.slice(0, i))) return true;
  return false;
}

/** `rels` without what lies under a symlinked folder. */
export async function withoutSymlinkedDirs(root: string, rels: string[]): Promise<string[]> {
  const links = await symlinkedDirs(root, rels);
  return links.size === 0 ? rels : rels.filter((r) => !underAny(r, links));
}
