// Which paths the Node backend (nodeFsBackend.ts) may touch: those inside its roots (real paths,
// so a root reached through a symlink still contains its files), reached without any symlink on
// the way — a link could point anywhere. Absolute paths elsewhere only when the user's settings
// allow them (NodeFsBackendOptions.allowOutsideRoots), and then still without symlinks.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FsError } from './fsBackend';
import { lstatOrUndefined } from './nodeFsErrors';
import { MAX_PATH_CHARS, pathTooLongMessage } from './resolvePath';
import { givenNamesOf, underRoot, type RootAlias } from './rootAliases';

export class RootGuard {
  readonly roots: readonly string[];
  /** The names the roots were given where they are not their real paths: taken as the same paths. */
  readonly aliases: readonly RootAlias[];

  /** `otherNames`: more names of the first root (the symlink a CLI's --workspace was given by), mapped by their letters. */
  constructor(roots: readonly string[], private readonly allowOutside: boolean, otherNames: readonly string[] = []) {
    this.roots = roots.map((r) => realpathSync(resolve(r)));
    this.aliases = [...givenNamesOf(roots, this.roots), ...givenNamesOf(otherNames, otherNames.map(() => this.roots[0]))];
  }

  /** The root `abs` lies in, if any. */
  private rootContaining(abs: string): string | undefined {
    return this.roots.find((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep));
  }

  /** Is `abs` (already resolved) inside one of the roots, by their real paths or the names they were given? */
  contains(abs: string): boolean {
    return this.rootContaining(underRoot(abs, this.roots, this.aliases)) !== undefined;
  }

  /** The root `abs` lies in ('/' for an allowed outside path). */
  rootOf(abs: string): string {
    return this.rootContaining(abs) ?? '/';
  }

  /**
   * Resolves `path` (relative paths against the first root) and refuses what escapes the roots:
   * `..`, absolute paths elsewhere, and any symlink on the way (a link could point anywhere). A
   * path under a root's given name comes back under its real path (rootAliases.ts).
   */
  async resolve(path: string, opts: { leafMayBeLink?: boolean } = {}): Promise<string> {
    if (typeof path === 'string' && path.length > MAX_PATH_CHARS) throw new FsError(pathTooLongMessage(path), 'FS_OUTSIDE_WORKSPACE');
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw new FsError(`invalid path ${JSON.stringify(path)}`, 'FS_OUTSIDE_WORKSPACE');
    const abs = underRoot(isAbsolute(path) ? resolve(path) : resolve(this.roots[0], path), this.roots, this.aliases);
    const root = this.rootContaining(abs);
    if (!root) {
      if (!this.allowOutside) throw new FsError(`"${path}" is outside the workspace (${this.roots.join(', ')})`, 'FS_OUTSIDE_WORKSPACE');
      await assertNoLinks(abs, dirname(abs) === abs ? abs : '/', opts.leafMayBeLink === true);
      return abs;
    }
    await assertNoLinks(abs, root, opts.leafMayBeLink === true);
    return abs;
  }
}

/** Walks from `root` down to `abs`; any existing component that is a symlink is refused. */
async function assertNoLinks(abs: string, root: string, leafMayBeLink: boolean): Promise<void> {
  const parts = relative(root, abs).split(sep).filter(Boolean);
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]);
    const st = await lstatOrUndefined(cur);
    if (!st) return; // the rest does not exist yet (a new file)
    if (st.isSymbolicLink() && !(leafMayBeLink && i === parts.length - 1)) {
      throw new FsError(`"${abs}" goes through the symlink "${cur}"; symlinks are refused because they can point outside the workspace`, 'FS_OUTSIDE_WORKSPACE');
    }
  }
}
