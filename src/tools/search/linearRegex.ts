// The linear-time regex engine of Grep and Glob: RE2 semantics through re2js (no backtracking, so
// no pattern can take exponential time — issue 12 finding 2: `(a+)+$` on a 30-character line took
// V8 20 s). JavaScript syntax is translated (named groups, \u{…}); look-arounds and
// back-references, which need backtracking, are refused with a clear message. Pure functions: the
// search worker runs them, off the host's event loop.
import { RE2JS } from 're2js';
import { globToRegexSource } from '../../workspace/globRegex';

export interface RegexOptions {
  ignoreCase?: boolean;
  /** `.` matches newlines and a match may span lines (Grep's `multiline`). */
  multiline?: boolean;
}

export class RegexSyntaxError extends Error {}

/** Patterns longer than this are refused: matching cost grows with pattern size × text size. */
export const MAX_PATTERN_LENGTH = 4_096;

export function compileLinear(pattern: string, o: RegexOptions = {}): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new RegexSyntaxError(`the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  const flags = RE2JS.MULTILINE | (o.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (o.multiline ? RE2JS.DOTALL : 0);
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  } catch (e) {
    const why = (e as Error).message;
    const hint = /\(\?[=!<]|\\[1-9]/.test(pattern) ? ' (look-arounds and back-references are not supported: the search engine is linear-time, RE2 syntax)' : ' (RE2 syntax)';
    throw new RegexSyntaxError(`${why}${hint}`);
  }
}

/** Indices of the paths any of the globs matches (each path also tried by its last segment when `orBasename`). */
export function globFilter(globs: readonly string[], paths: readonly string[], orBasename = false): number[] {
  const res = globs.map((g) => RE2JS.compile(globToRegexSource(g), RE2JS.DOTALL));
  const out: number[] = [];
  paths.forEach((p, i) => {
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (res.some((re) => re.matches(p) || (orBasename && re.matches(name)))) out.push(i);
  });
  return out;
}
