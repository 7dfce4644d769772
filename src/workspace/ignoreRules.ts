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
// Rules that fill every bound still cost tens to hundreds of milliseconds for a folder's paths, so
// the listing and the watcher read and compile them in steps (`prepare`) and check paths between
// event-loop turns (decision 733); the synchronous checks stay for the editor's listing and tests.
import { join } from 'node:path';
import { compileSettingExcludes } from './excludeGlobs';
import { MAX_EXCLUDE_TEXT, MAX_EXCLUDE_WILDCARDS } from './excludeBudget';
import { GitignoreMatcher } from './gitignoreMatcher';
import { readIgnoreFile } from './ignoreFileRead';
import { budgetLeft, warnIgnore, type RuleBudget } from './ignoreLimits';
import { runToEnd } from './runSteps';
import { nextSlice, runInSharedSlices, sliceSpent } from './sharedSlices';
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
  /** Folders whose ignore files `prepare` is reading. */
  private readonly reading = new Map<string, Promise<unknown>>();
  /** Counts `reset`s: a read that began before one is not kept. */
  private generation = 0;

  constructor(
    readonly root: string,
    private readonly options: IgnoreOptions,
  ) {
    this.useFiles = options.useIgnoreFiles !== false;
    const { matcher, leftOut } = compileSettingExcludes(options.extraExcludes ?? [], options.caseSensitive);
    this.extra = matcher && ((p: string) => matcher.test(p));
    if (leftOut > 0) warnIgnore(`${leftOut} files.exclude/search.exclude glob${leftOut === 1 ? ' was' : 's were'} left out in ${root}: together past ${MAX_EXCLUDE_TEXT} characters or ${MAX_EXCLUDE_WILDCARDS} inner wildcards (their files are shown)`);
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
    const known = this.dirRules.get(dir);
    return known !== undefined ? known : runToEnd(this.readSteps(dir));
  }

  /**
   * Reads the ignore files of `dir` (those of the folders above are read first: they give its
   * budget), a step per file and per few rules. What it read is kept unless `reset` came in between
   * or a synchronous check read the same files meanwhile.
   */
  private *readSteps(dir: string): Generator<void, GitignoreMatcher | null, void> {
    const generation = this.generation;
    let rules: GitignoreMatcher | null = null;
    if (this.useFiles) {
      const files = [...(dir === '' ? [join(this.root, '.git', 'info', 'exclude')] : []), ...IGNORE_FILES.map((name) => join(this.root, dir, name))];
      for (const abs of files) {
        const text = readIgnoreFile(abs);
        yield;
        if (!text) continue;
        rules ??= this.newMatcher(dir);
        // `.ignore` is added after `.gitignore`, so it can override it (ripgrep's precedence).
        yield* rules.addSteps(text, abs);
      }
    }
    const known = this.dirRules.get(dir);
    if (known !== undefined) return known;
    if (generation === this.generation) this.dirRules.set(dir, rules);
    return rules;
  }

  /**
   * Reads the ignore files that apply inside `dir` (its own and those of the folders above) and
   * compiles their largest groups, a file, a few rules or a group at a time, between event-loop
   * turns shared with all other sliced work (sharedSlices.ts, decision 733). Afterwards a check of
   * a path in `dir` compiles at most the smaller groups of a group it matched. Tasks that prepare
   * the same folder at once read its files once.
   */
  async prepare(dir: string): Promise<void> {
    const parts = dir === '' ? [] : dir.split('/');
    for (let k = 0; k <= parts.length; k++) {
      const at = parts.slice(0, k).join('/');
      let rules = this.dirRules.get(at);
      if (rules === undefined) {
        let reading = this.reading.get(at);
        if (!reading) {
          const started = runInSharedSlices(this.readSteps(at)).finally(() => this.reading.get(at) === started && this.reading.delete(at));
          this.reading.set(at, (reading = started));
        }
        await reading;
        rules = this.dirRules.get(at) ?? null;
      }
      while (rules) {
        if (sliceSpent()) await nextSlice();
        if (!rules.warmStep()) break;
      }
    }
  }

  /** `fileIgnored`, its rules read and compiled first, all between turns. */
  async fileIgnoredInTurns(rel: string): Promise<boolean> {
    await this.prepare(parentDir(rel));
    return runInSharedSlices(this.fileIgnoredSteps(rel));
  }

  /** `dirIgnored`, its rules read and compiled first, all between turns. */
  async dirIgnoredInTurns(rel: string): Promise<boolean> {
    await this.prepare(parentDir(rel));
    return runInSharedSlices(this.dirIgnoredSteps(rel));
  }

  /** Forget cached rules (an ignore file changed). */
  reset(): void {
    this.generation++;
    this.reading.clear();
    this.dirRules.clear();
    this.dirVerdict.clear();
  }

  /**
   * Is `rel` hidden, judged by its own name only (its ancestors are assumed visible)? A step after
   * each folder's rules are tried: each may compile the smaller groups of a group the path matched,
   * and a path deep in folders that all have rules tries them all (decision 733).
   */
  private *hiddenSteps(rel: string, isDir: boolean): Generator<void, boolean, void> {
    const parts = rel.split('/');
    if (isVcsFolder(parts[parts.length - 1])) return true;
    if (this.extra?.(rel)) return true;
    let verdict = false;
    let tried = false;
    let dir = '';
    for (let k = 0; k < parts.length; k++) {
      const rules = this.rulesOf(dir);
      if (rules) {
        if (tried) yield;
        tried = true;
        const sub = parts.slice(k).join('/') + (isDir ? '/' : '');
        const r = rules.test(sub);
        if (r.ignored) verdict = true;
        else if (r.unignored) verdict = false;
      }
      dir = dir ? `${dir}/${parts[k]}` : parts[k];
    }
    return verdict;
  }

  /** `dirIgnored` a step at a time. */
  *dirIgnoredSteps(rel: string): Generator<void, boolean, void> {
    if (rel === '') return false;
    const cached = this.dirVerdict.get(rel);
    if (cached !== undefined) return cached;
    const slash = rel.lastIndexOf('/');
    const verdict = (slash > 0 && (yield* this.dirIgnoredSteps(rel.slice(0, slash)))) || (yield* this.hiddenSteps(rel, true));
    this.dirVerdict.set(rel, verdict);
    return verdict;
  }

  /** `fileIgnored` a step at a time. */
  *fileIgnoredSteps(rel: string): Generator<void, boolean, void> {
    const slash = rel.lastIndexOf('/');
    if (slash > 0) {
      // The folder's verdict is usually known (the walk checked it before it went in).
      const parent = rel.slice(0, slash);
      if (this.dirVerdict.get(parent) ?? (yield* this.dirIgnoredSteps(parent))) return true;
    }
    return yield* this.hiddenSteps(rel, false);
  }

  /** Is directory `rel` hidden (itself or through an ancestor)? Cached. */
  dirIgnored(rel: string): boolean {
    return runToEnd(this.dirIgnoredSteps(rel));
  }

  /** Is file `rel` hidden (itself or through an ancestor directory)? */
  fileIgnored(rel: string): boolean {
    return runToEnd(this.fileIgnoredSteps(rel));
  }

  /** Only the extra globs (used on top of git's own ignore handling). */
  extraExcluded(rel: string): boolean {
    if (!this.extra) return false;
    if (this.extra(rel)) return true;
    for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) if (this.extra(rel.slice(0, i))) return true;
    return false;
  }
}

/** The folder of a relative path ('' at the root). */
function parentDir(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

export { dotIgnoreFilter, dotIgnoreFilterInTurns, MAX_DOT_IGNORE_FILES } from './dotIgnore';
