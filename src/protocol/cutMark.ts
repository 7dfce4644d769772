// The mark that stands where the middle of a text was cut to fit a connection (decision 516): the
// hub writes it (src/session/frameFit.ts) and the view reads its count, so what the view says it
// hides counts the characters that never reached it too.

/** Stands where the middle of a string was cut: how many characters (UTF-16 units) are left out. */
export function cutMark(chars: number): string {
  return `\n[… ${chars} characters left out here …]\n`;
}

/** A cutMark in a text; its count in group 1. */
export const CUT_MARK_PATTERN = /\n\[… (\d+) characters left out here …\]\n/;

/** How many characters a text stands for beyond its own length: a cut mark's count less the mark. */
export function charactersCut(text: string): number {
  const m = CUT_MARK_PATTERN.exec(text);
  return m ? Number(m[1]) - m[0].length : 0;
}

/**
 * Is `cut` a middle cut of `whole`: its start, a mark counting exactly the characters between,
 * and its end? (A done frame's `full_text` cut to fit the view, beside the deltas that brought the
 * whole text: the deltas hold more, and win.)
 */
export function isCutOf(cut: string, whole: string): boolean {
  const m = CUT_MARK_PATTERN.exec(cut);
  if (!m) return false;
  const head = cut.slice(0, m.index);
  const end = cut.slice(m.index + m[0].length);
  return whole.length === head.length + Number(m[1]) + end.length && whole.startsWith(head) && whole.endsWith(end);
}
