// A workspace folder has two names when it is opened through a symlink (`/work/app` → `/data/app`,
// macOS's `/tmp` → `/private/tmp`, a dev container's mount): the name it was opened by and its real
// path. Agents use either — a process's cwd is its real path, an ACP agent is told the name we
// were given — and each backend works in one of them. A path under the other name is the same
// file under the backend's root, mapped by its letters only: the link is never followed again, so
// re-pointing it later leads nowhere new (decision 723).
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** Another name (`other`) of a workspace root as a backend names it (`root`). */
export interface RootAlias {
  readonly other: string;
  readonly root: string;
}

function under(abs: string, dir: string): boolean {
  return abs === dir || abs.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * `abs` (absolute, resolved) named under its root: unchanged when a root holds it as written (a
 * root's own name always wins), else mapped from the first alias whose other name holds it.
 */
export function underRoot(abs: string, roots: readonly string[], aliases: readonly RootAlias[] | undefined): string {
  if (aliases === undefined || aliases.length === 0 || roots.some((r) => under(abs, r))) return abs;
  for (const a of aliases) if (under(abs, a.other)) return a.root + abs.slice(a.other.length);
  return abs;
}

/** The real path of `p`, or undefined when it cannot be had (gone, no permission). */
function realOf(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** For a backend whose roots are the names it was given: each root's real path, where it differs. */
export function realNamesOf(roots: readonly string[]): RootAlias[] {
  const aliases: RootAlias[] = [];
  for (const root of roots) {
    const real = realOf(root);
    if (real !== undefined && real !== root) aliases.push({ other: real, root });
  }
  return aliases;
}

/** For a backend whose roots are real paths (`reals[i]` of `given[i]`): each name it was given, where it differs. */
export function givenNamesOf(given: readonly string[], reals: readonly string[]): RootAlias[] {
  const aliases: RootAlias[] = [];
  given.forEach((g, i) => {
    const name = resolve(g);
    if (name !== reals[i]) aliases.push({ other: name, root: reals[i] });
  });
  return aliases;
}
