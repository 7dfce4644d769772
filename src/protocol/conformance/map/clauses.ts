// Reads the normative clauses out of a copy of the spec's text: every sentence carrying "(MUST)",
// "(MUST NOT)", "(SHOULD)" or "(SHOULD NOT)". The §1.1 line that defines the keywords quotes them
// without the parenthesised marker, so it is not a clause. The project's own source of clauses is
// the catalogue (catalogue.ts); this is the tool that checks the catalogue against a spec text a
// maintainer hands it (`npm run clauses:check -- FILE`), e.g. when a new spec version appears.
import type { Keyword } from './catalogue';

export interface Clause {
  /** `§7.5.3-1`: section and the clause's position in it. */
  id: string;
  section: string;
  keyword: Keyword;
  /** The sentence, markdown stripped and whitespace collapsed. */
  text: string;
  /** 1-based line of the spec. */
  line: number;
  /**
   * For a clause in a numbered bold list item ("1. **…**") of its section: `15.1` for item 1 of
   * §15. People cite those items like sections (§15.1, §14.2.3) though they have no heading.
   */
  alias?: string;
}

const HEADING = /^#{1,6}\s+(?:부록\s+)?((?:\d+|[A-Z])(?:\.\d+)*)\.?\s/;
const MARKER = /\((MUST NOT|MUST|SHOULD NOT|SHOULD)\)/g;

/**
 * Ids follow the catalogue's rule: MUST / MUST NOT clauses numbered in order within their section,
 * SHOULD / SHOULD NOT clauses after them. The list is in the spec's order.
 */
export function extractClauses(spec: string): Clause[] {
  const clauses: Clause[] = [];
  let section = '0';
  let fenced = false;
  spec.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*```/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const heading = HEADING.exec(raw);
    if (heading) section = heading[1];
    const item = /^\s*(\d+)\.\s+\*\*/.exec(raw);
    let from = 0;
    for (const m of raw.matchAll(MARKER)) {
      const end = m.index + m[0].length;
      const text = clean(raw.slice(sentenceStart(raw, from, m.index), end));
      from = end;
      const clause: Clause = { id: '', section, keyword: m[1] as Keyword, text, line: i + 1 };
      if (item) clause.alias = `${section}.${item[1]}`;
      clauses.push(clause);
    }
  });
  const perSection = new Map<string, number>();
  for (const strong of [true, false]) {
    for (const c of clauses.filter((x) => x.keyword.startsWith('MUST') === strong)) {
      const n = (perSection.get(c.section) ?? 0) + 1;
      perSection.set(c.section, n);
      c.id = `§${c.section}-${n}`;
    }
  }
  return clauses;
}

/**
 * Where the sentence holding a marker begins: after the previous sentence end (". " — the spec's
 * Korean sentences end "다." or "(MUST)."; numbers like 1.0.2 have no space after their dots), a
 * table cell bar, a list dash, a heading's hashes and number, or the previous marker on the line.
 * Colons are no boundary: "(fatal: `false`)" sits inside sentences.
 */
function sentenceStart(line: string, floor: number, marker: number): number {
  let start = floor;
  const boundary = /[.!?]\s+(?=\S)|\|\s*|\s-\s+|^#+\s+(?:[\dA-Z.]+\s+)?/g;
  for (const b of line.slice(0, marker).matchAll(boundary)) {
    const at = b.index + b[0].length;
    if (at > start) start = at;
  }
  return start;
}

function clean(s: string): string {
  return s
    .replace(/\*\*/g, '')
    .replace(/^[\s.)\]-]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Differences between clauses read from a spec text and the catalogue (empty: they agree). */
export function compareWithSpec(
  extracted: readonly Clause[],
  catalogue: readonly { id: string; keyword: Keyword; section: string; alias?: string }[],
): string[] {
  const problems: string[] = [];
  const byId = new Map(catalogue.map((c) => [c.id, c]));
  const seen = new Set<string>();
  for (const e of extracted) {
    seen.add(e.id);
    const c = byId.get(e.id);
    if (!c) problems.push(`${e.id} (${e.keyword}, spec line ${e.line}) is not in the catalogue: ${e.text}`);
    else if (c.keyword !== e.keyword) problems.push(`${e.id}: the spec says ${e.keyword}, the catalogue ${c.keyword}`);
    else if ((c.alias ?? '') !== (e.alias ?? '')) problems.push(`${e.id}: list item ${e.alias ?? 'none'} in the spec, ${c.alias ?? 'none'} in the catalogue`);
  }
  for (const c of catalogue) if (!seen.has(c.id)) problems.push(`${c.id} is in the catalogue but not in the spec text`);
  return problems;
}
