// The bound the @-search scan prunes with (issue 18, decision 410): an upper bound of
// `quickScoreBytes`, the score the top list is ranked by. Only the leaders of that list get the
// exact DP score, so a path whose quick score cannot beat the list's floor can be skipped without
// changing a result — the bound must hold for the quick score, not for the DP one, and the quick
// score's right-to-left greedy is easier to bound tightly:
//  - every query character scores MATCH, plus BASENAME in the basename;
//  - the first one adds its word-start bonus twice (≤ 2·BONUS_SLASH), and only if its character
//    occurs at a word start somewhere in the path (`startMask`);
//  - each later one adds, with the pair adjustment the greedy charges it: right after its
//    predecessor, max(own bonus, BONUS_CONSECUTIVE) — the run bonus is not inherited as in the DP —
//    where its own bonus follows from the predecessor's character (after `/` BONUS_SLASH, after
//    `_ - .` BONUS_DELIMITER, else a camelCase hump or digit at most); after a gap, its bonus minus
//    at least −GAP_START. A character that never sits at a word start adds at most
//    BONUS_CONSECUTIVE;
//  - the length penalty is exact, and the name boosts need the basename to start with the query.
// Everything here is an integer before the length penalty (callers subtract len·LENGTH_PENALTY
// themselves), so the hot loop's calls never box a double.
import * as weights from './fuzzyScore';
import * as bytesScore from './quickScoreBytes';

// Module-level copies: under a CommonJS transform (tsx, the bench and the tests) an imported binding
// is a getter on the module object, called on every use — per candidate in the scan.
const { BASENAME, BONUS_CAMEL, BONUS_CONSECUTIVE, BONUS_DELIMITER, BONUS_SLASH, BOOST_EXACT_NAME, BOOST_EXACT_PATH, BOOST_EXACT_STEM, BOOST_NAME_WORD, FIRST_CHAR_MULTIPLIER, GAP_START, MATCH } = weights;
const NO_MATCH = bytesScore.NO_MATCH;

/** The most query character k can add beyond MATCH (and BASENAME) when its character may sit at a word start. */
export function quickBonusCaps(qb: Uint8Array): Int32Array {
  const caps = new Int32Array(qb.length);
  for (let k = 0; k < qb.length; k++) {
    if (k === 0) {
      caps[k] = BONUS_SLASH * FIRST_CHAR_MULTIPLIER;
      continue;
    }
    const prev = qb[k - 1];
    const afterPrev = prev === 47 || prev === 92 ? BONUS_SLASH : prev === 95 || prev === 45 || prev === 46 || prev === 32 ? BONUS_DELIMITER : BONUS_CAMEL;
    caps[k] = Math.max(afterPrev, BONUS_SLASH + GAP_START);
  }
  return caps;
}

/** Σ over the query of what each character can add beyond MATCH, given the path's word-start mask. */
export function quickBonusSum(startMask: number, qbits: Int32Array, caps: Int32Array): number {
  let sum = 0;
  for (let k = 0; k < qbits.length; k++) sum += (startMask & qbits[k]) !== 0 ? caps[k] : k === 0 ? 0 : BONUS_CONSECUTIVE;
  return sum;
}

/**
 * `quickBonusSum` as four table lookups, one per byte of the word-start mask (the scan asks it for
 * most candidates; the loop over the query was a twentieth of a keystroke). Each query
 * character's share depends on one bit, so the sum splits by byte: entry `b·256 + x` holds what the
 * characters whose bit lies in byte b add when that byte of the mask is x (byte 0 also holds what
 * every character adds when its bit is clear).
 */
export function quickBonusTable(qbits: Int32Array, caps: Int32Array): Int32Array {
  const table = new Int32Array(1024);
  let clear = 0;
  for (let k = 0; k < qbits.length; k++) clear += k === 0 ? 0 : BONUS_CONSECUTIVE;
  for (let x = 0; x < 256; x++) table[x] = clear;
  for (let k = 0; k < qbits.length; k++) {
    const bit = qbits[k];
    const byte = bit === 0 ? 0 : (31 - Math.clz32(bit)) >> 3;
    const inByte = (bit >>> (byte * 8)) & 255;
    const gain = caps[k] - (k === 0 ? 0 : BONUS_CONSECUTIVE);
    for (let x = 0; x < 256; x++) if ((x & inByte) !== 0) table[byte * 256 + x] += gain;
  }
  return table;
}

/**
 * What `quickScoreRest` grants the query's first character that a path cannot earn: all of its
 * share (`caps[0]`, the doubled word-start bonus) when no character of its mask bit `firstBit`
 * sits at a word start there (`startMask`), the same rule as `quickBonusSum`; else 0 (decision 527).
 */
export function firstCharCut(startMask: number, firstBit: number, cap0: number): number {
  return (startMask & firstBit) === 0 ? cap0 : 0;
}

/** `quickBonusSum(startMask, …)` from its table. */
export function quickBonusLookup(table: Int32Array, startMask: number): number {
  return table[startMask & 255] + table[256 + ((startMask >>> 8) & 255)] + table[512 + ((startMask >>> 16) & 255)] + table[768 + (startMask >>> 24)];
}

/** The same with every character at a word start somewhere: the most any path can get. */
export function quickBonusMax(caps: Int32Array): number {
  let sum = 0;
  for (let k = 0; k < caps.length; k++) sum += caps[k];
  return sum;
}

/**
 * Upper bound of `quickScoreRaw` (the quick score before its length penalty) for a path of `len`
 * characters whose basename has `nameLen`, holds every query character (`nameHasAll`) or starts
 * with the whole query (`nameStartsWithQuery`), with `bonusSum` from `quickBonusSum`.
 */
export function quickScoreBound(m: number, len: number, nameLen: number, nameHasAll: boolean, nameStartsWithQuery: boolean, bonusSum: number): number {
  // The most name boost such a path can get.
  const boost = len === m ? BOOST_EXACT_PATH : nameStartsWithQuery ? (nameLen === m ? BOOST_EXACT_NAME : BOOST_EXACT_STEM) : 0;
  return quickScoreBoundBoosted(m, nameLen, nameHasAll, boost, bonusSum);
}

/**
 * `quickScoreBound` with the name boost known exactly (`nameBoostOf`) instead of its most: the
 * scan's bound for a basename that starts with the query's first character. The most (an exact
 * stem) overstated a plain name prefix by 50 points, 400 characters of length penalty, so nearly
 * every `Makefile` passed the bound of `ma` and was scored (issue 18).
 */
export function quickScoreBoundBoosted(m: number, nameLen: number, nameHasAll: boolean, boost: number, bonusSum: number): number {
  return m * MATCH + bonusSum + BASENAME * (nameHasAll ? Math.min(m, nameLen) : m - 1) + boost;
}

/**
 * The most name boost (`nameBoostOf`) a one-letter query can give a path whose basename starts with
 * it, from the path's length and the basename's second byte (0 for none) alone: the whole path
 * (400), the whole basename (120), a stem before a dot (90, or a word at 60 when more dots follow),
 * else a word (60) or a plain prefix (40), which only the bytes after it tell apart.
 */
export function oneLetterBoostCap(len: number, second: number): number {
  if (len === 1) return BOOST_EXACT_PATH;
  if (second === 0) return BOOST_EXACT_NAME;
  return second === 46 ? BOOST_EXACT_STEM : BOOST_NAME_WORD;
}

/**
 * For `quickScoreRaw`'s early exit: `rest[k]` bounds what the query characters before k, and k's
 * own pair adjustment (≤ BONUS_CONSECUTIVE), can still add once k is placed.
 */
export function quickScoreRest(caps: Int32Array): Int32Array {
  const rest = new Int32Array(caps.length);
  let before = 0;
  for (let k = 0; k < caps.length; k++) {
    rest[k] = BONUS_CONSECUTIVE + before;
    before += MATCH + BASENAME + caps[k];
  }
  return rest;
}

/**
 * The `need` of `quickScoreRaw`'s early exit for a path with length penalty `penalty` and name
 * boost `boost` (added after the greedy, so taken off): it may stop once the path cannot beat
 * `floor` — nor equal it when an equal score would still enter (`tieWins`) — or reach `bar`.
 * Integers only cross the call: the floor plus the penalty rounded down (one less when an equal
 * score enters and that sum is an integer); below the bar is raw < bar + penalty. NO_MATCH (never
 * stop) with neither.
 */
export function quickScoreNeed(floor: number, bar: number, penalty: number, tieWins: boolean, boost: number): number {
  let need = NO_MATCH;
  // `| 0` after each rounding: Math.ceil of a value in (−1, 0) is −0, which is no small integer,
  // and an optimized caller that met one was thrown away in the middle of a part's scan (a bar of
  // −6 and a penalty of 5.875 did it; the values here are far inside the int32 range).
  if (floor !== -Infinity) {
    const f = floor + penalty;
    need = Math.floor(f) | 0;
    if (tieWins && need === f) need--;
    need -= boost;
  }
  if (bar !== -Infinity) need = Math.max(need, (Math.ceil(bar + penalty) | 0) - 1 - boost);
  return need;
}
