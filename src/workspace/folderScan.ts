// One folder snapshot's part of a keystroke's @-search (§16.1): the candidates (the previous
// keystroke's survivors when the query only grew, else the part's index range), the scan in
// slices, then the deferred matches; it keeps the survivors for the next keystroke. The same code
// runs in the extension host (small folders, `searchSync`) and in the scan workers, each over its
// own part of a big snapshot (scanWorker.ts, decision 500).
import type { PathSnapshot } from './pathSnapshot';
import { queryDigits, queryMask } from './searchText';
import { queryBits, scanNamePrefix, scanSlice, type Scan } from './snapshotScan';
import { scoreDeferred } from './deferredScan';
import { LENGTH_PENALTY } from './fuzzyScore';
import { quickBonusCaps, quickBonusMax, quickBonusTable, quickScoreBound } from './quickBound';
import { SiblingScore } from './siblingScore';
import { ScanBuffers, type SurvivorArrays } from './scanBuffers';
import { SCAN_BLOCK, rangeSize, runsOf, sameRange, type ScanRange } from './scanRange';
import type { TopHeap } from './topHeap';

// Paths per slice between yields: an interleaved part's block is one (scanRange.ts).
const SLICE = SCAN_BLOCK;

/** The query as the scan reads it. */
export interface ScanQuery {
  q: string;
  qb: Uint8Array;
  qm: number;
  /** The query's digits (a digit mask: the prefilter mask has one bit for all ten). */
  qd: number;
  /** A query character beyond Latin-1 can only match "wide" paths (kept as strings). */
  needStrings: boolean;
}

/** `q` must be normalized already (normalizeQuery). */
export function scanQueryOf(q: string): ScanQuery {
  const qb = new Uint8Array(q.length);
  let needStrings = false;
  for (let k = 0; k < q.length; k++) {
    const c = q.charCodeAt(k);
    qb[k] = c;
    if (c >= 0xff) needStrings = true;
  }
  return { q, qb, qm: queryMask(q), qd: queryDigits(q), needStrings };
}

export type { ScanRange } from './scanRange';

/** Survivors of the last query of one part, for prefix narrowing. */
interface NarrowCache {
  generation: number;
  range: ScanRange;
  q: string;
  /** Undefined after a one-letter query proved by the mask alone: the candidates are every path
   * whose mask holds the letter, which the next keystroke's mask test selects by itself. */
  ids: Int32Array | undefined;
  /** The arrays `ids` and `ends` are views of (handed back for reuse when replaced). */
  arrays: SurvivorArrays | undefined;
  /** Per survivor: where its leftmost match of `q` ended (relative to the path start); undefined
   * when the scan proved the match by the character mask alone (one letter) and read no bytes. */
  ends: Uint16Array | undefined;
}

/** What one part keeps between keystrokes. */
export class ScanState {
  narrow: NarrowCache | undefined;
  readonly buffers = new ScanBuffers();
}

/** Where the scan pushes: the top list, the tie of snapshot index 0, and the ref of a pushed index. */
export interface ScanTarget {
  heap: TopHeap;
  tieBase: number;
  onPush: (i: number) => number;
  /** Parts scanned side by side: their published lists, and this part's slot (snapshotScan.ts). */
  bars?: Int32Array;
  barSlot?: number;
}

/**
 * Scans `range` of one snapshot. Returns how many matches passed the filters. Its arrays go back
 * to the part's pool however it ends (finished, or dropped by a cancelled search: `return()` runs
 * the `finally`).
 */
export function* scanSnapshot(state: ScanState, snap: PathSnapshot, query: ScanQuery, range: ScanRange, pass: Uint8Array | undefined, live: ((i: number) => boolean) | undefined, target: ScanTarget): Generator<void, number, void> {
  const { q, qb, qm, qd, needStrings } = query;
  const { heap } = target;
  const m = q.length;
  const prev = state.narrow;
  const narrowed = prev !== undefined && prev.generation === snap.generation && sameRange(prev.range, range) && m > 0 && q.startsWith(prev.q);
  const ids = narrowed ? prev.ids : undefined;
  // What the scan walks: the survivors (positions in `ids`), or the range's runs of indices.
  const runs = ids !== undefined ? [0, ids.length] : runsOf(range);
  const count = ids !== undefined ? ids.length : rangeSize(range);
  // One letter: the mask bit is exact for a–z, so containment needs no byte read, and the
  // survivors need not be stored (the next keystroke's mask test selects them again).
  const maskExact = !narrowed && m === 1 && qb[0] >= 97 && qb[0] <= 122;
  const taken = state.buffers.take(maskExact ? 0 : count, count);
  let finished = false;
  const namePrefixFirst = narrowed && m >= 3 && !needStrings;
  try {
    const scan: Scan = {
      snap,
      q,
      qb,
      qm,
      qd,
      needStrings,
      ids,
      // Resume the leftmost subsequence test where the previous keystroke's match ended.
      prevEnds: narrowed && !needStrings ? prev.ends : undefined,
      from: narrowed && !needStrings && prev.ends !== undefined ? prev.q.length : 0,
      maskExact,
      pass,
      live,
      survivors: taken.survivors.ids,
      ends: taken.survivors.ends,
      nSurvivors: 0,
      deferred: taken.deferred,
      nDeferred: 0,
      positions: new Int32Array(m),
      lastTested: -1,
      lastMatched: 0,
      lastStart: 0,
      total: 0,
      heap,
      bonusTable: quickBonusTable(queryBits(qb), quickBonusCaps(qb)),
      siblings: new SiblingScore(),
      tieBase: target.tieBase,
      onPush: target.onPush,
      bars: target.bars,
      barSlot: target.barSlot ?? 0,
      barHeads: new Int32Array(target.bars === undefined ? 0 : target.bars.length / heap.cap),
      barScratch: new Float64Array(heap.cap),
      publishedVersion: -1,
      // A narrowed scan scores the basenames that start with the query's first two characters
      // first (scanNamePrefix): its floor starts near its end, so it defers nothing (snapshotScan).
      namePrefixFirst,
    };
    if (namePrefixFirst) {
      scanNamePrefix(scan, range);
      yield;
    }
    for (let r = 0; r < runs.length; r += 2) {
      const end = runs[r + 1];
      for (let start = runs[r]; start < end; start += SLICE) {
        const stop = Math.min(end, start + SLICE);
        scanSlice(scan, start, stop);
        if (stop < end || r + 2 < runs.length) yield;
      }
    }
    // Second phase: the deferred matches, against the floor the promising ones raised (skipped
    // when even the best a deferred match could score is below it — strictly: an equal score of
    // an earlier candidate would still enter). A match is at least m characters long; a deferred
    // one gets no name boost.
    const deferredCeiling = quickScoreBound(m, 0, m, true, false, quickBonusMax(quickBonusCaps(qb))) - m * LENGTH_PENALTY;
    for (let start = 0; start < scan.nDeferred && !(heap.size === heap.cap && heap.scores[0] > deferredCeiling); start += SLICE) {
      scoreDeferred(scan, start, Math.min(scan.nDeferred, start + SLICE));
      yield;
    }
    const replaced = state.narrow?.arrays;
    const kept = maskExact ? undefined : { ids: scan.survivors, ends: scan.ends };
    state.narrow = {
      generation: snap.generation,
      range,
      q,
      ids: kept && scan.survivors.subarray(0, scan.nSurvivors),
      ends: kept && scan.ends.subarray(0, scan.nSurvivors),
      arrays: kept,
    };
    finished = true;
    // The replaced survivors are free, and so are the ones taken when none were stored.
    state.buffers.done(scan.deferred, replaced, kept === undefined ? taken.survivors : undefined);
    return scan.total;
  } finally {
    if (!finished) state.buffers.done(taken.deferred, taken.survivors);
  }
}
