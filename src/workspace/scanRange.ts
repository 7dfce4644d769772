// Which snapshot indices one scan covers (issue 18). A part of a snapshot scanned beside others
// (the scan workers, decision 500) is not one contiguous half: it is every `stride`-th block of
// `block` paths. Sorted paths keep a directory together, and a query's matches crowd into a few
// directories, so halves were uneven: on the 115k union the slower half took 1.8 times the faster
// one over the benchmark's keystrokes, and up to 10 times on its slowest (`asmist` 3.1 against
// 0.2 ms), while the keystroke waits for the slower. Interleaved blocks give each part its share
// of every directory and still read memory in long sequential runs.

/** Paths per block of an interleaved part, and per slice of a scan (folderScan.ts): so a block costs no extra yield. */
export const SCAN_BLOCK = 4096;

/**
 * The half-open range [lo, hi) of snapshot indices; with `stride` > 1, only its blocks of `block`
 * paths numbered phase, phase + stride, phase + 2·stride, … (from lo).
 */
export interface ScanRange {
  lo: number;
  hi: number;
  stride?: number;
  phase?: number;
  block?: number;
}

/** The contiguous runs of `range`, ascending, as [start, end) pairs. */
export function runsOf(range: ScanRange): number[] {
  const stride = range.stride ?? 1;
  if (stride <= 1) return range.hi > range.lo ? [range.lo, range.hi] : [];
  const block = range.block ?? SCAN_BLOCK;
  const out: number[] = [];
  for (let b = range.lo + (range.phase ?? 0) * block; b < range.hi; b += stride * block) out.push(b, Math.min(range.hi, b + block));
  return out;
}

/** How many indices `range` holds. */
export function rangeSize(range: ScanRange): number {
  const runs = runsOf(range);
  let n = 0;
  for (let r = 0; r < runs.length; r += 2) n += runs[r + 1] - runs[r];
  return n;
}

/** Does `range` hold snapshot index `i`? */
export function inRange(range: ScanRange, i: number): boolean {
  if (i < range.lo || i >= range.hi) return false;
  const stride = range.stride ?? 1;
  if (stride <= 1) return true;
  return Math.floor((i - range.lo) / (range.block ?? SCAN_BLOCK)) % stride === (range.phase ?? 0);
}

/** Do two ranges cover the same indices the same way (a part's survivors are only valid for its own)? */
export function sameRange(a: ScanRange, b: ScanRange): boolean {
  const stride = (r: ScanRange) => Math.max(1, r.stride ?? 1);
  return a.lo === b.lo && a.hi === b.hi && stride(a) === stride(b) && (stride(a) === 1 || ((a.phase ?? 0) === (b.phase ?? 0) && (a.block ?? SCAN_BLOCK) === (b.block ?? SCAN_BLOCK)));
}

/** A stable name of `range` (a worker keeps one narrowing state per part). */
export function rangeKey(range: ScanRange): string {
  const stride = Math.max(1, range.stride ?? 1);
  return stride === 1 ? `${range.lo}:${range.hi}` : `${range.lo}:${range.hi}:${stride}:${range.phase ?? 0}:${range.block ?? SCAN_BLOCK}`;
}
