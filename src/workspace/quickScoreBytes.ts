// The quick score over a PathSnapshot's bytes: the per-candidate work of every keystroke's scan
// (§16.1, issue 18). The same model as fuzzyScore.ts's `quickScore` over strings, as integers
// before the length penalty, with the early exits the scan's floor allows (decisions 410, 519).
import * as weights from './fuzzyScore';

// Module-level copies: under a CommonJS transform (tsx: the bench and the tests) an imported
// binding is a getter on the module object, called on every use — per byte in these loops.
const { BASENAME, BONUS_CAMEL, BONUS_CONSECUTIVE, BONUS_DELIMITER, BONUS_SLASH, BOOST_EXACT_NAME, BOOST_EXACT_PATH, BOOST_EXACT_STEM, BOOST_NAME_PREFIX, BOOST_NAME_WORD, FIRST_CHAR_MULTIPLIER, GAP_EXTEND, GAP_START, LENGTH_PENALTY, MATCH } = weights;
const isSeparator = weights.isSeparator;

/**
 * `boundaryBonus` over a PathSnapshot's bytes: lower-case `chars`, the upper-case bit set `upper`,
 * path starting at `s`.
 */
export function bonusAt(chars: Uint8Array, upper: Uint8Array, s: number, j: number): number {
  if (j === s) return BONUS_SLASH;
  const prev = chars[j - 1];
  if (prev === 47 || prev === 92) return BONUS_SLASH;
  if (prev === 95 || prev === 45 || prev === 46 || prev === 32) return BONUS_DELIMITER;
  if (((upper[j >> 3] >> (j & 7)) & 1) === 1 && ((upper[(j - 1) >> 3] >> ((j - 1) & 7)) & 1) === 0) return BONUS_CAMEL;
  const cur = chars[j];
  if (cur >= 48 && cur <= 57 && !(prev >= 48 && prev <= 57)) return BONUS_CAMEL;
  return 0;
}

/** `quickScoreRaw` when the query is not a subsequence. */
export const NO_MATCH = -0x40000000;
/** `quickScoreRaw` when the early exit found the path cannot beat the caller's floor. */
export const BELOW_FLOOR = NO_MATCH + 1;

/**
 * `quickScore` over a PathSnapshot's byte arrays: path bytes `chars[s..e)` (lower case) with their
 * upper-case bits, basename from `bs`; `q` holds the query's code units. Same model as `quickScore`
 * (without its contiguous-occurrence refinement, which the DP pass covers). NaN when `q` is not a
 * subsequence.
 */
export function quickScoreBytes(chars: Uint8Array, upper: Uint8Array, s: number, e: number, bs: number, q: Uint8Array, m: number): number {
  const raw = quickScoreRaw(chars, upper, s, e, bs, q, m);
  return raw === NO_MATCH ? NaN : raw - (e - s) * LENGTH_PENALTY;
}

/**
 * The hot loop of every keystroke: `quickScoreBytes` before its length penalty, an integer (every
 * other weight is one), so no call boxes a double — at 100k calls a keystroke, returned doubles
 * were megabytes of heap numbers and the collections they cause. NO_MATCH when `q` is not a
 * subsequence. With `rest` (quickBound.ts: the most characters 0..k-1 and k's pending pair
 * adjustment can still add) and the integer `need`: BELOW_FLOOR as soon as the score so far plus
 * that is ≤ `need`, for a caller whose path gets no name boost. `from`: where the last query
 * character's search starts (exclusive; `bs` when the caller knows the basename lacks it).
 */
export function quickScoreRaw(chars: Uint8Array, upper: Uint8Array, s: number, e: number, bs: number, q: Uint8Array, m: number, rest?: Int32Array, need = NO_MATCH, from = e): number {
  let j = from - 1;
  let score = 0;
  let next = -1;
  let run = 0;
  for (let k = m - 1; k >= 0; k--) {
    const c = q[k];
    // How far left character k may lie and still let the path beat `need`: a gap before k+1 costs
    // GAP_START and one per further character where `rest` allowed BONUS_CONSECUTIVE, so once the
    // gap outgrows the slack the rest of the path cannot help — stop reading there.
    let lim = s;
    if (next >= 0 && rest !== undefined && need !== NO_MATCH) {
      const room = score + rest[k + 1] - need - BONUS_CONSECUTIVE + GAP_START;
      lim = next - 1 - (room > 0 ? Math.ceil(room / -GAP_EXTEND) : 0);
      if (lim < s) lim = s;
    }
    while (j >= lim && chars[j] !== c) j--;
    if (j < lim) return lim === s ? NO_MATCH : BELOW_FLOOR;
    const b = bonusAt(chars, upper, s, j);
    if (next >= 0) score += next === j + 1 ? (run > BONUS_CONSECUTIVE ? 0 : BONUS_CONSECUTIVE - run) : GAP_START + GAP_EXTEND * (next - j - 2);
    score += j >= bs ? MATCH + BASENAME + b : MATCH + b;
    run = b;
    next = j;
    j--;
    if (rest !== undefined && k > 0 && score + rest[k] <= need) return BELOW_FLOOR;
  }
  score += run * (FIRST_CHAR_MULTIPLIER - 1);
  if (m === 1 && next !== bs && chars[bs] === q[0]) {
    // one character: the basename's first letter beats the rightmost occurrence
    score = MATCH + BASENAME + bonusAt(chars, upper, s, bs) * FIRST_CHAR_MULTIPLIER;
  }
  return score + nameBoostOf(chars, upper, s, e, bs, q, m);
}

// The bound the scan prunes with lives in quickBound.ts: it bounds this quick score, which is
// what the top list is ranked by (decision 410).

/** The name boost `quickScoreRaw` adds (exact: the scan's bound for a basename that starts with q[0] uses it). */
export function nameBoostOf(chars: Uint8Array, upper: Uint8Array, s: number, e: number, bs: number, q: Uint8Array, m: number): number {
  return chars[bs] === q[0] && e - bs >= m ? nameBoostBytes(chars, upper, s, e, bs, q, m) : 0;
}

/** `fixedBoost` without the length penalty, over bytes (called only when the basename starts with q[0]). */
function nameBoostBytes(chars: Uint8Array, upper: Uint8Array, s: number, e: number, bs: number, q: Uint8Array, m: number): number {
  for (let k = 1; k < m; k++) if (chars[bs + k] !== q[k]) return 0;
  if (bs === s && e - s === m) return BOOST_EXACT_PATH;
  if (e - bs === m) return BOOST_EXACT_NAME;
  if (chars[bs + m] === 46) {
    let more = false;
    for (let k = bs + m + 1; k < e; k++) if (chars[k] === 46) more = true;
    if (!more) return BOOST_EXACT_STEM;
  }
  return bs + m >= e || isSeparator(chars[bs + m]) || bonusAt(chars, upper, s, bs + m) > 0 ? BOOST_NAME_WORD : BOOST_NAME_PREFIX;
}
