// Text helpers shared by the search passes: the query as matched, its character mask, and the
// match form of a path — lower case, Latin letters without their accents — that keeps positions
// (for highlighting). Accents fold as fzf folds them: `cafe` finds `café.md`, `ecole` and `école`
// find `école.txt` however its name is stored (precomposed, or an `e` and a combining accent as
// macOS writes names), and a query typed with accents finds a name written without.
import { matchUnit } from './matchUnit';
import { charBit, digitBit } from './pathSnapshot';

export { matchUnit } from './matchUnit';

/** The query as matched: lower case, accents dropped, `\` as `/`, spaces dropped (they separate words people type). */
export function normalizeQuery(query: string): string {
  const plain = /[^\x00-\x7f]/.test(query) ? query.normalize('NFD').replace(COMBINING_ACCENTS, '').normalize('NFC') : query;
  return lowerSameLength(plain).replace(/\\/g, '/').replace(/\s+/g, '');
}

/** Combining diacritical marks (U+0300–U+036F): the accents of Latin, Greek and Cyrillic letters. */
const COMBINING_ACCENTS = /[\u0300-\u036f]/g;



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

/** The match form (matchUnit per unit), the same length as the input so positions stay valid for highlighting. */
export function lowerSameLength(path: string): string {
  if (!/[^\x00-\x7f]/.test(path)) return path.toLowerCase();
  let out = '';
  for (let i = 0; i < path.length; i++) out += String.fromCharCode(matchUnit(path.charCodeAt(i)));
  return out;
}
