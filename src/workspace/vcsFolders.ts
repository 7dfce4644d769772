// Version-control metadata folders: never listed, in any scope. No one references their files,
// and their config may hold credentials (`.git/config` remote URLs with tokens, `.hg/hgrc`
// [auth] passwords). The same list for the Node listing (git or walk), the editor's listing and
// the live index's change feed (decision 636, widened after the review of 2026-12-05).
export const VCS_FOLDERS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'CVS', '.bzr', '_darcs']);

/** Is this name a version-control metadata folder? */
export function isVcsFolder(name: string): boolean {
  return VCS_FOLDERS.has(name);
}

/** Does this workspace-relative path lie in (or name) a version-control metadata folder? */
export function inVcsFolder(rel: string): boolean {
  return rel.split('/').some(isVcsFolder);
}
