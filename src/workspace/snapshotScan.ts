// The per-keystroke scan over one folder's PathSnapshot: mask prefilter, subsequence test (resumed
// where the previous keystroke's match ended), survivors for prefix narrowing, and quick scores for
// what can still enter the top list. Plain functions over typed arrays (the hot loop of §16.1).
import { charBit, type PathSnapshot } from './pathSnapshot';
import { LENGTH_PENALTY as LENGTH_PENALTY_, quickScore } from './fuzzyScore';
import { BELOW_FLOOR as BELOW_FLOOR_, NO_MATCH as NO_MATCH_, nameBoostOf, quickScoreRaw } from './quickScoreBytes';
import { firstCharCut, oneLetterBoostCap, quickBonusCaps, quickBonusLookup, quickBonusMax, quickScoreBound, quickScoreBoundBoosted, quickScoreNeed, quickScoreRest } from './quickBound';
import type { TopHeap } from './topHeap';
import { inRange, type ScanRange } from './scanRange';
import { publishBar, sharedBar } from './scanBars';
import { lowerSameLength } from './searchText';
import { deferredRaw, SiblingScore } from './siblingScore';

/** State of one folder's scan across slices. */
export interface Scan {
  snap: PathSnapshot;
  q: string;
  qb: Uint8Array;
  qm: number;
  /** The query's digits (searchText.queryDigits). */
  qd: number;
  needStrings: boolean;
  ids: Int32Array | undefined;
  prevEnds: Uint16Array | undefined;
  from: number;
  maskExact: boolean;
  pass: Uint8Array | undefined;
  live: ((i: number) => boolean) | undefined;
  survivors: Int32Array;
  ends: Uint16Array;
  nSurvivors: number;
  /** The candidates whose basename starts with the query's first two characters were scored by a
   * first pass (scanNamePrefix): the list may hold later candidates than the one at hand, and its
   * floor is near its end, so no match is deferred. */
  namePrefixFirst: boolean;
  /** Matches whose basename does not start with the query's first character, scored after the scan. */
  deferred: Int32Array;
  nDeferred: number;
  /** Match positions (relative) of the query characters in path `lastTested`, the first `lastMatched` valid. */
  positions: Int32Array;
  lastTested: number;
  lastMatched: number;
  /** Where (relative) the test of path `lastTested` started. */
  lastStart: number;
  total: number;
  heap: TopHeap;
  /** quickBonusTable of the query (quickBound.ts). */
  bonusTable: Int32Array;
  /** The last deferred match scored by its directory part alone, for its siblings (siblingScore.ts). */
  siblings: SiblingScore;
  /** Added to a snapshot index to give its tie in the heap's order (the folder's place). */
  tieBase: number;
  /**
   * When parts of one snapshot are scanned side by side (scan workers): each part's list of best
   * scores, rounded down, at `bars[barSlot * cap …]`. The merged list is at or above the cap-th
   * best of them all, so every part prunes below it too (strictly: at it a tie may still enter).
   */
  bars: Int32Array | undefined;
  barSlot: number;
  /** Scratch for sharedBar (one head per part) and publishBar (the list, sorted). */
  barHeads: Int32Array;
  barScratch: Float64Array;
  /** The heap's version when its list was last published. */
  publishedVersion: number;
  onPush: (i: number) => number;
}

// Module-level aliases: under a CommonJS transform an imported function is a getter on the module
// object, which would be called for every path in the hot loop.
const upperBound = quickScoreBound;
const LENGTH_PENALTY = LENGTH_PENALTY_;
const bonusOf = quickBonusLookup;
const scoreRaw = quickScoreRaw;
const scoreString = quickScore;
const boundBoosted = quickScoreBoundBoosted;
const boostOf = nameBoostOf;
const NO_MATCH = NO_MATCH_;
const BELOW_FLOOR = BELOW_FLOOR_;
const needOf = quickScoreNeed;
const oneLetterCap = oneLetterBoostCap;
const deferredScore = deferredRaw;
const cutOf = firstCharCut;

/** Each query character's mask bit. */
export function queryBits(qb: Uint8Array): Int32Array {
  const bits = new Int32Array(qb.length);
  for (let k = 0; k < qb.length; k++) bits[k] = charBit(qb[k]);
  return bits;
}

/** `to` (a larger array) with `from` copied to its start: a survivors or deferred list that filled up. */
function grown<T extends Int32Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** How far back (in snapshot order) the last tested path may lie for its shared prefix to be reused. */
const RESUME_GAP = 32;

/**
 * The first pass of a narrowed scan (a query of two Latin-1 characters or more): scores the paths
 * of `range` whose basename starts with the query's first two characters, the likeliest to
 * lead, found in the snapshot's name-pair groups without a scan. So the floor is high before the
 * scan meets the rest, which it does in snapshot order, where the leaders may come last. They come
 * in ascending tie order and the list holds only earlier ones, so an equal score never wins
 * (strict `>`). One may not be a candidate at all (not a survivor): it does not match (NO_MATCH).
 */
export function scanNamePrefix(scan: Scan, range: ScanRange): void {
  const { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, byNamePair } = scan.snap;
  const { qb, qm, qd, pass, live, heap, bonusTable, tieBase } = scan;
  const m = qb.length;
  const rest = quickScoreRest(quickBonusCaps(qb));
  const group = scan.snap.namePairRange(qb[0], qb[1], range.lo, range.hi);
  const whole = (range.stride ?? 1) <= 1;
  let floor = heap.size < heap.cap ? -Infinity : heap.scores[0];
  const bar = sharedBar(scan);
  for (let g = group.start; g < group.end; g++) {
    const i = byNamePair[g];
    if ((mask[i] & qm) !== qm || (qd !== 0 && (digitMask[i] & qd) !== qd)) continue;
    if (!whole && !inRange(range, i)) continue;
    if (pass !== undefined && pass[i] === 0) continue;
    if (live !== undefined && !live(i)) continue;
    const s0 = offsets[i];
    const e0 = offsets[i + 1];
    const bs = s0 + baseStart[i];
    const penalty = (e0 - s0) * LENGTH_PENALTY;
    let need = NO_MATCH;
    if (floor !== -Infinity || bar !== -Infinity) {
      const boost = boostOf(chars, upper, s0, e0, bs, qb, m);
      const bound = boundBoosted(m, e0 - bs, (nameMask[i] & qm) === qm, boost, bonusOf(bonusTable, startMask[i])) - penalty;
      if (bound <= floor || bound < bar) continue;
      need = needOf(floor, bar, penalty, false, boost);
    }
    const raw = scoreRaw(chars, upper, s0, e0, bs, qb, m, rest, need);
    if (raw === BELOW_FLOOR || raw === NO_MATCH) continue;
    const score = raw - penalty;
    if (score > floor && score >= bar) {
      heap.push(score, tieBase + i, scan.onPush(i));
      floor = heap.size < heap.cap ? -Infinity : heap.scores[0];
    }
  }
  publishBar(scan);
}

/**
 * Lengths above which a match cannot enter the top list whatever its bytes hold: for a basename
 * that does not start with the query's first character (no name boost: `top` is the deferred
 * bound's most), and for one that starts with it but not with its second (no boost either). The
 * hot loop rejects by length alone; what passes meets the exact cuts. Strict (it rejects only
 * below max(floor, bar)), so an equal score that would win its tie is never cut here.
 */
export function lengthCut(top: number, floor: number, bar: number): number {
  const line = floor > bar ? floor : bar;
  return line === -Infinity ? Infinity : (top - line) / LENGTH_PENALTY;
}

/** The hot loop, kept a plain function (not the generator) so the optimizer treats it well. */
export function scanSlice(scan: Scan, start: number, end: number): void {
  const { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, sharedPrefix, wide } = scan.snap;
  const { ids, prevEnds, from, qb, qm, qd, q, pass, live, heap, needStrings, maskExact, bonusTable, namePrefixFirst, siblings } = scan;
  const m = qb.length;
  const q1 = m >= 2 ? qb[1] : -1;
  const q0 = m > 0 ? qb[0] : -1;
  const caps = quickBonusCaps(qb);
  const bonusMax = quickBonusMax(caps);
  // The most a deferred match can score before its length penalty (no name boost: its basename
  // does not start with the query): most are rejected by this and their length alone.
  const deferredTop = upperBound(m, 0, m, true, false, bonusMax);
  const rest = quickScoreRest(caps);
  // The last query character's bit: a basename without it is not read by the quick score.
  const lastBit = m > 0 ? charBit(qb[m - 1]) : 0;
  // The first query character's bit and share of `rest`, for the deferred matches' early exit.
  const firstBit = m > 0 ? charBit(qb[0]) : 0;
  const cap0 = m > 0 ? caps[0] : 0;
  let { survivors, ends, nSurvivors, deferred, nDeferred, total } = scan;
  // The last path whose test started at its beginning, and where its query characters matched.
  const positions = scan.positions;
  let lastTested = scan.lastTested;
  let lastMatched = scan.lastMatched;
  let lastStart = scan.lastStart;
  // Where (relative) the match of path `lastTested` ended, -1 when it did not match.
  let lastEnd = lastTested >= 0 && lastMatched === m ? (m > from ? positions[m - 1] + 1 : lastStart) : -1;
  // The top list's floor, read again only after a push (it changes only then), and the other
  // parts' (read once a slice). A candidate is cut when its bound is at most the floor or below the bar.
  let floor = heap.size < heap.cap ? -Infinity : heap.scores[0];
  // The first pass may have put later candidates in the list: an equal score enters when its tie
  // is lower than the floor's (`tieWins`; never without that pass, which keeps the cuts strict).
  let floorTie = heap.size < heap.cap ? 0 : heap.ties[0];
  const tieBase = scan.tieBase;
  const bar = sharedBar(scan);
  let pruning = floor !== -Infinity || bar !== -Infinity;
  // The most a promising match without the name boost can score before its penalty, and the
  // length cuts of both kinds (made again only when the list changed).
  const promisingTop = boundBoosted(m, m, true, 0, bonusMax);
  let deferredLen = lengthCut(deferredTop, floor, bar);
  let promisingLen = q1 >= 0 ? lengthCut(promisingTop, floor, bar) : Infinity;
  // Runs whose paths are only counted and kept need none of the tests below (no filter to ask).
  const runsShortcut = !needStrings && !maskExact && m > 0 && pass === undefined && live === undefined;
  for (let k = start; k < end; k++) {
    const i = ids === undefined ? k : ids[k];
    // A path of a run (it shares with the path before it every byte up to where that one's match
    // ended, and its test would start where that one's did: the same match) that the cuts below
    // reject by its first name letters and length, or, when its basename does not start with the
    // query, by the bound from its masks (strictly below: an equal bound goes on to the tie test).
    // Most paths of a broad query's scan are such (`circ` at 460k: 295,000 of 424,000
    // candidates); skipping the mask test and the rest of the loop made that keystroke 13% faster
    // in one thread, and taking the bound here `rpt` 13–21% faster (decision 536).
    if (runsShortcut && i === lastTested + 1 && lastEnd >= 0 && sharedPrefix[i] >= lastEnd && (prevEnds === undefined ? lastStart === 0 : prevEnds[k] === lastStart)) {
      const len = offsets[i + 1] - offsets[i];
      let cut: boolean;
      if (nameFirst[i] !== q0) {
        cut = len > deferredLen;
        if (!cut && pruning) {
          const bound = upperBound(m, len, len - baseStart[i], (nameMask[i] & qm) === qm, false, bonusOf(bonusTable, startMask[i])) - len * LENGTH_PENALTY;
          cut = bound < floor || bound < bar;
        }
      } else cut = (namePrefixFirst && nameSecond[i] === q1) || (q1 >= 0 && nameSecond[i] !== q1 && len > promisingLen);
      if (cut) {
        if (nSurvivors === survivors.length) {
          survivors = grown(survivors, new Int32Array(survivors.length * 4 + 16));
          ends = grown(ends, new Uint16Array(survivors.length));
        }
        survivors[nSurvivors] = i;
        ends[nSurvivors++] = lastEnd > 0xffff ? 0 : lastEnd;
        total++;
        lastTested = i;
        continue;
      }
    }
    if ((mask[i] & qm) !== qm || (qd !== 0 && (digitMask[i] & qd) !== qd)) continue;
    const s0 = offsets[i];
    const e0 = offsets[i + 1];
    let matchEnd = 0;
    let score = NaN;
    if (m === 0) {
      score = 0;
    } else if (maskExact) {
      // contained: proved by the mask
    } else if (!needStrings) {
      // From the path start, or where the previous keystroke's leftmost match ended. And the
      // leftmost greedy match over the prefix this path shares with the last path tested here, when
      // that test started at the same place, is that path's: skip the query characters it matched
      // inside the shared prefix and resume at the prefix's end (the next one does not occur before).
      const startRel = prevEnds === undefined ? 0 : prevEnds[k];
      // A run: path i shares with its neighbour, just tested from the same place, every byte up to
      // where the neighbour's match ended: the same match. Most paths of a short query's scan are
      // such runs (a directory whose name holds the query), and this is all they cost.
      if (i === lastTested + 1 && lastEnd >= 0 && startRel === lastStart && sharedPrefix[i] >= lastEnd) {
        lastTested = i;
        matchEnd = lastEnd;
      } else {
        let kq = from;
        let j = s0 + startRel;
        if (lastTested >= 0 && startRel === lastStart && i - lastTested <= RESUME_GAP) {
          let shared = 0xffff;
          for (let x = lastTested + 1; x <= i; x++) if (sharedPrefix[x] < shared) shared = sharedPrefix[x];
          if (shared > startRel) {
            while (kq < lastMatched && positions[kq] < shared) kq++;
            j = s0 + shared;
          }
        }
        for (; kq < m; kq++) {
          const c = qb[kq];
          while (j < e0 && chars[j] !== c) j++;
          if (j >= e0) break;
          positions[kq] = j - s0;
          j++;
        }
        lastTested = i;
        lastStart = startRel;
        lastMatched = kq;
        if (kq < m) {
          lastEnd = -1;
          continue;
        }
        matchEnd = m > from ? positions[m - 1] + 1 : startRel;
        lastEnd = matchEnd;
      }
    } else if (wide[i] === 1) {
      const path = scan.snap.pathAt(i);
      score = scoreString(path, lowerSameLength(path), baseStart[i], q);
      if (score !== score) continue;
    } else continue;
    // Stored for the next keystroke, except a one-letter query's (its mask's paths, found again).
    if (!maskExact) {
      if (nSurvivors === survivors.length) {
        survivors = grown(survivors, new Int32Array(survivors.length * 4 + 16));
        ends = grown(ends, new Uint16Array(survivors.length));
      }
      survivors[nSurvivors] = i;
      ends[nSurvivors++] = matchEnd > 0xffff ? 0 : matchEnd;
    }
    if (pass !== undefined && pass[i] === 0) continue;
    if (live !== undefined && !live(i)) continue;
    total++;
    const tieWins = namePrefixFirst && tieBase + i < floorTie;
    if (score !== score) {
      if (nameFirst[i] !== q0) {
        // Most are rejected by their length alone (lengthCut), before any bound is computed.
        if (e0 - s0 > deferredLen) continue;
        // Most matches do not start their basename with the query's first character, and none of
        // those can outscore one that does (the basename boosts). A fresh scan scores them after
        // the scan, when the promising ones have raised the floor, so the bound below rejects most
        // unread. The floor only rises: what the bound rejects now it would reject then (no need to
        // keep it). A narrowed scan starts near its final floor (the first pass), so it scores
        // them now, while their bytes are in the cache: read after the scan each cost ~130 ns, and
        // the later floor cut few more (`spce` at 460k: 87,000 deferred, 20 entered; issue 18).
        const penalty = (e0 - s0) * LENGTH_PENALTY;
        if (pruning) {
          const most = deferredTop - penalty;
          if ((tieWins ? most < floor : most <= floor) || most < bar) continue;
          const bound = upperBound(m, e0 - s0, e0 - s0 - baseStart[i], (nameMask[i] & qm) === qm, false, bonusOf(bonusTable, startMask[i])) - penalty;
          if ((tieWins ? bound < floor : bound <= floor) || bound < bar) continue;
        }
        if (!namePrefixFirst) {
          if (nDeferred === deferred.length) deferred = grown(deferred, new Int32Array(deferred.length * 4 + 16));
          deferred[nDeferred++] = i;
          continue;
        }
        // No name boost; the deferred phase's early exit. A basename without the query's last
        // character leaves the score to the directory part: a sibling's may decide it (siblingScore.ts).
        const raw = deferredScore(siblings, chars, upper, sharedPrefix, i, s0, e0, baseStart[i], qb, m, rest, needOf(floor, bar, penalty, tieWins, 0), (nameMask[i] & lastBit) === 0, cutOf(startMask[i], firstBit, cap0));
        if (raw === BELOW_FLOOR) continue;
        score = raw - penalty;
      } else if (namePrefixFirst && nameSecond[i] === q1) {
        // Its first two characters make it one the first pass scored.
        continue;
      } else if (q1 >= 0 && nameSecond[i] !== q1 && e0 - s0 > promisingLen) {
        // No name boost (the basename does not start with the query), and too long to enter.
        continue;
      } else {
        // Score only what could enter the current top list (an exact bound: nothing is lost), with
        // the name boost known exactly (the most, an exact stem, let nearly every `Makefile` through
        // for `ma`). And stop reading one once it cannot beat the floor (integers cross the call:
        // `need` is the floor plus the penalty less the boost, rounded down; the bar's likewise).
        const bs = s0 + baseStart[i];
        const penalty = (e0 - s0) * LENGTH_PENALTY;
        let need = NO_MATCH;
        if (pruning) {
          // No boost unless the basename starts with the whole query: its second byte tells most.
          // For one letter it caps the boost, and only a path that passes the capped bound has its
          // bytes read for the exact one (a cache miss each: a quarter of a one-letter keystroke).
          let boost = q1 >= 0 ? (nameSecond[i] !== q1 ? 0 : boostOf(chars, upper, s0, e0, bs, qb, m)) : oneLetterCap(e0 - s0, nameSecond[i]);
          const nameHasAll = (nameMask[i] & qm) === qm;
          const bonus = bonusOf(bonusTable, startMask[i]);
          let bound = boundBoosted(m, e0 - bs, nameHasAll, boost, bonus) - penalty;
          if ((tieWins ? bound < floor : bound <= floor) || bound < bar) continue;
          if (q1 < 0) {
            boost = boostOf(chars, upper, s0, e0, bs, qb, m);
            bound = boundBoosted(m, e0 - bs, nameHasAll, boost, bonus) - penalty;
            if ((tieWins ? bound < floor : bound <= floor) || bound < bar) continue;
          }
          need = needOf(floor, bar, penalty, tieWins, boost);
        }
        const raw = scoreRaw(chars, upper, s0, e0, bs, qb, m, rest, need, (nameMask[i] & lastBit) === 0 && baseStart[i] < 0xffff ? bs : e0);
        if (raw === BELOW_FLOOR) continue;
        score = raw - penalty;
      }
    }
    // Without the first pass candidates come in ascending tie order, so an equal score never wins.
    if ((score > floor || (tieWins && score === floor)) && score >= bar) {
      heap.push(score, tieBase + i, scan.onPush(i));
      if (floor === -Infinity && heap.size === heap.cap) pruning = true;
      floor = heap.size < heap.cap ? -Infinity : heap.scores[0];
      floorTie = heap.ties[0];
      deferredLen = lengthCut(deferredTop, floor, bar);
      promisingLen = q1 >= 0 ? lengthCut(promisingTop, floor, bar) : Infinity;
    }
  }
  scan.lastTested = lastTested;
  scan.lastMatched = lastMatched;
  scan.lastStart = lastStart;
  scan.survivors = survivors;
  scan.ends = ends;
  scan.nSurvivors = nSurvivors;
  scan.deferred = deferred;
  scan.nDeferred = nDeferred;
  scan.total = total;
  publishBar(scan);
}
