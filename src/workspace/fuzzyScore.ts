// Fuzzy scoring of one path against one query: how a person ranks @-file matches.
//
// Two passes, both over the same score model so they agree:
//  - `quickScore` (every candidate): one right-to-left greedy pass that is at the same time the
//    subsequence test, plus the rightmost contiguous occurrence (native lastIndexOf). Right-to-left
//    puts the query's tail into the basename, which is where people aim. It is a valid alignment,
//    so it is a lower bound of the optimal score.
//  - `bestAlignment` (only the best few hundred by quick score): the optimal alignment by dynamic
//    programming (in the style of fzf's v2 algorithm) with the match positions for highlighting.
//
// Model: every matched character scores MATCH; a character at a word start scores a bonus (after
// `/` most, then after `_ - . space` and at camelCase humps); characters in a run continue the bonus
// of the run's first character; gaps cost GAP_START + GAP_EXTEND per extra character, except gaps
// of vowels only (1 per vowel: people abbreviate by dropping vowels, `chtwdg`); matches in
// the basename score BASENAME per character; exact path, exact basename and basename prefix get a
// fixed boost; longer paths lose a little. No threshold: a subsequence match is never dropped.

// Weights chosen by measuring recall@5 on queries derived from the bench corpora (prefixes,
// word initials, consonant abbreviations) — see scripts/bench/search.ts and docs/decisions/060-fuzzy-search.md.
export const MATCH = 16;
export const GAP_START = -5;
export const GAP_EXTEND = -1;
export const BONUS_SLASH = 16;
export const BONUS_DELIMITER = 14;
export const BONUS_CAMEL = 13;
export const BONUS_CONSECUTIVE = 5;
export const FIRST_CHAR_MULTIPLIER = 2;
export const BASENAME = 2;
export const BOOST_EXACT_PATH = 400;
export const BOOST_EXACT_NAME = 120;
export const BOOST_EXACT_STEM = 90;
export const BOOST_NAME_PREFIX = 40;
/** The basename starts with the query and the query ends at a word end (`auth` in `auth.test.ts`). */
export const BOOST_NAME_WORD = 60;
/** Score lost per character of path length: a tie-breaker that prefers shallow, short paths. */
export const LENGTH_PENALTY = 1 / 8;

const NEG = -1e9;
/** Cost per skipped character of a gap made only of vowels (cheaper than any other gap). */
const VOWEL_GAP = -1;

function isVowel(c: number): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117;
}

/** Bonus of a character at `j` given the original-case path (word starts and camelCase humps). */
export function boundaryBonus(path: string, j: number): number {
  if (j === 0) return BONUS_SLASH;
  const prev = path.charCodeAt(j - 1);
  if (prev === 47 /* / */ || prev === 92 /* \ */) return BONUS_SLASH;
  if (prev === 95 /* _ */ || prev === 45 /* - */ || prev === 46 /* . */ || prev === 32 /* space */) return BONUS_DELIMITER;
  const cur = path.charCodeAt(j);
  // camelCase hump (aB) and letter→digit (a1)
  if (cur >= 65 && cur <= 90 && !(prev >= 65 && prev <= 90)) return BONUS_CAMEL;
  if (cur >= 48 && cur <= 57 && !(prev >= 48 && prev <= 57)) return BONUS_CAMEL;
  return 0;
}

/** Boosts that depend only on the whole path and query, identical for both passes. */
export function fixedBoost(path: string, lowerPath: string, baseStart: number, q: string): number {
  let boost = -lowerPath.length * LENGTH_PENALTY;
  if (lowerPath.length === q.length && lowerPath === q) return boost + BOOST_EXACT_PATH;
  const nameLen = lowerPath.length - baseStart;
  if (nameLen >= q.length && lowerPath.startsWith(q, baseStart)) {
    if (nameLen === q.length) boost += BOOST_EXACT_NAME;
    else if (lowerPath.charCodeAt(baseStart + q.length) === 46 /* . */ && lowerPath.indexOf('.', baseStart + q.length + 1) < 0) boost += BOOST_EXACT_STEM;
    else boost += endsWord(path, baseStart + q.length) ? BOOST_NAME_WORD : BOOST_NAME_PREFIX;
  }
  return boost;
}

/** Does a word end just before position `j` (a separator or a camelCase hump starts there)? */
function endsWord(path: string, j: number): boolean {
  return j >= path.length || isSeparator(path.charCodeAt(j)) || boundaryBonus(path, j) > 0;
}

export function isSeparator(c: number): boolean {
  return c === 47 || c === 92 || c === 95 || c === 45 || c === 46 || c === 32;
}

/** Largest score a query of length m could reach (for normalizing to 0..1). */
export function maxScore(m: number): number {
  return m * (MATCH + BONUS_SLASH + BASENAME) + BONUS_SLASH * (FIRST_CHAR_MULTIPLIER - 1) + BOOST_EXACT_PATH;
}

/** Maps a raw score monotonically onto 0.0–1.0 (§16.1.2 `match_score`). */
export function normalizeScore(score: number, m: number): number {
  const x = 0.5 + score / (2 * maxScore(Math.max(m, 1)));
  return Math.round(Math.min(1, Math.max(0, x)) * 10000) / 10000;
}

/** Score of a contiguous run of length m starting at `s` (used by the quick pass). */
function runScore(path: string, baseStart: number, s: number, m: number): number {
  const first = boundaryBonus(path, s);
  let score = MATCH + first * FIRST_CHAR_MULTIPLIER + (s >= baseStart ? BASENAME : 0);
  let runBonus = first;
  for (let k = 1; k < m; k++) {
    const j = s + k;
    const b = boundaryBonus(path, j);
    if (b > runBonus) runBonus = b;
    score += MATCH + Math.max(runBonus, BONUS_CONSECUTIVE) + (j >= baseStart ? BASENAME : 0);
  }
  return score;
}

/**
 * The quick pass. Returns NaN when `q` is not a subsequence of the path, else a valid alignment's
 * score (a lower bound of `bestAlignment`'s score).
 */
export function quickScore(path: string, lowerPath: string, baseStart: number, q: string): number {
  const m = q.length;
  if (m === 1) return singleCharScore(path, lowerPath, baseStart, q);
  let j = lowerPath.length - 1;
  // Right-to-left greedy: also the subsequence test.
  let score = 0;
  let nextPos = -1; // position of the previously matched (later) character
  let runBonus = 0;
  for (let i = m - 1; i >= 0; i--) {
    const c = q.charCodeAt(i);
    while (j >= 0 && lowerPath.charCodeAt(j) !== c) j--;
    if (j < 0) return NaN;
    // Score the character at nextPos now that we know whether it continues a run from j.
    const b = boundaryBonus(path, j);
    if (nextPos >= 0) {
      if (nextPos === j + 1) {
        // j and nextPos are in one run; the run's bonus is decided by its first character, which we
        // have not seen yet when scanning right to left: approximate by the current max.
        score += Math.max(runBonus, BONUS_CONSECUTIVE) - runBonus;
      } else {
        const gap = nextPos - j - 1;
        score += GAP_START + GAP_EXTEND * (gap - 1);
      }
    }
    score += MATCH + b + (j >= baseStart ? BASENAME : 0);
    runBonus = b;
    nextPos = j;
    j--;
  }
  score += runBonus * (FIRST_CHAR_MULTIPLIER - 1);
  // The rightmost contiguous occurrence often beats the greedy one (e.g. "widget" in ".../chatWidget.ts").
  if (m > 1) {
    const s = lowerPath.lastIndexOf(q);
    if (s >= 0) {
      const run = runScore(path, baseStart, s, m);
      if (run > score) score = run;
    }
  }
  return score + fixedBoost(path, lowerPath, baseStart, q);
}

/** One character: the best word-start occurrence in the basename, else the rightmost one. */
function singleCharScore(path: string, lowerPath: string, baseStart: number, q: string): number {
  const c = q.charCodeAt(0);
  let best = NaN;
  for (let j = baseStart; j < lowerPath.length; j++) {
    if (lowerPath.charCodeAt(j) !== c) continue;
    const v = MATCH + boundaryBonus(path, j) * FIRST_CHAR_MULTIPLIER + BASENAME;
    if (!(v <= best)) best = v;
  }
  if (best !== best) {
    const j = lowerPath.lastIndexOf(q, baseStart - 1);
    if (j < 0) return NaN;
    best = MATCH + boundaryBonus(path, j) * FIRST_CHAR_MULTIPLIER;
  }
  return best + fixedBoost(path, lowerPath, baseStart, q);
}

// The same quick score over a PathSnapshot's bytes (the scan's hot loop) lives in quickScoreBytes.ts.

// Scratch matrices for the DP, grown on demand and reused (no allocation per candidate).
let scratchH = new Float64Array(0);
let scratchRun = new Float64Array(0);
let scratchFrom = new Int8Array(0);

export interface Alignment {
  score: number;
  /** Matched character positions in the path, ascending. */
  positions: number[];
}

/**
 * The optimal alignment of `q` in the path (O(m·w) over the window that can hold a match), or
 * undefined when `q` is not a subsequence.
 */
export function bestAlignment(path: string, lowerPath: string, baseStart: number, q: string): Alignment | undefined {
  const m = q.length;
  const n = lowerPath.length;
  if (m === 0) return { score: fixedBoost(path, lowerPath, baseStart, q), positions: [] };
  // Feasible column range per row: leftmost greedy gives the earliest, rightmost greedy the latest.
  const lo = new Int32Array(m);
  const hi = new Int32Array(m);
  let j = 0;
  for (let i = 0; i < m; i++) {
    const c = q.charCodeAt(i);
    while (j < n && lowerPath.charCodeAt(j) !== c) j++;
    if (j >= n) return undefined;
    lo[i] = j++;
  }
  j = n - 1;
  for (let i = m - 1; i >= 0; i--) {
    const c = q.charCodeAt(i);
    while (j >= 0 && lowerPath.charCodeAt(j) !== c) j--;
    hi[i] = j--;
  }
  const w = hi[m - 1] - lo[0] + 1;
  const offset = lo[0];
  const size = m * w;
  if (scratchH.length < size) {
    scratchH = new Float64Array(size * 2);
    scratchRun = new Float64Array(size * 2);
    scratchFrom = new Int8Array(size * 2);
  }
  const H = scratchH;
  const R = scratchRun; // bonus of the run the match at (i, j) belongs to
  const F = scratchFrom; // 1 = came diagonally (run), 2 = came through a gap
  for (let i = 0; i < m; i++) {
    const c = q.charCodeAt(i);
    const row = i * w;
    const prev = row - w;
    // best value of H[i-1][k] + gap penalty for a gap ending just before the current column
    let gapBest = NEG;
    // the same, restricted to gaps of vowels only (abbreviations drop vowels: chtwdg ← chat/widget)
    let vowelBest = NEG;
    for (let col = 0; col < w; col++) {
      const pos = col + offset;
      const cell = row + col;
      H[cell] = NEG;
      if (i > 0 && col >= 2) {
        const viaGap = H[prev + col - 2] + GAP_START;
        gapBest = Math.max(gapBest + GAP_EXTEND, viaGap);
        vowelBest = isVowel(lowerPath.charCodeAt(pos - 1)) ? Math.max(vowelBest, H[prev + col - 2]) + VOWEL_GAP : NEG;
      } else if (i > 0) {
        gapBest = gapBest + GAP_EXTEND;
      }
      if (pos < lo[i] || pos > hi[i] || lowerPath.charCodeAt(pos) !== c) continue;
      const b = boundaryBonus(path, pos);
      const inName = pos >= baseStart ? BASENAME : 0;
      if (i === 0) {
        H[cell] = MATCH + b * FIRST_CHAR_MULTIPLIER + inName;
        R[cell] = b;
        F[cell] = 0;
        continue;
      }
      let best = NEG;
      let from = 0;
      let run = b;
      if (col >= 1 && H[prev + col - 1] > NEG / 2) {
        const rb = Math.max(R[prev + col - 1], b);
        const v = H[prev + col - 1] + MATCH + Math.max(rb, BONUS_CONSECUTIVE) + inName;
        best = v;
        from = 1;
        run = rb;
      }
      const gapped = Math.max(gapBest, vowelBest);
      if (gapped > NEG / 2) {
        const v = gapped + MATCH + b + inName;
        if (v > best) {
          best = v;
          from = 2;
          run = b;
        }
      }
      H[cell] = best;
      R[cell] = run;
      F[cell] = from;
    }
  }
  // Best end in the last row, then walk back.
  const last = (m - 1) * w;
  let bestCol = -1;
  let best = NEG;
  for (let col = 0; col < w; col++) {
    if (H[last + col] > best) {
      best = H[last + col];
      bestCol = col;
    }
  }
  if (bestCol < 0 || best <= NEG / 2) return undefined;
  const positions = new Array<number>(m);
  let col = bestCol;
  for (let i = m - 1; i >= 0; i--) {
    positions[i] = col + offset;
    if (i === 0) break;
    const from = F[i * w + col];
    if (from === 1) {
      col -= 1;
    } else {
      // Came through a gap: the previous match is the best H[i-1][k] + gap(k) for k ≤ col-2.
      const prev = (i - 1) * w;
      let bestK = -1;
      let bestV = NEG;
      let vowels = true;
      for (let k = col - 2; k >= 0; k--) {
        vowels &&= isVowel(lowerPath.charCodeAt(k + 1 + offset));
        const v = H[prev + k] + (vowels ? VOWEL_GAP * (col - 1 - k) : GAP_START + GAP_EXTEND * (col - 2 - k));
        if (v > bestV) {
          bestV = v;
          bestK = k;
        }
      }
      col = bestK;
    }
  }
  return { score: best + fixedBoost(path, lowerPath, baseStart, q), positions };
}

/** Merged half-open ranges of matched positions (§16.1.2 `match_ranges`), shifted by `shift`. */
export function toRanges(positions: readonly number[], shift = 0): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const p of positions) {
    const last = out[out.length - 1];
    if (last && last.end === p + shift) last.end++;
    else out.push({ start: p + shift, end: p + shift + 1 });
  }
  return out;
}
