// Lists every visible file of one workspace folder, as `/`-separated paths relative to it.
//
// Source 1 (fast, ~25× a Node walk): `git ls-files` — tracked files with their modes (symlinks and
// submodules recognisable), untracked-but-not-ignored files, minus tracked files deleted from the
// work tree. `.ignore` files and extra excludes are applied afterwards (git does not know them).
// Source 2 (fallback, not a git work tree or no git): a parallel async walk with IgnoreRules.
// Symlinks are never followed: a symlink to a file inside the folder is listed as a file, a
// symlink to a directory is not descended into, anything pointing outside the folder is dropped.
// Ignore rules are a repository's choice and fill their bounds at tens to hundreds of milliseconds
// for a folder: both sources read and compile them in steps and check paths in slices, with
// event-loop turns between (sharedSlices.ts, decision 733).
import { execFile } from 'node:child_process';
import { promises as fsp, realpathSync, lstatSync, existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { IgnoreRules, dotIgnoreFilterInTurns } from './ignoreRules';
import { inPool } from './inPool';
import { withoutOurSecrets } from './secretEnv';
import { nextSlice, runNowOrInSlices, sliceSpent } from './sharedSlices';
import { inVcsFolder } from './vcsFolders';

export interface ListOptions {
  caseSensitive: boolean;
  extraExcludes?: readonly string[];
  /** false: also list files that ignore files hide (scope `global`). */
  useIgnoreFiles?: boolean;
  /** Force the walk (tests, or when git gives wrong answers). */
  noGit?: boolean;
  /**
   * The setting `rawp.search.includeIgnored` (decision 363): also list what `.gitignore`,
   * `.ignore` and git's excludes hide, from git (`ls-files -o` without `--exclude-standard`) or the
   * walk alike; extra excludes (files.exclude-style globs) and `.git` still apply.
   */
  includeIgnored?: boolean;
  /** How long one git call may take before the walk is used instead (default GIT_LIST_TIMEOUT_MS). */
  gitTimeoutMs?: number;
}

/**
 * One git call's time: `git ls-files` of a 460,000-file tree takes a few seconds cold; a FIFO named
 * `.gitignore` in the work tree makes `ls-files -o --exclude-standard` wait for good (git 2.39;
 * the hostile-workspace review of 2026-12-06), and the @ search never answered.
 */
export const GIT_LIST_TIMEOUT_MS = 30_000;

export interface Listing {
  paths: string[];
  source: 'git' | 'walk';
}

/** Is `inner` (an absolute real path) the folder `outerReal` or inside it? */
export function isInside(outerReal: string, inner: string): boolean {
  return inner === outerReal || inner.startsWith(outerReal.endsWith(sep) ? outerReal : outerReal + sep);
}

/** Guess whether the file system under `dir` distinguishes `a` from `A`. */
export function isCaseSensitiveFs(dir: string): boolean {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return process.platform === 'linux';
  }
  const swapped = real.replace(/[a-zA-Z](?=[^/\\]*$)/, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()));
  if (swapped === real) return process.platform === 'linux';
  if (!existsSync(swapped)) return true;
  try {
    const a = lstatSync(real);
    const b = lstatSync(swapped);
    return !(a.ino === b.ino && a.dev === b.dev);
  } catch {
    return true;
  }
}

// Without our secrets: git runs programs the user's config names (core.fsmonitor, …) (decision 555).
function git(root: string, args: string[], timeout = GIT_LIST_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-C', root, '-c', 'core.quotepath=off', ...args], { env: withoutOurSecrets(), maxBuffer: 1 << 30, encoding: 'utf8', windowsHide: true, timeout, killSignal: 'SIGKILL' }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

function splitZ(text: string): string[] {
  const out = text.split('\0');
  if (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

/** A symlink is kept only when its target is a file inside the folder. */
async function symlinkKeeps(rootReal: string, abs: string): Promise<boolean> {
  try {
    const target = await fsp.realpath(abs);
    if (!isInside(rootReal, target)) return false;
    return (await fsp.stat(target)).isFile();
  } catch {
    return false;
  }
}

async function listWithGit(root: string, rootReal: string, options: ListOptions): Promise<string[]> {
  const [cached, others, deleted] = await Promise.all([
    git(root, ['ls-files', '-z', '-c', '--format=%(objectmode) %(path)'], options.gitTimeoutMs),
    git(root, ['ls-files', '-z', '-o', ...(options.includeIgnored ? [] : ['--exclude-standard'])], options.gitTimeoutMs),
    git(root, ['ls-files', '-z', '-d'], options.gitTimeoutMs),
  ]);
  const gone = new Set(splitZ(deleted));
  const paths: string[] = [];
  const links: string[] = [];
  const submodules: string[] = [];
  for (const line of splitZ(cached)) {
    const space = line.indexOf(' ');
    const mode = line.slice(0, space);
    const path = line.slice(space + 1);
    if (gone.has(path)) continue;
    if (mode === '120000') links.push(path);
    else if (mode === '160000') submodules.push(path);
    else paths.push(path);
  }
  // Untracked entries: git does not follow symlinks, but we must know which ones are links.
  // Without the standard excludes git names a nested repository as `dir/`: not a file.
  const untracked = splitZ(others).filter((p) => !p.endsWith('/'));
  const stats = new Array<boolean>(untracked.length).fill(false);
  await inPool(64, untracked.length, undefined, async (i) => {
    stats[i] = await fsp.lstat(join(root, untracked[i])).then((st) => st.isSymbolicLink(), () => false);
  });
  untracked.forEach((p, i) => (stats[i] ? links.push(p) : paths.push(p)));
  const keep = new Array<boolean>(links.length).fill(false);
  await inPool(32, links.length, undefined, async (i) => {
    keep[i] = await symlinkKeeps(rootReal, join(root, links[i]));
  });
  links.forEach((p, i) => keep[i] && paths.push(p));
  for (const sub of submodules) {
    try {
      const inner = await listFiles(join(root, sub), options);
      for (const p of inner.paths) paths.push(`${sub}/${p}`);
    } catch {
      // an uninitialised submodule is an empty directory: nothing to list
    }
  }
  const dotIgnore = options.includeIgnored ? undefined : await dotIgnoreFilterInTurns(root, paths, options.caseSensitive);
  const rules = new IgnoreRules(root, { caseSensitive: options.caseSensitive, extraExcludes: options.extraExcludes, useIgnoreFiles: false });
  const kept: string[] = [];
  for (const p of paths) {
    if (sliceSpent()) await nextSlice();
    const hidden = dotIgnore ? runNowOrInSlices(dotIgnore(p)) : false;
    if (!(typeof hidden === 'boolean' ? hidden : await hidden) && !rules.extraExcluded(p) && !inVcsFolder(p)) kept.push(p);
  }
  return kept;
}

async function walk(root: string, rootReal: string, options: ListOptions): Promise<string[]> {
  const rules = new IgnoreRules(root, { ...options, useIgnoreFiles: options.useIgnoreFiles !== false && !options.includeIgnored });
  const out: string[] = [];
  const queue: string[] = [''];
  const visit = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(join(root, dir), { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: skip, a watcher will report it
    }
    await rules.prepare(dir);
    for (const e of entries) {
      if (sliceSpent()) await nextSlice();
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const kind = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : undefined;
      if (!kind) continue;
      const check = runNowOrInSlices(kind === 'dir' ? rules.dirIgnoredSteps(rel) : rules.fileIgnoredSteps(rel));
      if (typeof check === 'boolean' ? check : await check) continue;
      if (kind === 'dir') queue.push(rel);
      else if (kind === 'file' || (await symlinkKeeps(rootReal, join(root, rel)))) out.push(rel);
    }
  };
  // Breadth-first with a few directories in flight: readdir latency overlaps, order does not matter.
  const inFlight = new Set<Promise<void>>();
  while (queue.length || inFlight.size) {
    while (queue.length && inFlight.size < 16) {
      const p: Promise<void> = visit(queue.shift() as string).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (inFlight.size) await Promise.race(inFlight);
  }
  return out;
}

/** Does the repository that contains `root` ignore the folder itself? (`git check-ignore` exits 0.) */
async function ignoredByOuterRepository(root: string, timeout?: number): Promise<boolean> {
  try {
    await git(root, ['check-ignore', '-q', '.'], timeout);
    return true;
  } catch {
    return false; // exit 1: not ignored (or git failed, and ls-files will tell)
  }
}

/** Every visible file of `root`: from git when it is a work tree that does not ignore it, else a walk. */
export async function listFiles(root: string, options: ListOptions): Promise<Listing> {
  const rootReal = await fsp.realpath(root);
  if (!options.noGit && (options.useIgnoreFiles !== false || options.includeIgnored)) {
    try {
      const inside = (await git(root, ['rev-parse', '--is-inside-work-tree'], options.gitTimeoutMs)).trim();
      // A folder that an outer repository ignores (say a sample workspace under an ignored
      // `.cache/`) gets nothing from `git ls-files --exclude-standard`: walk it with its own
      // ignore files instead, as a person opening that folder expects. With ignored files
      // included, git lists everything under the folder and is asked directly.
      if (inside === 'true' && (options.includeIgnored || !(await ignoredByOuterRepository(root, options.gitTimeoutMs)))) {
        return { paths: await listWithGit(root, rootReal, options), source: 'git' };
      }
    } catch {
      // not a repository, or git missing: walk
    }
  }
  return { paths: await walk(root, rootReal, options), source: 'walk' };
}
