// Sorting a large list of strings in small steps, so an index of 460k paths can be built without
// blocking the event loop (issue 18: no block over 20 ms). Array.prototype.sort cannot be paused,
// and sorting 460k paths at once takes ~400 ms; this is a bottom-up merge sort of an index array
// that yields every few thousand comparisons. The order is code-unit order (what `<` gives), the
// order PathSnapshot's binary search relies on. Hand-written because no well-kept library offers a
// pausable sort (decision 290).
//
// The loops are plain functions the generator calls, not its own body: V8 does not optimize a loop
// inside a generator while it runs (no on-stack replacement in resumable functions), so inside one
// they ran in the interpreter (decision 410).

/** Insertion-sorted runs of this many items start the merge. */
const RUN = 32;
/** Comparisons (or keys read by a linear pass) between yields: a step reads at most ~16k keys. */
export const STEP = 4096;

/** Is `keys[from-1..to)` strictly increasing? */
function increasing(keys: readonly string[], from: number, to: number): boolean {
  for (let i = Math.max(1, from); i < to; i++) if (!(keys[i - 1] < keys[i])) return false;
  return true;
}

/** Insertion-sorts the runs of RUN items that start in `from..to` (multiples of RUN). */
function sortRuns(keys: readonly string[], order: Int32Array, from: number, to: number, n: number): void {
  for (let lo = from; lo < to; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const v = order[i];
      const key = keys[v];
      let j = i - 1;
      while (j >= lo && keys[order[j]] > key) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = v;
    }
  }
}

/** A merge of order[lo..mid) and order[mid..hi) into other[lo..hi), resumable. */
interface Merge {
  i: number;
  j: number;
  k: number;
  mid: number;
  hi: number;
}

/** Advances `mg` by at most `budget` comparisons (finishing the tails when one side is done); returns those made. */
function mergeSome(keys: readonly string[], order: Int32Array, other: Int32Array, mg: Merge, budget: number): number {
  let { i, j, k } = mg;
  const { mid, hi } = mg;
  let done = 0;
  while (i < mid && j < hi && done < budget) {
    // `<=` keeps equal keys in input order (stable), so the first duplicate survives.
    other[k++] = keys[order[i]] <= keys[order[j]] ? order[i++] : order[j++];
    done++;
  }
  if (i >= mid || j >= hi) {
    while (i < mid) other[k++] = order[i++];
    while (j < hi) other[k++] = order[j++];
  }
  mg.i = i;
  mg.j = j;
  mg.k = k;
  return done;
}

/** Drops duplicates of sorted order[from..to) into order[out..); returns the new `out`. */
function dropDuplicates(keys: readonly string[], order: Int32Array, from: number, to: number, out: number): number {
  for (let i = from; i < to; i++) {
    if (out > 0 && keys[order[out - 1]] === keys[order[i]]) continue;
    order[out++] = order[i];
  }
  return out;
}

/** 0, 1, …, n-1. A plain function: the same loop in the generator ran in the interpreter, a 9–10 ms step at 460k paths. */
function identityOrder(n: number) {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/**
 * The indices of `keys` in sorted order with duplicates dropped (the first of equal keys kept).
 * A generator: each `yield` is a point where the caller may pause.
 */
export function* sortedUniqueSteps(keys: readonly string[]): Generator<void, Int32Array, void> {
  const n = keys.length;
  let sorted = true;
  for (let from = 0; from < n && sorted; from += STEP) {
    sorted = increasing(keys, from, Math.min(n, from + STEP));
    yield;
  }
  let order = identityOrder(n);
  if (sorted) return order;
  // Runs: about RUN²/4 comparisons each on average, so STEP / RUN · 4 runs a step (≤ 16k keys read).
  const runsPerStep = RUN * Math.max(1, Math.floor((STEP * 4) / (RUN * RUN)));
  for (let from = 0; from < n; from += runsPerStep) {
    sortRuns(keys, order, from, Math.min(n, from + runsPerStep), n);
    yield;
  }
  let other = new Int32Array(n);
  let work = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const mg: Merge = { i: lo, j: mid, k: lo, mid, hi: Math.min(lo + 2 * width, n) };
      for (;;) {
        work += mergeSome(keys, order, other, mg, STEP - work);
        if (mg.k >= mg.hi) break;
        work = 0;
        yield;
      }
      if (work >= STEP) {
        work = 0;
        yield;
      }
    }
    const t = order;
    order = other;
    other = t;
  }
  // Drop duplicates (adjacent once sorted).
  let out = 0;
  for (let from = 0; from < n; from += STEP) {
    out = dropDuplicates(keys, order, from, Math.min(n, from + STEP), out);
    yield;
  }
  return out === n ? order : order.slice(0, out);
}
