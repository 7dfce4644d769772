// The §16.1 `filters.exclude_patterns` of a master's file search, compiled ONCE into one
// linear-time matcher (issue 12 #11: 20,000 patterns froze a search ~6 s, one picomatch regex per
// pattern tried on every path; and a backtracking regex built from a glob like `*a*a*a*a*b` can be
// made to take seconds on one long path). Patterns are capped in number and length, translated to
// RE2 syntax (no lookaround, no backreferences) and joined into one alternation that re2js
// matches in time linear in the path.
//
// Glob syntax, as picomatch reads it with `dot: true` (the semantics searches had before):
// `*` any run within a segment, `**` as a whole segment any number of segments, `?` one character
// but `/`, `[...]` / `[!...]` classes, `{a,b}` alternatives (nested), `\` escapes. A leading `./` is
// dropped. Extglobs (`@(…)`, `!(…)`, …) and negation (`!x`) are refused with a clear error rather
// than read differently.
import { RE2JS } from 're2js';

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
  const sources = list.map((g) => {
    if (g.length > MAX_EXCLUDE_PATTERN_LENGTH) throw new ExcludePatternError(`an exclude pattern is ${g.length} characters long (at most ${MAX_EXCLUDE_PATTERN_LENGTH})`);
    return globToRe2(g);
  });
  // DOTALL: a file name may hold a newline (issue 12 #9), and `**` must still cover it.
  const re = RE2JS.compile(`(?:${sources.join('|')})`, RE2JS.DOTALL);
  return { test: (path) => re.matches(path) };
}

/** One glob as an RE2 expression matching a whole workspace-relative path. */
export function globToRe2(glob: string): string {
  let g = glob;
  while (g.startsWith('./')) g = g.slice(2);
  if (g.startsWith('!')) throw new ExcludePatternError(`negated exclude pattern "${glob}" is not supported`);
  return new Translator(glob, g).run();
}

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;

class Translator {
  private i = 0;
  /** Nesting of `{…}` we are inside (commas only split alternatives there). */
  private braces = 0;

  constructor(
    private readonly original: string,
    private readonly g: string,
  ) {}

  run(): string {
    return this.sequence();
  }

  /** Translate until the end, or until a `,` / `}` that closes the current brace group. */
  private sequence(): string {
    let out = '';
    const g = this.g;
    while (this.i < g.length) {
      const c = g[this.i];
      if (this.braces > 0 && (c === ',' || c === '}')) return out;
      if ('@!+*?'.includes(c) && g[this.i + 1] === '(') throw new ExcludePatternError(`extglob syntax in exclude pattern "${this.original}" is not supported`);
      if (c === '\\') {
        const next = g[this.i + 1];
        out += next === undefined ? '\\\\' : literal(next);
        this.i += 2;
      } else if (c === '/' && this.trailingGlobstarAt(this.i + 1)) {
        // `dir/**` : the folder itself and everything under it.
        out += '(?:/.*)?';
        this.i = this.endOfStars(this.i + 1);
      } else if (c === '*') out += this.star();
      else if (c === '?') {
        out += '[^/]';
        this.i++;
      } else if (c === '[') out += this.charClass();
      else if (c === '{') out += this.braceGroup();
      else {
        out += literal(c);
        this.i++;
      }
    }
    return out;
  }

  /** `*` within a segment (never empty when it is the whole segment); `**` as a whole segment spans segments. */
  private star(): string {
    const g = this.g;
    const j = this.endOfStars(this.i);
    const double = j - this.i >= 2;
    const segmentStart = this.i === 0 || g[this.i - 1] === '/';
    const segmentEnd = g[j] === '/' || this.closesHere(j);
    this.i = j;
    if (double && segmentStart && g[j] === '/') {
      this.i = j + 1;
      return '(?:[^/]*/)*'; // `**/` : zero or more whole segments
    }
    if (double && segmentStart && segmentEnd) return '.*';
    return segmentStart && segmentEnd ? '[^/]+' : '[^/]*';
  }

  private endOfStars(j: number): number {
    while (this.g[j] === '*') j++;
    return j;
  }

  /** The pattern (or the current brace alternative) ends at `j`. */
  private closesHere(j: number): boolean {
    return j === this.g.length || (this.braces > 0 && (this.g[j] === ',' || this.g[j] === '}'));
  }

  /** `**` starts at `j` and closes the pattern. */
  private trailingGlobstarAt(j: number): boolean {
    const end = this.endOfStars(j);
    return end - j >= 2 && this.closesHere(end);
  }

  /** `[abc]`, `[a-z]`, `[!x]`/`[^x]`; an unterminated `[` is a literal. */
  private charClass(): string {
    const g = this.g;
    let j = this.i + 1;
    let negate = false;
    if (g[j] === '!' || g[j] === '^') {
      negate = true;
      j++;
    }
    let body = '';
    let first = true;
    for (; j < g.length; j++) {
      const c = g[j];
      if (c === ']' && !first) break;
      first = false;
      if (c === '\\' && j + 1 < g.length) {
        body += `\\${g[++j]}`;
      } else body += /[\]\\^[]/.test(c) ? `\\${c}` : c;
    }
    if (j >= g.length) {
      this.i++;
      return '\\[';
    }
    this.i = j + 1;
    // A class never matches `/` (a path separator is never part of a segment's characters).
    return negate ? `[^/${body}]` : `[${body}]`;
  }

  /** `{a,b,c}` as alternatives (nested groups allowed); a group without a comma is literal. */
  private braceGroup(): string {
    const start = this.i;
    this.i++;
    this.braces++;
    const alts: string[] = [this.sequence()];
    while (this.i < this.g.length && this.g[this.i] === ',') {
      this.i++;
      alts.push(this.sequence());
    }
    this.braces--;
    if (this.g[this.i] !== '}' || alts.length < 2) {
      // Not a real group: read `{` literally and go on after it.
      this.i = start + 1;
      return '\\{';
    }
    this.i++;
    return `(?:${alts.join('|')})`;
  }
}

function literal(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}
