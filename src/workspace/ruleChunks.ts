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

/**
 * Rules per alternation, from the large groups every path is tried against down to single rules,
 * each span a multiple of the next: RE2JS compiles one alternation of all rules in superlinear
 * time (1,600 rules: 19 s), of 128 in linear time (measured: 32 KiB of rules in ~50 ms).
 */
export const CHUNK_SPANS = [128, 16, 1] as const;
