// Maps test titles to clauses by the `§x.y.z` citations in them. A citation covers the clauses of
// exactly that section (§7.8 does not cover §7.8.1: cite the full number), or of the numbered list
// item it names (§15.1 = item 1 of §15), or one clause when cited by id (§7.5.3-1). Citations of
// the other spec documents ("slash-commands §6", "read-before-write §3") are not DPS sections.
import type { Clause } from './clauses';

export interface TestTitle {
  /** The describe chain and the test title, as mocha prints it. */
  fullTitle: string;
  file?: string;
}

export interface Coverage {
  clause: Clause;
  tests: string[];
}

const OTHER_DOCS = /(?:slash-commands|read-before-write)[\s:]*$/i;
const CITATION = /§\s?(\d+(?:\.\d+)*)(?:-(\d+))?/g;

/** The DPS citations of one title: `7.5.3` for a section, `§7.5.3-1` for one clause. */
export function citationsOf(title: string): string[] {
  const out = new Set<string>();
  for (const m of title.matchAll(CITATION)) {
    if (OTHER_DOCS.test(title.slice(0, m.index))) continue;
    out.add(m[2] ? `§${m[1]}-${m[2]}` : m[1]);
  }
  return [...out];
}

export function coverClauses(clauses: readonly Clause[], tests: readonly TestTitle[]): Coverage[] {
  const bySection = new Map<string, Coverage[]>();
  const byId = new Map<string, Coverage>();
  const coverage = clauses.map((clause) => ({ clause, tests: [] as string[] }));
  for (const c of coverage) {
    byId.set(c.clause.id, c);
    for (const key of [c.clause.section, c.clause.alias]) {
      if (key) bySection.set(key, [...(bySection.get(key) ?? []), c]);
    }
  }
  for (const t of tests) {
    const hit = new Set<Coverage>();
    for (const cite of citationsOf(t.fullTitle)) {
      const one = byId.get(cite);
      if (one) hit.add(one);
      for (const c of bySection.get(cite) ?? []) hit.add(c);
    }
    for (const c of hit) c.tests.push(t.fullTitle);
  }
  for (const c of coverage) c.tests.sort();
  return coverage;
}
