// The messages between the extension host and the @-search scan workers (decision 500). A worker
// receives each snapshot once (its arrays are SharedArrayBuffers: nothing is copied) and then,
// per keystroke, scans its part of it and answers with its best candidates, which the host merges
// (TopHeap's total order makes the merge exact).
import type { SharedSnapshot } from './pathSnapshot';
import type { ScanRange } from './scanRange';

/** Snapshot entries deleted since it was built: single indices and [start, end) ranges (pairs). */
export interface DeadSet {
  ids: Int32Array;
  ranges: Int32Array;
}

export type ToScanWorker =
  | { kind: 'snapshot'; snapshot: SharedSnapshot }
  | { kind: 'drop'; generation: number }
  | {
      kind: 'scan';
      id: number;
      generation: number;
      /** Normalized query. */
      q: string;
      /** The worker's part of the snapshot (scanRange.ts). */
      range: ScanRange;
      /** How many candidates to answer with. */
      cap: number;
      /** The request filters' pass mask (shared memory), if any. */
      pass?: Uint8Array;
      dead?: DeadSet;
      /** Set to 1 by the host when the search is superseded or cancelled: the worker stops. */
      cancel: Int32Array;
      /** The parts' published floors (one slot per part; snapshotScan.ts) and this part's slot. */
      bars: Int32Array;
      barSlot: number;
    }
  | { kind: 'memory'; id: number }
  /** Start the warm-up (scanWarmUp.ts): the host has finished building the index it waited for. */
  | { kind: 'warm' }
  | { kind: 'warmUpState'; id: number };

/** Where a worker's warm-up is: not asked for yet, under way, or over (also when it failed). */
export type WarmUpState = 'waiting' | 'running' | 'done';

export type FromScanWorker =
  | { kind: 'scanned'; id: number; total: number; scores: Float64Array; ids: Int32Array }
  | { kind: 'cancelled'; id: number }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'memory'; id: number; heapUsed: number; arrayBuffers: number }
  | { kind: 'warmUpState'; id: number; state: WarmUpState };

/** The liveness test a scan applies (undefined: everything is live). */
export function liveOf(dead: DeadSet | undefined): ((i: number) => boolean) | undefined {
  if (dead === undefined || (dead.ids.length === 0 && dead.ranges.length === 0)) return undefined;
  const ids = new Set(dead.ids);
  const ranges = dead.ranges;
  return (i) => {
    if (ids.has(i)) return false;
    for (let k = 0; k < ranges.length; k += 2) if (i >= ranges[k] && i < ranges[k + 1]) return false;
    return true;
  };
}
