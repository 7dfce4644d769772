// The bar parts of one snapshot share when they are scanned side by side (scan workers, decision
// 500). Each part publishes its list of best scores; the cap-th best of all of them is a score
// that cap distinct candidates reach, so every part can prune below it — what one scan over the
// whole snapshot would prune with its own floor. Without it each part kept its own top list, whose
// floor sat far lower (a part's 20th best, not the whole's), and scored thousands more candidates.
import type { Scan } from './snapshotScan';

/** A bars slot with nothing published yet. */
export const NO_BAR = -0x80000000;

/**
 * The bar the parts' published lists set: the cap-th best of all their entries (-Infinity when
 * scanned alone, or while fewer are known). Those are cap distinct candidates at least as good,
 * so anything below the bar is out of the merged list. A merge of the lists' heads; a list read
 * while it is rewritten may be out of order, but each slot still stands for a distinct candidate
 * at least as good as its value, so the least value taken is a bar all the same.
 */
export function sharedBar(scan: Scan): number {
  const bars = scan.bars;
  if (bars === undefined) return -Infinity;
  const cap = scan.heap.cap;
  const parts = bars.length / cap;
  const at = scan.barHeads;
  at.fill(0);
  let bar = Infinity;
  for (let k = 0; k < cap; k++) {
    let best = NO_BAR;
    let from = -1;
    for (let w = 0; w < parts; w++) {
      if (at[w] === cap) continue;
      const b = Atomics.load(bars, w * cap + at[w]);
      if (b !== NO_BAR && (from < 0 || b > best)) {
        best = b;
        from = w;
      }
    }
    if (from < 0) return -Infinity;
    at[from]++;
    if (best < bar) bar = best;
  }
  return bar;
}

/**
 * Publishes this part's list when it changed: its scores rounded down, best first, one slot each.
 * The k-th best only rises, so a reader that sees part of a new list and part of the old one still
 * reads, slot by slot, at most what the part holds.
 */
export function publishBar(scan: Scan): void {
  const { bars, heap } = scan;
  if (bars === undefined || heap.size === 0 || heap.version === scan.publishedVersion) return;
  scan.publishedVersion = heap.version;
  const sorted = scan.barScratch;
  sorted.set(heap.scores);
  const n = heap.size;
  sorted.subarray(0, n).sort();
  const base = scan.barSlot * heap.cap;
  for (let k = 0; k < n; k++) Atomics.store(bars, base + k, Math.floor(sorted[n - 1 - k]));
}


