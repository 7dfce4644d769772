// The lines Grep shows around its matches (decision 538), as merged ranges built in one pass over
// the match lines. Before, every line of every match's window went into a Set: matches × window
// on the host's event loop (20,000 matches with -C 20000 stalled it for 7–10 s), and head_limit
// only cut the result after all of it was built.

/** The most lines of context Grep shows on either side of a match; a larger -A/-B/-C is lowered to it. */
export const MAX_CONTEXT_LINES = 100;

/**
 * Inclusive 0-based [from, to] ranges of the lines within `before`/`after` lines of a match, merged
 * where they touch or overlap, in order. `matches` must be ascending (the search worker's order).
 * A generator, so a caller that has enough lines stops it early.
 */
export function* contextRanges(matches: readonly number[], before: number, after: number, lineCount: number): Generator<[number, number]> {
  let from = -1;
  let to = -1;
  for (const m of matches) {
    const lo = Math.max(0, m - before);
    const hi = Math.min(lineCount - 1, m + after);
    if (from !== -1 && lo <= to + 1) {
      to = Math.max(to, hi);
      continue;
    }
    if (from !== -1) yield [from, to];
    from = lo;
    to = hi;
  }
  if (from !== -1) yield [from, to];
}
