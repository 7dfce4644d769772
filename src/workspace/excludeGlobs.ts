// The §16.1 `filters.exclude_patterns` of a master's file search, compiled ONCE into one
// linear-time matcher (issue 12 #11: 20,000 patterns froze a search ~6 s, one picomatch regex per
// pattern tried on every path; and a backtracking regex built from a glob like `*a*a*a*a*b` can be
// made to take seconds on one long path). Patterns are capped in number and length, translated to
// RE2 syntax by globRegex.ts (picomatch's `dot: true` semantics, as searches had before) and joined
// into one alternation that re2js matches in time linear in the path. Extglobs (`@(…)`, `!(…)`, …)
// and negation (`!x`) are refused with a clear error rather than read differently.
import { RE2JS } from 're2js';
import { globToRegexSource } from './globRegex';
import { ExcludeBudget, GLOB_OVERHEAD, MAX_EXCLUDE_TEXT, MAX_EXCLUDE_WILDCARDS } from './excludeBudget';

export const MAX_EXCLUDE_PATTERNS = 256;
export const MAX_EXCLUDE_PATTERN_LENGTH = 512;

export class ExcludePatternError extends Error {}

/** A compiled set of exclude globs: `test(path)` says whether a workspace-relative path is excluded. */
export interface ExcludeMatcher {
  test(path: string): boolean;
}

/** Compile `globs` (empty ones ignored); throws ExcludePatternError on too many, too long or unsupported ones. */
export function compileExcludes(globs: readonly string[]): ExcludeMatcher | undefined {
  const list = globs.filter((g) => g.length > 0);
  if (list.length === 0) return undefined;
  if (list.length > MAX_EXCLUDE_PATTERNS) throw new ExcludePatternError(`too many exclude_patterns: ${list.length} (at most ${MAX_EXCLUDE_PATTERNS})`);
  const budget = new ExcludeBudget();
  const sources = list.map((g) => {
    if (g.length > MAX_EXCLUDE_PATTERN_LENGTH) throw new ExcludePatternError(`an exclude pattern is ${g.length} characters long (at most ${MAX_EXCLUDE_PATTERN_LENGTH})`);
    budget.take(g);
    return globToRe2(g);
  });
  // Compiling is one block of the event loop (excludeBudget.ts, decision 737): refused in words.
  if (budget.text > MAX_EXCLUDE_TEXT) throw new ExcludePatternError(`exclude_patterns are too long together: ${budget.text} characters counting ${GLOB_OVERHEAD} more a pattern (at most ${MAX_EXCLUDE_TEXT})`);
  if (budget.wildcards > MAX_EXCLUDE_WILDCARDS) throw new ExcludePatternError(`exclude_patterns hold ${budget.wildcards} wildcards inside patterns (not leading or trailing; at most ${MAX_EXCLUDE_WILDCARDS})`);
  // DOTALL: a file name may hold a newline (issue 12 #9), and `**` must still cover it.
  const re = RE2JS.compile(`(?:${sources.join('|')})`, RE2JS.DOTALL);
  return { test: (path) => re.matches(path) };
}

/** At most this many `files.exclude`/`search.exclude` globs are applied (VS Code's defaults are ten). */
export const MAX_SETTING_EXCLUDES = 1024;

/** Setting globs compiled, and how many were left out past excludeBudget.ts's bounds (to be said). */
export interface SettingExcludes {
  matcher: ExcludeMatcher | undefined;
  leftOut: number;
}

/**
 * The exclude globs of a folder's settings (`files.exclude`, `search.exclude`), which a cloned
 * repository's `.vscode/settings.json` chooses, as one linear-time matcher (decision 540; picomatch
 * took minutes on `*a*a…*b`). Unlike a master's exclude_patterns these never fail the listing: a
 * glob this syntax cannot read (negation, extglob, too long) is left out, so its files are shown;
 * so are the globs past the bounds of one compile (decision 737), which the caller says.
 */
export function compileSettingExcludes(globs: readonly string[], caseSensitive: boolean): SettingExcludes {
  const sources: string[] = [];
  const budget = new ExcludeBudget();
  let leftOut = 0;
  for (const g of globs) {
    if (g.trim().length === 0 || g.length > MAX_EXCLUDE_PATTERN_LENGTH || sources.length >= MAX_SETTING_EXCLUDES) continue;
    if (!budget.fits(g)) {
      leftOut++;
      continue;
    }
    try {
      sources.push(globToRe2(g));
      budget.take(g);
    } catch {
      // unsupported syntax: not applied
    }
  }
  if (sources.length === 0) return { matcher: undefined, leftOut };
  const re = RE2JS.compile(`(?:${sources.join('|')})`, RE2JS.DOTALL | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE));
  return { matcher: { test: (path) => re.matches(path) }, leftOut };
}

/**
 * One glob as an RE2 expression matching a whole workspace-relative path (globRegex.ts, shared with
 * the Grep/Glob tools), after refusing what that translation would read differently from picomatch.
 */
export function globToRe2(glob: string): string {
  const g = glob.replace(/^(\.\/)+/, '');
  if (g.startsWith('!')) throw new ExcludePatternError(`negated exclude pattern "${glob}" is not supported`);
  for (let i = 0; i + 1 < g.length; i++) {
    if (g[i] === '\\') i++;
    else if ('@!+*?'.includes(g[i]) && g[i + 1] === '(') throw new ExcludePatternError(`extglob syntax in exclude pattern "${glob}" is not supported`);
  }
  try {
    return globToRegexSource(g);
  } catch (e) {
    throw new ExcludePatternError(`exclude pattern "${glob}": ${e instanceof Error ? e.message : String(e)}`);
  }
}
