// Filling a PathSnapshot's arrays for a range of sorted paths: a plain function, not part of the
// build's generator, because V8 does not optimize a loop inside a generator while it runs (no
// on-stack replacement in resumable functions): inside one, the fill of 460k paths ran in the
// interpreter — a cold first slice of 2,048 paths took ~19 ms, the whole fill several times what it
// takes here (issue 18, decision 410).
import { bonusAt as bonusAtImported } from './quickScoreBytes';
import { matchUnit } from './matchUnit';

/** Is the character at byte `j` upper case (ASCII A–Z) in the original path? */
export function isUpperAt(upper: Uint8Array, j: number): boolean {
  return ((upper[j >> 3] >> (j & 7)) & 1) === 1;
}

/** Lower-case code unit stored for characters beyond Latin-1: never equal to an ASCII query char. */
export const WIDE = 0xff;

/** The arrays a snapshot is made of, being filled. */
export interface SnapshotArrays {
  offsets: Uint32Array;
  chars: Uint8Array;
  upper: Uint8Array;
  baseStart: Uint16Array;
  mask: Int32Array;
  digitMask: Uint16Array;
  nameMask: Int32Array;
  startMask: Int32Array;
  nameFirst: Uint8Array;
  nameSecond: Uint8Array;
  sharedPrefix: Uint16Array;
  wide: Uint8Array;
  wideText: Map<number, string>;
}

// Module-level copies: under a CommonJS transform (tsx) an imported function is a getter on the
// module object, called per character otherwise.
const bonusAt = bonusAtImported;
const upperAt = isUpperAt;

/** Bit of a lower-case character in the prefilter mask. */
export function charBit(c: number): number {
  if (c >= 97 && c <= 122) return 1 << (c - 97); // a–z: bits 0–25
  if (c >= 48 && c <= 57) return 1 << 26; // digits
  if (c === 46) return 1 << 27; // .
  if (c === 95 || c === 45) return 1 << 28; // _ -
  if (c === 47) return 1 << 29; // /
  if (c > 127) return 1 << 30; // anything non-ASCII
  return 1 << 31; // other ASCII
}

/**
 * Bit of a digit in the digit mask beside the prefilter mask (0 for anything else). The prefilter
 * has one bit for all ten, and most paths hold some digit (versions, `v4l2`, `x86_64`, dates), so a
 * query with a digit passed nearly every path there: `css3` read the rest of 341,000 paths at 460k
 * (issue 18). A quarter of the benchmark's queries hold a digit.
 */
export function digitBit(c: number): number {
  return c >= 48 && c <= 57 ? 1 << (c - 48) : 0;
}

/**
 * Fills entries `from..to` from `input[order[i]]`, the first starting at byte `at`; returns the
 * byte offset after the last.
 */
export function fillPaths(a: SnapshotArrays, input: readonly string[], order: Int32Array, from: number, to: number, at: number): number {
  const { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, sharedPrefix, wide, wideText } = a;
  for (let i = from; i < to; i++) {
    const p = input[order[i]];
    offsets[i] = at;
    let m = 0;
    let digits = 0;
    let isWide = false;
    for (let k = 0; k < p.length; k++) {
      let c = p.charCodeAt(k);
      if (c >= 65 && c <= 90) {
        c += 32;
        upper[(at + k) >> 3] |= 1 << ((at + k) & 7);
      } else if (c > 0x7f) {
        isWide = true;
        // The match form per unit (lower case, accents folded), so positions stay those of the original string.
        c = matchUnit(c);
        if (c > 0xff) c = WIDE;
      }
      chars[at + k] = c;
      m |= charBit(c);
      digits |= digitBit(c);
    }
    if (isWide) {
      wide[i] = 1;
      wideText.set(i, p);
    }
    mask[i] = m;
    digitMask[i] = digits;
    const bs = p.lastIndexOf('/') + 1;
    baseStart[i] = Math.min(bs, 0xffff);
    let nm = 0;
    for (let k = at + bs; k < at + p.length; k++) nm |= charBit(chars[k]);
    nameMask[i] = nm;
    let sm = 0;
    for (let k = at; k < at + p.length; k++) if (bonusAt(chars, upper, at, k) > 0) sm |= charBit(chars[k]);
    startMask[i] = sm;
    nameFirst[i] = bs < p.length ? chars[at + bs] : 0;
    nameSecond[i] = bs + 1 < p.length ? chars[at + bs + 1] : 0;
    if (i > 0) {
      const ps = offsets[i - 1];
      const limit = Math.min(at - ps, p.length, 0xffff);
      // The same bytes and the same case: the quick score of a shared directory part is then the
      // same too (siblingScore.ts), and the subsequence test only needs the bytes.
      let l = 0;
      while (l < limit && chars[ps + l] === chars[at + l] && upperAt(upper, ps + l) === upperAt(upper, at + l)) l++;
      sharedPrefix[i] = l;
    }
    at += p.length;
  }
  return at;
}

/** Counts paths `from..to` into their name-pair group (`first·256 + second`; a counting sort's first pass). */
export function countNamePairs(nameFirst: Uint8Array, nameSecond: Uint8Array, counts: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) counts[(nameFirst[i] << 8) | nameSecond[i]]++;
}

/** Places paths `from..to` at their group's next place (its second pass; ascending within a group). */
export function placeNamePairs(nameFirst: Uint8Array, nameSecond: Uint8Array, place: Int32Array, out: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) out[place[(nameFirst[i] << 8) | nameSecond[i]]++] = i;
}
