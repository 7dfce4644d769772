// One UTF-16 unit of a path in its match form (searchText.ts): lower case, and a Latin letter with
// an accent as its plain letter, one unit for one so positions stay valid. Its own module: the
// snapshot's fill (snapshotFill.ts) and the string passes (searchText.ts) share it.

/**
 * One UTF-16 unit of a path in its match form: lower case, and a Latin letter with an accent
 * (U+00C0–U+024F) as its plain letter. Units that change length in lower case keep their own.
 */
export function matchUnit(c: number): number {
  if (c < 0x80) return c >= 65 && c <= 90 ? c + 32 : c;
  if (c < FOLD.length) return FOLD[c];
  const l = String.fromCharCode(c).toLowerCase();
  return l.length === 1 ? l.charCodeAt(0) : c;
}

/** matchUnit for U+0080–U+024F, made once. */
const FOLD: Uint16Array = (() => {
  const t = new Uint16Array(0x250);
  for (let c = 0; c < t.length; c++) {
    const l = String.fromCharCode(c).toLowerCase();
    const lower = l.length === 1 ? l.charCodeAt(0) : c;
    const base = String.fromCharCode(lower).normalize('NFD').charCodeAt(0);
    t[c] = c >= 0xc0 && base >= 97 && base <= 122 ? base : lower;
  }
  return t;
})();
