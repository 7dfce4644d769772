// Maps test titles to catalogue clauses. Only a clause id covers a clause (`§7.5.3-1`), or the
// alias of a numbered list item that holds exactly one clause (`§15.1` = §15-1); a section-level
// citation (`§7.5.3`) names a topic, not a clause, and covers nothing (issue 14). Citations of the
// other spec documents ("slash-commands §6", "read-before-write §3") are not DPS citations.
//
// A test counts for the side whose code it exercises, decided by its file: tests of our masters
// (the webview chat and composer, the browser master, `rawp attach` and its client library, and any
// test file named `master*.test.ts`) cover
// master- and composer-owned clauses; every other test covers client-owned clauses; the transcript
// reducer's tests count for both, since the reducer is both the masters' view model and the
// client's restore path. Tests of `rawp validate` and of this map check a checker, not the
// product, so they are listed beside the clause but cover nothing.
import type { CatalogueClause, Owner } from './catalogue';

export interface TestTitle {
  /** The describe chain and the test title, as mocha prints it. */
  fullTitle: string;
  /** The test file, relative to the repository or absolute. */
  file?: string;
}

export type TestSide = 'client' | 'master' | 'validator';

export interface Coverage {
  clause: CatalogueClause;
  /** Citing tests per side, sorted. */
  tests: Record<TestSide, string[]>;
}

const OTHER_DOCS = /(?:slash-commands|read-before-write)[\s:]*$/i;
const CITATION = /§\s?(\d+(?:\.\d+)*)(?:-(\d+))?/g;

const MASTER_FILES = [
  /(^|\/)test\/unit\/webview\//,
  /(^|\/)test\/unit\/remote\/(browser|terminal|client)[^/]*\.test\.ts$/,
  /(^|\/)test\/browser\//,
  // Any test file named for our masters, e.g. test/unit/conformance/masters.test.ts.
  /(^|\/)test\/(.*\/)?masters?([.-][^/]*)?\.test\.ts$/,
];
const BOTH_FILES = [/(^|\/)test\/unit\/protocol\/transcript[^/]*\.test\.ts$/];
const VALIDATOR_FILES = [/(^|\/)test\/unit\/protocol\/conformance\.[^/]*\.test\.ts$/, /(^|\/)test\/unit\/cli\/validate[^/]*\.test\.ts$/];

/** The DPS citations of one title: `7.5.3` for a section, `§7.5.3-1` for one clause. */
export function citationsOf(title: string): string[] {
  const out = new Set<string>();
  for (const m of title.matchAll(CITATION)) {
    if (OTHER_DOCS.test(title.slice(0, m.index))) continue;
    out.add(m[2] ? `§${m[1]}-${m[2]}` : m[1]);
  }
  return [...out];
}

/** Which sides a test file speaks for. A test without a file counts as a client test. */
export function sidesOf(file: string | undefined): TestSide[] {
  const f = (file ?? '').replace(/\\/g, '/');
  if (VALIDATOR_FILES.some((r) => r.test(f))) return ['validator'];
  if (BOTH_FILES.some((r) => r.test(f))) return ['client', 'master'];
  if (MASTER_FILES.some((r) => r.test(f))) return ['master'];
  return ['client'];
}

/** The side whose tests can cover an owner's clauses (a `relay` clause binds none of our code). */
export function sideOf(owner: Owner): TestSide {
  return owner === 'client' ? 'client' : 'master';
}

export function coverClauses(clauses: readonly CatalogueClause[], tests: readonly TestTitle[]): Coverage[] {
  const byKey = new Map<string, Coverage>();
  const aliasCount = new Map<string, number>();
  for (const c of clauses) if (c.alias) aliasCount.set(c.alias, (aliasCount.get(c.alias) ?? 0) + 1);
  const coverage = clauses.map((clause): Coverage => ({ clause, tests: { client: [], master: [], validator: [] } }));
  for (const c of coverage) {
    byKey.set(c.clause.id, c);
    if (c.clause.alias && aliasCount.get(c.clause.alias) === 1) byKey.set(c.clause.alias, c);
  }
  for (const t of tests) {
    const hit = new Set<Coverage>();
    for (const cite of citationsOf(t.fullTitle)) {
      const one = byKey.get(cite);
      if (one) hit.add(one);
    }
    for (const c of hit) for (const side of sidesOf(t.file)) c.tests[side].push(t.fullTitle);
  }
  for (const c of coverage) for (const side of Object.keys(c.tests) as TestSide[]) c.tests[side].sort();
  return coverage;
}

/** Owners of the clause that no test of their side cites yet. `relay` is never one: no code of
 * ours keeps such a clause, so there is nothing to test (decision 260). */
export function uncoveredOwners(c: Coverage): Owner[] {
  return c.clause.owners.filter((o) => o !== 'relay' && c.tests[sideOf(o)].length === 0);
}
