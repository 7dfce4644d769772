// Sorting a large list of strings in small steps, so an index of 460k paths can be built without
// blocking the event loop (issue 18: no block over 20 ms). Array.prototype.sort cannot be paused,
// and sorting 460k paths at once takes ~400 ms; this is a bottom-up merge sort of an index array
// that yields every few thousand comparisons. The order is code-unit order (what `<` gives), the
// order PathSnapshot's binary search relies on. Hand-written because no well-kept library offers a
// pausable sort (decision 290).

/** Insertion-sorted runs of this many items start the merge. */
const RUN = 32;
/** Comparisons (or keys read by a linear pass) between yields: a step reads at most ~16k keys. */
export const STEP = 4096;

/**
 * The indices of `keys` in sorted order with duplicates dropped (the first of equal keys kept).
 * A generator: each `yield` is a point where the caller may pause.
 */
export function* sortedUniqueSteps(keys: readonly string[]): Generator<void, Int32Array, void> {
  const n = keys.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    if (!(keys[i - 1] < keys[i])) sorted = false;
    if ((i & (STEP - 1)) === 0) yield;
  }
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (sorted) return order;
  let work = 0;
  for (let lo = 0; lo < n; lo += RUN) {
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
    work += RUN * 4;
    if (work >= STEP) {
      work = 0;
      yield;
    }
  }
  let other = new Int32Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // `<=` keeps equal keys in input order (stable), so the first duplicate survives.
        other[k++] = keys[order[i]] <= keys[order[j]] ? order[i++] : order[j++];
        if (++work >= STEP) {
          work = 0;
          yield;
        }
      }
      while (i < mid) other[k++] = order[i++];
      while (j < hi) other[k++] = order[j++];
    }
    const t = order;
    order = other;
    other = t;
  }
  // Drop duplicates (adjacent once sorted).
  let out = 0;
  for (let i = 0; i < n; i++) {
    if (out > 0 && keys[order[out - 1]] === keys[order[i]]) continue;
    order[out++] = order[i];
    if ((i & (STEP - 1)) === 0) yield;
  }
  return out === n ? order : order.slice(0, out);
}
