// `.gitignore` / `.ignore` rules matched in time linear in the path (decision 540). The `ignore`
// package compiles each rule to a backtracking JS regex: `x/**/**/…/z` becomes adjacent
// `(?:\/[^\/]+)*` groups that took 17 s on one 40-segment path, and a repository chooses its own
// .gitignore. Here each rule is translated to RE2 syntax (gitignore's glob dialect, not picomatch's:
// no braces, `abc/**` is not `abc` itself, brackets never match `/`, so globRegex.ts cannot be
// reused as is) and run by re2js. The answers are those of `ignore` 7 (`test`/`ignores`: the last
// matching rule wins, an ignored parent directory settles its content); a test checks them against
// it on a table and on random patterns. A repository chooses the rules' number and length too: both
// are bounded, and the rules are compiled in chunks, each on first need (decision 711) or a chunk a
// step before a listing tries paths, and read a few rules a step (decision 733).
import { RE2JS } from 're2js';
import { gitignoreLines } from './gitignoreLines';
import { regexLiteral } from './globRegex';
import { IGNORE_RULE_BUDGET, MAX_IGNORE_RULE_LENGTH, MAX_IGNORE_RULES, MAX_IGNORE_RULES_SIZE, MAX_IGNORE_WILDCARDS, RULE_OVERHEAD, type IgnoreWarningSink, type RuleBudget, warnIgnore } from './ignoreLimits';
import { CHUNK_LIMITS, chunkBounds, chunkSource, wildcardsOf, type RuleParts } from './ruleChunks';
import { runToEnd } from './runSteps';

export interface GitignoreVerdict {
  ignored: boolean;
  unignored: boolean;
}

interface Rule extends RuleParts {
  negative: boolean;
}

/** An alternation of rules `from … to - 1`, compiled on first use, and its smaller groups once a path matched it. */
interface Group {
  from: number;
  to: number;
  /** undefined: not compiled yet; null: did not compile. */
  re?: RE2JS | null;
  parts?: Group[];
}

type Tok = { t: 'lit'; c: string } | { t: 'star' } | { t: 'q' } | { t: 'cls'; re: string } | { t: 'slash' };

const POSIX: Record<string, [number, number][]> = {
  alnum: [[48, 57], [65, 90], [97, 122]],
  alpha: [[65, 90], [97, 122]],
  blank: [[32, 32], [9, 9]],
  cntrl: [[0, 31], [127, 127]],
  digit: [[48, 57]],
  graph: [[33, 46], [48, 126]],
  lower: [[97, 122]],
  print: [[32, 46], [48, 126]],
  punct: [[33, 46], [58, 64], [91, 96], [123, 126]],
  space: [[32, 32], [9, 10], [13, 13]],
  upper: [[65, 90]],
  xdigit: [[48, 57], [65, 70], [97, 102]],
};
const SLASH = 47;
const NEVER = null;
const MAX_CACHE = 50_000;
/** Rules read between two steps of `addSteps`: each one's translation takes a few µs. */
const RULES_PER_STEP = 64;

const hex = (n: number) => `\\x{${n.toString(16)}}`;

/**
 * The bracket expression at `p[start] === '['`, read as git's wildmatch does (a `]` first is a
 * member, `\` quotes, `[:name:]` classes, an out-of-order range keeps only its first character):
 * its RE2 class, which never matches `/`. null: unterminated or unknown class, the pattern never matches.
 */
function bracket(p: string, start: number): { end: number; re: string | null } | null {
  let i = start + 1;
  const negated = p[i] === '!' || p[i] === '^';
  if (negated) i++;
  const ranges: [number, number][] = [];
  let prev = '';
  for (;;) {
    const c = p[i];
    if (c === undefined) return NEVER;
    if (c === '\\') {
      const e = p[++i];
      if (e === undefined) return NEVER;
      ranges.push([e.charCodeAt(0), e.charCodeAt(0)]);
      prev = e;
    } else if (c === '-' && prev && i + 1 < p.length && p[i + 1] !== ']') {
      let to = p[++i];
      if (to === '\\') to = p[++i];
      if (to === undefined) return NEVER;
      if (prev <= to) ranges.push([prev.charCodeAt(0), to.charCodeAt(0)]);
      prev = '';
    } else if (c === '[' && p[i + 1] === ':') {
      let end = i + 2;
      while (end < p.length && p[end] !== ']') end++;
      if (end === p.length) return NEVER;
      if (end > i + 2 && p[end - 1] === ':') {
        const members = Object.hasOwn(POSIX, p.slice(i + 2, end - 1)) ? POSIX[p.slice(i + 2, end - 1)] : undefined;
        if (!members) return NEVER;
        ranges.push(...members);
        prev = '';
        i = end;
      } else {
        ranges.push([91, 91]);
        prev = '[';
      }
    } else {
      ranges.push([c.charCodeAt(0), c.charCodeAt(0)]);
      prev = c;
    }
    i++;
    if (p[i] === ']') break;
  }
  if (negated) return { end: i, re: `[^/${ranges.map(([a, b]) => hex(a) + (b > a ? `-${hex(b)}` : '')).join('')}]` };
  // RE2 has no class subtraction: cut `/` out of the ranges themselves.
  const parts: string[] = [];
  for (const [a, b] of ranges) {
    if (a < SLASH && b >= SLASH) parts.push(hex(a) + (SLASH - 1 > a ? `-${hex(SLASH - 1)}` : ''));
    if (b > SLASH && a <= SLASH) parts.push(hex(SLASH + 1) + (b > SLASH + 1 ? `-${hex(b)}` : ''));
    if (a > SLASH || b < SLASH) parts.push(hex(a) + (b > a ? `-${hex(b)}` : ''));
  }
  return { end: i, re: parts.length ? `[${parts.join('')}]` : null };
}

/** The pattern as tokens; null when git would never match it. */
function tokenize(p: string): Tok[] | null {
  const out: Tok[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      // A final `\/` is left without a character once git drops the directory slash: invalid.
      if (p[i + 1] === '/' && i + 2 === p.length) return NEVER;
      out.push({ t: 'lit', c: p[++i] });
    } else if (c === '[') {
      const b = bracket(p, i);
      if (!b?.re) return NEVER;
      out.push({ t: 'cls', re: b.re });
      i = b.end;
    } else out.push(c === '*' ? { t: 'star' } : c === '?' ? { t: 'q' } : c === '/' ? { t: 'slash' } : { t: 'lit', c });
  }
  return out;
}

const isStar = (t: Tok | undefined) => t?.t === 'star';
const isSlash = (t: Tok | undefined) => t?.t === 'slash';

/** Length of the run of stars at `i`. */
function starRun(toks: Tok[], i: number): number {
  let n = 0;
  while (isStar(toks[i + n])) n++;
  return n;
}

/** The RE2 source of one rule body (a search, not a whole match), or null if it never matches. */
export function gitignoreBodyToRe2(rawBody: string): string | null {
  const parts = gitignoreRuleParts(rawBody);
  return parts && parts.prefix + parts.middle + parts.ending;
}

/**
 * A rule's RE2 source in three parts: its anchoring (`^` or `(?:^|/)`), the pattern, its end. The
 * chunk alternations put the rules of the same anchoring and end under one prefix and end, which
 * makes their program smaller (decision 711).
 */
export function gitignoreRuleParts(rawBody: string): RuleParts | null {
  const body = /^\/\*{2,}$/.test(rawBody) ? '**' : rawBody;
  const parsed = tokenize(body);
  if (!parsed) return NEVER;
  // A run of 3+ stars filling a segment is `**` (git's wildmatch).
  let toks: Tok[] = [];
  for (let i = 0; i < parsed.length; ) {
    const n = starRun(parsed, i);
    if (n === 0) toks.push(parsed[i++]);
    else {
      const segment = (i === 0 || isSlash(parsed[i - 1])) && (i + n === parsed.length || isSlash(parsed[i + n]));
      for (let k = 0; k < (segment && n > 2 ? 2 : n); k++) toks.push({ t: 'star' });
      i += n;
    }
  }
  // Anchoring: a leading `/` anchors; leading `**/`s match at any depth; else a `/` before the
  // end anchors (escaped or in a bracket too: git looks at the raw text), and none does not.
  let prefix: string;
  const leadingSlash = isSlash(toks[0]);
  if (leadingSlash) toks = toks.slice(1);
  let globstarLead = false;
  while (isStar(toks[0]) && starRun(toks, 0) === 2 && isSlash(toks[2])) {
    toks = toks.slice(3);
    globstarLead = true;
  }
  if (globstarLead) prefix = '(?:^|/)';
  else if (leadingSlash || /\/(?!$)/.test(body)) prefix = '^';
  else prefix = '(?:^|/)';

  let out = '';
  let ending = toks.length > 0 && isSlash(toks[toks.length - 1]) ? '$' : '(?:$|/$)';
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.t === 'slash' && starRun(toks, i + 1) === 2 && (i + 3 === toks.length || isSlash(toks[i + 3]))) {
      if (i + 3 === toks.length) {
        // `abc/**`: everything inside, never `abc` itself, with or without an end.
        out += '/.';
        ending = '';
      } else {
        // `/**/` is zero or more directories; a final `/**/` at least one. Repeats are one group.
        const group = i + 4 === toks.length ? '(?:/[^/]+)+' : '(?:/[^/]+)*';
        if (!out.endsWith('(?:/[^/]+)*') && !out.endsWith('(?:/[^/]+)+')) out += group;
        else if (group.endsWith('+')) out = out.slice(0, -1) + '+';
      }
      i += 2;
      continue;
    }
    if (t.t === 'star') {
      const n = starRun(toks, i);
      const trailing = i + n === toks.length;
      // A lone final `*` after a slash needs one character: `abc/*` is not `abc/`.
      const afterSlash = i > 0 && (isSlash(toks[i - 1]) || (toks[i - 1].t === 'lit' && (toks[i - 1] as { c: string }).c === '/'));
      out += trailing && n === 1 && afterSlash ? '[^/]+' : '[^/]*';
      i += n - 1;
    } else if (t.t === 'q') out += '[^/]';
    else if (t.t === 'cls') out += t.re;
    else if (t.t === 'slash') out += '/';
    else out += regexLiteral(t.c);
  }
  return { prefix, middle: out, ending };
}

/** The parent of a path, with its trailing slash ('' for none): 'a/b/c' and 'a/b/c/' -> 'a/b/'. */
function parentOf(path: string): string {
  if (path.startsWith('/') || path.includes('//')) {
    const parts = path.split('/').filter(Boolean);
    parts.pop();
    return parts.length ? parts.join('/') + '/' : '';
  }
  const cut = path.lastIndexOf('/', path.endsWith('/') ? path.length - 2 : path.length - 1);
  return cut < 0 ? '' : path.slice(0, cut + 1);
}

const NONE: GitignoreVerdict = Object.freeze({ ignored: false, unignored: false });

/**
 * The rules of one or more ignore files (added in order; later ones win). Paths are relative,
 * `/`-separated, a directory with a trailing `/`. The rules kept stay within `budget` (by default
 * IGNORE_RULE_BUDGET; ignoreRules.ts gives what the folders above left), each at most
 * MAX_IGNORE_RULE_LENGTH long; what is left out is said through `warn` (decision 711).
 */
export class GitignoreMatcher {
  private readonly rules: Rule[] = [];
  /** What the rules kept cost, against the budget. */
  readonly spent: RuleBudget = { rules: 0, size: 0, wildcards: 0 };
  private readonly budget: Readonly<RuleBudget>;
  /** The largest alternations (CHUNK_LIMITS[0]), each compiled on first use or by `warmStep`. */
  private groups: Group[] = [];
  /** Groups before this one were compiled by `warmStep` or have been tried. */
  private warmed = 0;
  private readonly cache = new Map<string, GitignoreVerdict>();
  private readonly flags: number;
  private readonly warn: IgnoreWarningSink;

  constructor(options: { ignoreCase?: boolean; budget?: Readonly<RuleBudget>; warn?: IgnoreWarningSink } = {}) {
    // `ignore()` is case-insensitive unless told otherwise; so is this, for the same answers.
    this.flags = RE2JS.DOTALL | (options.ignoreCase === false ? 0 : RE2JS.CASE_INSENSITIVE);
    this.budget = options.budget ?? IGNORE_RULE_BUDGET;
    this.warn = options.warn ?? warnIgnore;
  }

  /** Adds the rules of one file's text; `source` names it in notices of rules left out. */
  add(text: string, source = 'ignore file'): this {
    runToEnd(this.addSteps(text, source));
    return this;
  }

  /**
   * `add` a step at a time, RULES_PER_STEP rules a step: a file of 1 MiB holds up to 512k lines
   * (decision 733). The rules apply only once it has run to its end.
   */
  *addSteps(text: string, source = 'ignore file'): Generator<void, void, void> {
    const before = this.rules.length;
    let tooLong = 0;
    let full = false;
    const { spent, budget } = this;
    let read = 0;
    for (const { negative, body } of gitignoreLines(text)) {
      if (++read % RULES_PER_STEP === 0) yield;
      if (body.length > MAX_IGNORE_RULE_LENGTH) {
        tooLong++;
        continue;
      }
      const parts = gitignoreRuleParts(body);
      if (parts === null) continue;
      const size = body.length + RULE_OVERHEAD;
      const loops = wildcardsOf(parts);
      // The first rules are kept whole rather than a sample: the file's own order decides.
      if (spent.rules + 1 > budget.rules || spent.size + size > budget.size || spent.wildcards + loops > budget.wildcards) {
        full = true;
        break;
      }
      spent.rules++;
      spent.size += size;
      spent.wildcards += loops;
      this.rules.push({ negative, ...parts });
    }
    if (tooLong > 0) this.warn(`${source}: ${tooLong} rule(s) longer than ${MAX_IGNORE_RULE_LENGTH} characters left out`);
    if (full) {
      this.warn(
        `${source}: only its first ${this.rules.length - before} rule(s) are used (the rules for one path are at most ${MAX_IGNORE_RULES}, ` +
          `${MAX_IGNORE_RULES_SIZE} characters and ${MAX_IGNORE_WILDCARDS} wildcards, with those of the folders above)`,
      );
    }
    if (this.rules.length > before) {
      this.groups = this.split(0, this.rules.length, 0);
      this.warmed = 0;
      this.cache.clear();
    }
  }

  private compile(src: string): RE2JS | null {
    try {
      return RE2JS.compile(src, this.flags);
    } catch {
      return null; // beyond RE2JS's own limits: matches nothing, as a rule git could not read
    }
  }

  /** The groups of rules `from … to - 1` at `level` of CHUNK_LIMITS; past the last level, single rules. */
  private split(from: number, to: number, level: number): Group[] {
    const limit = CHUNK_LIMITS[level];
    const bounds = limit ? chunkBounds(this.rules, from, to, limit) : Array.from({ length: to - from }, (_, i): [number, number] => [from + i, from + i + 1]);
    return bounds.map(([a, b]) => ({ from: a, to: b }));
  }

  /** A group's alternation (one rule: the rule itself), compiled on first use. */
  private regexOf(g: Group): RE2JS | null {
    if (g.re === undefined) {
      const rules = this.rules.slice(g.from, g.to);
      g.re = this.compile(rules.length === 1 ? rules[0].prefix + rules[0].middle + rules[0].ending : chunkSource(rules));
    }
    return g.re;
  }

  /**
   * Compiles the next largest group not compiled yet: false when there is none. Each is a step of
   * a few milliseconds (CHUNK_LIMITS), so a listing compiles a folder's rules between event-loop
   * turns before it tries paths (decision 733); a path that matches then compiles only the smaller
   * groups of the one it matched.
   */
  warmStep(): boolean {
    while (this.warmed < this.groups.length) {
      const g = this.groups[this.warmed++];
      if (g.re === undefined) {
        this.regexOf(g);
        return true;
      }
    }
    return false;
  }

  /**
   * The last rule of `groups` that matches `path`, or -1: the groups from the last down, and inside
   * the first that matches, its smaller groups (a miss costs one test per large group, a hit a few
   * more; a rule at a time it was up to 128). A group that did not compile is looked into.
   */
  private lastMatch(path: string, groups: Group[], level: number): number {
    for (let k = groups.length - 1; k >= 0; k--) {
      const g = groups[k];
      const re = this.regexOf(g);
      const single = g.to - g.from === 1;
      if (re ? !re.test(path) : single) continue;
      if (single) return g.from;
      g.parts ??= this.split(g.from, g.to, level + 1);
      const hit = this.lastMatch(path, g.parts, level + 1);
      if (hit >= 0) return hit;
    }
    return -1;
  }

  /** The verdict of the path itself, parents not considered: the last matching rule decides. */
  private own(path: string): GitignoreVerdict {
    const k = this.lastMatch(path, this.groups, 0);
    return k < 0 ? NONE : { ignored: !this.rules[k].negative, unignored: this.rules[k].negative };
  }

  /** As `ignore`'s `test`: an ignored parent directory settles the path (git cannot re-include inside it). */
  test(path: string): GitignoreVerdict {
    if (!path) return NONE;
    const cached = this.cache.get(path);
    if (cached) return cached;
    const parentPath = parentOf(path);
    const parent = parentPath ? this.test(parentPath) : undefined;
    const verdict = parent?.ignored ? parent : this.own(path);
    if (this.cache.size >= MAX_CACHE) this.cache.clear();
    this.cache.set(path, verdict);
    return verdict;
  }

  ignores(path: string): boolean {
    return this.test(path).ignored;
  }
}
