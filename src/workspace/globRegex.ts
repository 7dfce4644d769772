// A glob (`src/**/*.{ts,tsx}`) as an RE2 regular expression, for the linear-time engine
// (issue 12 finding 2: picomatch compiles globs to backtracking JS regexes with look-arounds, and
// `*a*a*a*…b` against a long name is polynomial). Semantics follow picomatch with `dot: true`:
// `*` and `?` stay within one path segment, `**` as a whole segment spans any number of them,
// `[…]`/`[!…]` are classes, `{a,b}` alternatives (nested), `\` escapes. Other characters are literal.
// Shared by the Grep/Glob tools (src/tools/search) and §16.1.1 exclude_patterns (excludeGlobs.ts).

const SPECIAL = /[\\.^$|?*+()[\]{}]/g;
const MAX_PATTERN = 10_000;
const MAX_BRACE_DEPTH = 16;

export class GlobSyntaxError extends Error {}

/** `s` as an RE2 literal (also used by gitignoreMatcher.ts). */
export function regexLiteral(s: string): string {
  return s.replace(SPECIAL, '\\$&');
}

/** Index of the `}` closing the `{` at `open`, and the top-level comma positions; undefined if unclosed. */
function braceGroup(p: string, open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return { close: i, commas };
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return undefined;
}

function translate(p: string, depth: number): string {
  if (depth > MAX_BRACE_DEPTH) throw new GlobSyntaxError(`braces nest deeper than ${MAX_BRACE_DEPTH}`);
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (i + 1 < p.length) out += regexLiteral(p[++i]);
      continue;
    }
    if (c === '*') {
      let j = i;
      while (p[j + 1] === '*') j++;
      const globstar = j > i;
      const wholeSegment = (i === 0 || p[i - 1] === '/') && (j + 1 === p.length || p[j + 1] === '/');
      if (globstar && wholeSegment) {
        if (p[j + 1] === '/') {
          out += '(?:[^/]*/)*';
          j++;
        } else if (i > 0 && out.endsWith('/')) out = `${out.slice(0, -1)}(?:/.*)?`; // `src/**` is `src` too
        else out += '.*';
      } else out += '[^/]*';
      i = j;
      continue;
    }
    if (c === '?') {
      out += '[^/]';
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      const negated = p[j] === '!' || p[j] === '^';
      if (negated) j++;
      if (p[j] === ']') j++;
      const close = p.indexOf(']', j);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      const body = p.slice(negated ? i + 2 : i + 1, close).replace(/[\\[\]^]/g, '\\$&');
      out += negated ? `[^/${body}]` : `[${body}]`;
      i = close;
      continue;
    }
    if (c === '{') {
      const g = braceGroup(p, i);
      if (!g || g.commas.length === 0) {
        out += '\\{';
        continue;
      }
      const bounds = [i, ...g.commas, g.close];
      const alternatives: string[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) alternatives.push(translate(p.slice(bounds[k] + 1, bounds[k + 1]), depth + 1));
      out += `(?:${alternatives.join('|')})`;
      i = g.close;
      continue;
    }
    out += regexLiteral(c);
  }
  return out;
}

/** The RE2 source matching exactly the paths (`/`-separated, relative) the glob matches. */
export function globToRegexSource(glob: string): string {
  if (glob.length > MAX_PATTERN) throw new GlobSyntaxError(`the glob is longer than ${MAX_PATTERN} characters`);
  const p = glob.startsWith('./') ? glob.slice(2) : glob;
  return `^${translate(p, 0)}$`;
}
