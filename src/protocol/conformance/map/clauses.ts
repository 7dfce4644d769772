// The normative clauses of the spec: every sentence carrying "(MUST)" or "(MUST NOT)". The §1.1
// line that defines the keywords quotes them ("MUST") without the parenthesised marker, so it is
// not a clause. Pure text work, so the map can be rebuilt and compared in a test.

export interface Clause {
  /** `§7.5.3-1`: section and the clause's position in it. */
  id: string;
  section: string;
  keyword: 'MUST' | 'MUST NOT';
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
const MARKER = /\((MUST NOT|MUST)\)/g;

export function extractClauses(spec: string): Clause[] {
  const clauses: Clause[] = [];
  const perSection = new Map<string, number>();
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
      const n = (perSection.get(section) ?? 0) + 1;
      perSection.set(section, n);
      const clause: Clause = { id: `§${section}-${n}`, section, keyword: m[1] as Clause['keyword'], text, line: i + 1 };
      if (item) clause.alias = `${section}.${item[1]}`;
      clauses.push(clause);
    }
  });
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

/** A short excerpt for the table: the head of the sentence and its keyword. */
export function excerpt(c: Clause, max = 110): string {
  const body = c.text.replace(/\s*\((MUST NOT|MUST)\)\s*$/, '');
  const short = body.length > max ? `${body.slice(0, max).trimEnd()}…` : body;
  return `${short} (${c.keyword})`;
}
