// The scan's second phase (§16.1, issue 18): the deferred matches — those whose basename does not
// start with the query's first character, so they cannot outscore the ones that do — scored after
// the scan, against the floor the promising ones raised, in snapshot order. (Scoring them best
// bound first was measured slower: the jumps through the path bytes cost more than the bound
// order saved — decision 500.)
//
// They come after the scan, so the list holds later candidates too: one whose tie is higher than
// this one's is beaten by an equal score (TopHeap's order), and every cut here lets such a tie
// through.
import { LENGTH_PENALTY as LENGTH_PENALTY_ } from './fuzzyScore';
import { BELOW_FLOOR as BELOW_FLOOR_ } from './quickScoreBytes';
import { firstCharCut, quickBonusCaps, quickBonusLookup, quickBonusMax, quickScoreBound, quickScoreNeed, quickScoreRest } from './quickBound';
import { publishBar, sharedBar } from './scanBars';
import type { Scan } from './snapshotScan';
import { charBit } from './pathSnapshot';
import { deferredRaw } from './siblingScore';

// Module-level copies: under a CommonJS transform an imported binding is a getter on the module.
const upperBound = quickScoreBound;
const bonusOf = quickBonusLookup;
const LENGTH_PENALTY = LENGTH_PENALTY_;
const needOf = quickScoreNeed;
const BELOW_FLOOR = BELOW_FLOOR_;
const deferredScore = deferredRaw;
const cutOf = firstCharCut;

/** Scores deferred matches `start..end` that can still enter the top list. */
export function scoreDeferred(scan: Scan, start: number, end: number): void {
  const { offsets, chars, upper, baseStart, nameMask, startMask, sharedPrefix } = scan.snap;
  const { deferred, qb, qm, heap, tieBase } = scan;
  const m = qb.length;
  const caps = quickBonusCaps(qb);
  const deferredTop = upperBound(m, 0, m, true, false, quickBonusMax(caps));
  const rest = quickScoreRest(caps);
  // A basename without the query's last character is not read (quickScoreRaw's `from`).
  const lastBit = charBit(qb[m - 1]);
  const firstBit = charBit(qb[0]);
  const bar = sharedBar(scan);
  for (let k = start; k < end; k++) {
    const i = deferred[k];
    const s0 = offsets[i];
    const e0 = offsets[i + 1];
    const bs = s0 + baseStart[i];
    const full = heap.size === heap.cap;
    const floor = full ? heap.scores[0] : -Infinity;
    // An equal score would enter (this candidate sorts before the floor's): cut only below it.
    const tieWins = full && tieBase + i < heap.ties[0];
    const penalty = (e0 - s0) * LENGTH_PENALTY;
    if (full || bar !== -Infinity) {
      const most = deferredTop - penalty;
      if ((tieWins ? most < floor : most <= floor) || most < bar) continue;
      const bound = upperBound(m, e0 - s0, e0 - bs, (nameMask[i] & qm) === qm, false, bonusOf(scan.bonusTable, startMask[i])) - penalty;
      if ((tieWins ? bound < floor : bound <= floor) || bound < bar) continue;
    }
    // No name boost for a deferred match: stop reading it once it cannot beat the floor. A sibling
    // decides one scored by its directory part alone (siblingScore.ts).
    const raw = deferredScore(scan.siblings, chars, upper, sharedPrefix, i, s0, e0, baseStart[i], qb, m, rest, needOf(floor, bar, penalty, tieWins, 0), (nameMask[i] & lastBit) === 0, cutOf(startMask[i], firstBit, caps[0]));
    if (raw === BELOW_FLOOR) continue;
    const score = raw - penalty;
    if (score >= bar && heap.admits(score, tieBase + i)) heap.push(score, tieBase + i, scan.onPush(i));
  }
  publishBar(scan);
}
