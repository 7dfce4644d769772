// Paths as a person reads them (issue 15 Why 6): a file inside a workspace folder is named
// relative to it, never by a long absolute path cut off at its start.
export function workspaceRelative(path: string, roots: readonly string[]): string {
  for (const r of roots) {
    if (!r) continue;
    if (path === r) return '.';
    const root = r.endsWith('/') ? r : `${r}/`;
    if (path.startsWith(root)) return path.slice(root.length);
  }
  return path;
}
