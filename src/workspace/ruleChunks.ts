// How the rules of one GitignoreMatcher are compiled together (decision 711): in chunks, each one
// alternation that says whether any of its rules matches a path, so that most paths, which match
// none, are answered in one linear pass per chunk, and the rule that wins is looked for only when
// a chunk matches. The cost of a chunk is what RE2JS compiles and then keeps alive along a path.

/** A rule's RE2 source in three parts: anchoring (`^` or `(?:^|/)`), pattern, end. */
export interface RuleParts {
  prefix: string;
  middle: string;
  ending: string;
}

/** A leading `*` of a pattern: the rules of a chunk that start with it share one loop. */
const LEAD = '[^/]*';

/**
 * Loops of a rule that its chunk does not share (`[^/]*`, `[^/]+`, `(?:/[^/]+)*` in its pattern;
 * a literal `*` or `+` is escaped, and in classes hex): each may stay alive along a whole name.
 */
export function wildcardsOf(rule: RuleParts): number {
  const own = rule.middle.startsWith(LEAD) ? rule.middle.slice(LEAD.length) : rule.middle;
  return own.match(/[\])][*+]/g)?.length ?? 0;
}

/**
 * One alternation for a chunk of rules, which only says whether any matches: the rules of one
 * anchoring, leading `*` and end share them, and their patterns are sorted and de-duplicated, so
 * RE2 factors common prefixes and `*.a`, `*.b`, … keep one loop alive along a name, not one each.
 * (Which rule wins is asked of the rules themselves, in order.)
 */
export function chunkSource(rules: readonly RuleParts[]): string {
  const groups = new Map<string, Set<string>>();
  for (const r of rules) {
    const lead = r.middle.startsWith(LEAD);
    const key = `${r.prefix}${lead ? LEAD : ''}\0${r.ending}`;
    let middles = groups.get(key);
    if (!middles) groups.set(key, (middles = new Set()));
    middles.add(lead ? r.middle.slice(LEAD.length) : r.middle);
  }
  const out: string[] = [];
  for (const [key, middles] of groups) {
    const [start, ending] = key.split('\0');
    out.push(`${start}(?:${[...middles].sort().join('|')})${ending}`);
  }
  return out.join('|');
}

/** How large the alternations of one level may be: at most `rules` rules and `chars` characters of source. */
export interface ChunkLimit {
  rules: number;
  chars: number;
}

/**
 * The levels of alternations, from the large groups every path is tried against down to single
 * rules: RE2JS compiles one alternation of all rules in superlinear time (1,600 rules: 19 s), of
 * 128 in linear time (~1.5 µs a character and ~50 µs a rule). A group is cut at a number of
 * characters too, so that compiling any one alternation is a step of a few milliseconds that a
 * listing runs between event-loop turns (decision 733): 61 rules of 510 characters in one group
 * took 27 ms to compile, in one call that cannot be paused; cut at 2,048 characters, 1–8 ms each
 * in a fresh process. A path that matches no rule is tried against more groups for it (32 KiB of
 * long rules: 16 instead of 1).
 */
export const CHUNK_LIMITS: readonly ChunkLimit[] = [
  { rules: 128, chars: 2048 },
  { rules: 16, chars: 512 },
];

/** Characters of a rule's source, what compiling it costs. */
export function sourceLength(rule: RuleParts): number {
  return rule.prefix.length + rule.middle.length + rule.ending.length;
}

/**
 * The bounds `[from, to)` of consecutive groups of `rules[from … to - 1]` within `limit`, in order:
 * a group is closed when one more rule would pass either bound (a rule alone is always a group).
 */
export function chunkBounds(rules: readonly RuleParts[], from: number, to: number, limit: ChunkLimit): [number, number][] {
  const out: [number, number][] = [];
  let start = from;
  let chars = 0;
  for (let i = from; i < to; i++) {
    const size = sourceLength(rules[i]);
    if (i > start && (i - start >= limit.rules || chars + size > limit.chars)) {
      out.push([start, i]);
      start = i;
      chars = 0;
    }
    chars += size;
  }
  if (to > start) out.push([start, to]);
  return out;
}
