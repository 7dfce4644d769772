// Which workspace paths are hidden: nested `.gitignore` and `.ignore` files, `.git/info/exclude`,
// and extra globs (VS Code `files.exclude` / `search.exclude`), plus the `.git` directory itself.
//
// Matching is case-sensitive on case-sensitive file systems: gitignore matchers (the `ignore`
// package, ours after it) lower-case by default, which would let a `*.s` rule hide `x.S` on Linux,
// where those are different files.
// Rules are read lazily per directory (sync, small files) and cached, so a path that a watcher
// reports can be checked in microseconds once its directories are known. Each file is read without
// following a link, only if regular and only its first MiB (ignoreFileRead.ts, decision 711).
// Ignore files and exclude settings come with the repository (a cloned `.vscode/settings.json` sets
// `files.exclude`), so both are matched in linear time with re2js (decision 540): the `ignore`
// package's and picomatch's backtracking regexes let one rule freeze the host for seconds.
import { join } from 'node:path';
import { compileSettingExcludes } from './excludeGlobs';
import { GitignoreMatcher } from './gitignoreMatcher';
import { readIgnoreFile } from './ignoreFileRead';
import { budgetLeft, warnIgnore, type RuleBudget } from './ignoreLimits';
import { isVcsFolder } from './vcsFolders';

export const IGNORE_FILES = ['.gitignore', '.ignore'] as const;

export interface IgnoreOptions {
  caseSensitive: boolean;
  /** Globs relative to the root (picomatch's `dot: true` syntax, globRegex.ts); a matching directory hides its content. */
  extraExcludes?: readonly string[];
  /** Honour ignore files at all (false for the `global` scope, which shows ignored files too). */
  useIgnoreFiles?: boolean;
}

export class IgnoreRules {
  /** Per directory ('' = root): its own matcher, or null when it has no ignore files. */
  private readonly dirRules = new Map<string, GitignoreMatcher | null>();
  private readonly dirVerdict = new Map<string, boolean>();
  private readonly extra: ((p: string) => boolean) | undefined;
  private readonly useFiles: boolean;

  constructor(
    readonly root: string,
    private readonly options: IgnoreOptions,
  ) {
    this.useFiles = options.useIgnoreFiles !== false;
    const excludes = compileSettingExcludes(options.extraExcludes ?? [], options.caseSensitive);
    this.extra = excludes && ((p: string) => excludes.test(p));
  }

  /**
   * A matcher for the ignore files of `dir`, with the budget its ancestors' rules left: a path is
   * tried against all of them, so together they stay within one budget (decision 711).
   */
  private newMatcher(dir: string): GitignoreMatcher {
    const spent: RuleBudget[] = [];
    const parts = dir === '' ? [] : dir.split('/');
    for (let k = 0; k < parts.length; k++) {
      const above = this.rulesOf(parts.slice(0, k).join('/'));
      if (above) spent.push(above.spent);
    }
    return new GitignoreMatcher({ ignoreCase: !this.options.caseSensitive, budget: budgetLeft(spent) });
  }

  /** Rules that apply inside `dir` (relative, '' for root), read on first use. */
  private rulesOf(dir: string): GitignoreMatcher | null {
    let rules = this.dirRules.get(dir);
    if (rules !== undefined) return rules;
    rules = null;
    if (this.useFiles) {
      const files = [...(dir === '' ? [join(this.root, '.git', 'info', 'exclude')] : []), ...IGNORE_FILES.map((name) => join(this.root, dir, name))];
      for (const abs of files) {
        const text = readIgnoreFile(abs);
        if (!text) continue;
        rules ??= this.newMatcher(dir);
        // `.ignore` is added after `.gitignore`, so it can override it (ripgrep's precedence).
        rules.add(text, abs);
      }
    }
    this.dirRules.set(dir, rules);
    return rules;
  }

  /** Forget cached rules (an ignore file changed). */
  reset(): void {
    this.dirRules.clear();
    this.dirVerdict.clear();
  }

  /** Is `rel` hidden, judged by its own name only (its ancestors are assumed visible)? */
  private hiddenItself(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    if (isVcsFolder(parts[parts.length - 1])) return true;
    if (this.extra?.(rel)) return true;
    let verdict = false;
    let dir = '';
    for (let k = 0; k < parts.length; k++) {
      const rules = this.rulesOf(dir);
      if (rules) {
        const sub = parts.slice(k).join('/') + (isDir ? '/' : '');
        const r = rules.test(sub);
        if (r.ignored) verdict = true;
        else if (r.unignored) verdict = false;
      }
      dir = dir ? `${dir}/${parts[k]}` : parts[k];
    }
    return verdict;
  }

  /** Is directory `rel` hidden (itself or through an ancestor)? Cached. */
  dirIgnored(rel: string): boolean {
    if (rel === '') return false;
    const cached = this.dirVerdict.get(rel);
    if (cached !== undefined) return cached;
    const slash = rel.lastIndexOf('/');
    const verdict = (slash > 0 && this.dirIgnored(rel.slice(0, slash))) || this.hiddenItself(rel, true);
    this.dirVerdict.set(rel, verdict);
    return verdict;
  }

  /** Is file `rel` hidden (itself or through an ancestor directory)? */
  fileIgnored(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    if (slash > 0 && this.dirIgnored(rel.slice(0, slash))) return true;
    return this.hiddenItself(rel, false);
  }

  /** Only the extra globs (used on top of git's own ignore handling). */
  extraExcluded(rel: string): boolean {
    if (!this.extra) return false;
    if (this.extra(rel)) return true;
    for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) if (this.extra(rel.slice(0, i))) return true;
    return false;
  }
}

/** `.ignore` files read for one git listing (the nearest the root first). */
export const MAX_DOT_IGNORE_FILES = 256;

/**
 * `.ignore` files listed by git, as a filter: git knows nothing of `.ignore` (a ripgrep/fd
 * convention), so its rules are applied to git's listing afterwards. They are all read, compiled
 * and applied in one synchronous call, so together they get one budget (decision 711), spent from
 * the root down, and at most MAX_DOT_IGNORE_FILES of them are read.
 */
export function dotIgnoreFilter(root: string, paths: readonly string[], caseSensitive: boolean): ((rel: string) => boolean) | undefined {
  const depth = (p: string) => p.split('/').length;
  const found = paths.filter((p) => p === '.ignore' || p.endsWith('/.ignore')).sort((a, b) => depth(a) - depth(b) || a.length - b.length);
  if (found.length > MAX_DOT_IGNORE_FILES) warnIgnore(`${root}: ${found.length} .ignore files, only the ${MAX_DOT_IGNORE_FILES} nearest the root are read`);
  const dirs: { dir: string; rules: GitignoreMatcher }[] = [];
  for (const p of found.slice(0, MAX_DOT_IGNORE_FILES)) {
    const budget = budgetLeft(dirs.map((d) => d.rules.spent));
    if (budget.rules <= 0 || budget.size <= 0) {
      warnIgnore(`${join(root, p)} and further .ignore files not read: the rules of this repository's .ignore files reached their bound`);
      break;
    }
    const text = readIgnoreFile(join(root, p));
    if (!text) continue;
    const dir = p.slice(0, Math.max(0, p.length - '.ignore'.length - 1));
    dirs.push({ dir, rules: new GitignoreMatcher({ ignoreCase: !caseSensitive, budget }).add(text, join(root, p)) });
  }
  if (dirs.length === 0) return undefined;
  dirs.sort((a, b) => a.dir.length - b.dir.length);
  return (rel) => {
    let verdict = false;
    for (const { dir, rules } of dirs) {
      if (dir !== '' && !rel.startsWith(dir + '/')) continue;
      const sub = dir === '' ? rel : rel.slice(dir.length + 1);
      // A rule may name a directory on the way down: test each ancestor as a directory too.
      const parts = sub.split('/');
      for (let k = 1; k <= parts.length; k++) {
        const piece = parts.slice(0, k).join('/') + (k < parts.length ? '/' : '');
        const r = rules.test(piece);
        if (r.ignored) verdict = true;
        else if (r.unignored && k === parts.length) verdict = false;
      }
    }
    return verdict;
  };
}
