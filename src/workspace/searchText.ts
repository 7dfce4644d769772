// Text helpers shared by the search passes: the query as matched, its character mask, and lower
// case that keeps positions (for highlighting).
import { charBit, digitBit } from './pathSnapshot';

/** The query as matched: lower case, `\` as `/`, spaces dropped (they separate words people type). */
export function normalizeQuery(query: string): string {
  return query.toLowerCase().replace(/\\/g, '/').replace(/\s+/g, '');
}

export function queryMask(q: string): number {
  let mask = 0;
  for (let i = 0; i < q.length; i++) mask |= charBit(q.charCodeAt(i));
  return mask;
}

/** The query's digits as a digit mask (pathSnapshot's `digitMask`). */
export function queryDigits(q: string): number {
  let digits = 0;
  for (let i = 0; i < q.length; i++) digits |= digitBit(q.charCodeAt(i));
  return digits;
}

/** Lower case with the same length as the input, so positions stay valid for highlighting. */
export function lowerSameLength(path: string): string {
  const l = path.toLowerCase();
  return l.length === path.length ? l : path.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
