// An immutable, compact snapshot of one folder's file paths, laid out for fast fuzzy scanning.
//
// All paths' lower-case characters sit in ONE byte array, so a scan over 100k paths reads memory
// sequentially instead of chasing 100k string objects — that, not the comparisons, is what a
// per-keystroke scan is bound by. The original case is one bit per character beside it (word-start
// bonuses and the path strings are derived from the two), so 460k paths take about 38 MB and hold
// no string objects: a path string is rebuilt only for the few results a keystroke returns. Paths
// with characters beyond ASCII keep their string aside ("wide", rare). A 32-bit mask per path of
// the characters it contains rejects most paths before their bytes are read. Paths are sorted
// (code-unit order) so membership is a binary search and a directory is a contiguous range.
// The arrays live in SharedArrayBuffers: the scan workers read the same memory (decision 500).
import { runInSlices, runToEnd } from './runSteps';
import { sortedUniqueSteps } from './slicedSort';
import { charBit, countNamePairs, fillPaths, isUpperAt, placeNamePairs, type SnapshotArrays } from './snapshotFill';

export { charBit, digitBit, isUpperAt, WIDE } from './snapshotFill';

/** A fill step's time budget, and how many paths it fills between looks at the clock. */
const FILL_STEP_MS = 1.5;
const FILL_CHUNK = 64;

export function maskOf(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) mask |= charBit(lower.charCodeAt(i));
  return mask;
}

/** A snapshot as it crosses to a scan worker: its arrays (shared memory, not copied) and wide strings. */
export interface SharedSnapshot {
  arrays: Omit<SnapshotArrays, 'wideText'> & { byNamePair: Int32Array; namePairKeys: Int32Array; namePairStart: Int32Array };
  wideText: [number, string][];
  generation: number;
}

/** A typed array over shared memory (every snapshot array is one, so workers can read it). */
function shared<T>(Kind: new (buffer: SharedArrayBuffer) => T, length: number, bytesPer: number): T {
  return new Kind(new SharedArrayBuffer(length * bytesPer));
}

/**
 * The name-pair groups present (their keys, and where each starts in `byNamePair`, plus the end),
 * from each group's count; `counts` becomes where each group's next index goes. A plain function:
 * in the build's generator these two loops over 65,536 groups ran in the interpreter.
 */
function namePairGroups(counts: Int32Array, n: number): { namePairKeys: Int32Array; namePairStart: Int32Array } {
  let groups = 0;
  for (let g = 0; g < 65536; g++) if (counts[g] > 0) groups++;
  const namePairKeys = shared(Int32Array, groups, 4);
  const namePairStart = shared(Int32Array, groups + 1, 4);
  for (let g = 0, start = 0, k = 0; g < 65536; g++) {
    if (counts[g] === 0) continue;
    namePairKeys[k] = g;
    namePairStart[k++] = start;
    const c = counts[g];
    counts[g] = start;
    start += c;
  }
  namePairStart[groups] = n;
  return { namePairKeys, namePairStart };
}

export function baseStartOf(path: string): number {
  return path.lastIndexOf('/') + 1;
}

export class PathSnapshot {
  private constructor(
    /** Start of path i in `chars`; `offsets[n]` is the end. */
    readonly offsets: Uint32Array,
    /** Lower-case code units of all paths, concatenated (Latin-1; WIDE for anything beyond). */
    readonly chars: Uint8Array,
    /** One bit per character of `chars`: upper case (ASCII A–Z) in the original path. */
    readonly upper: Uint8Array,
    /** Basename start within path i. */
    readonly baseStart: Uint16Array,
    readonly mask: Int32Array,
    /** Which of the ten digits path i holds (bit d for digit d): the mask has one bit for them all. */
    readonly digitMask: Uint16Array,
    /** Character mask of the basename alone. */
    readonly nameMask: Int32Array,
    /** Character mask of the characters at word starts (where `bonusAt` > 0): a query whose first
     * character is not among them cannot earn the doubled first-character bonus (a tighter bound). */
    readonly startMask: Int32Array,
    /** The basename's first (lower-case) byte, 0 for none: the scan defers every match whose basename
     * does not start with the query's first character, and reading it here is sequential where
     * `chars` at the basename is a jump (a cache miss per candidate; issue 18). */
    readonly nameFirst: Uint8Array,
    /** The basename's second byte, 0 for none: whether a basename starts with the whole query is
     * then known for most candidates without reading their bytes (a cache miss each; issue 18). */
    readonly nameSecond: Uint8Array,
    /** Every index, grouped by the basename's first two bytes (ascending within a group): the
     * paths whose basename starts with a query's first two characters, found without a scan. */
    readonly byNamePair: Int32Array,
    /** The groups present, ascending (`first·256 + second`), and where each starts in
     * `byNamePair` (one more entry: the end). */
    readonly namePairKeys: Int32Array,
    readonly namePairStart: Int32Array,
    /** Length of the prefix path i shares with path i-1, case included (0 for the first; capped
     * at 0xffff). Sorted neighbours share their directories, so a scan that has just tested path
     * i-1 can resume path i's subsequence test after the shared part, and a directory part's quick
     * score is its sibling's (siblingScore.ts). */
    readonly sharedPrefix: Uint16Array,
    /** Paths with characters beyond ASCII (scanned as strings when the query is not ASCII). */
    readonly wide: Uint8Array,
    /** The original strings of the wide paths, by index. */
    private readonly wideText: ReadonlyMap<number, string>,
    /** Increases with every snapshot; search caches are keyed by it. */
    readonly generation: number,
  ) {}

  private static nextGeneration = 1;

  get size(): number {
    return this.baseStart.length;
  }

  static empty(): PathSnapshot {
    return PathSnapshot.build([]);
  }

  /** Builds synchronously (tests, small lists). Duplicates are dropped. */
  static build(input: readonly string[]): PathSnapshot {
    return runToEnd(PathSnapshot.buildSteps(input));
  }

  /**
   * Builds in the background: runs the build's steps for at most `budgetMs` at a time and yields
   * to the event loop in between, so a 460k-path listing never blocks other work for long. The
   * budget is 5 ms, not more: on two cores shared with the scan workers starting up, a slice
   * overruns its budget by up to twice its length (decision 522).
   */
  static buildAsync(input: readonly string[], budgetMs = 5): Promise<PathSnapshot> {
    return runInSlices(PathSnapshot.buildSteps(input), budgetMs);
  }

  /**
   * The build as small steps (each a few milliseconds at most): sort and de-duplicate, then fill
   * the arrays `slice` paths at a time (fewer when a step's time budget runs out), then group the
   * paths by their basename's first two bytes.
   */
  static *buildSteps(input: readonly string[], slice = 2048, now: () => number = () => performance.now()): Generator<void, PathSnapshot, void> {
    const order = yield* sortedUniqueSteps(input);
    const n = order.length;
    // Every pass over the paths is sliced, this one too: reading 460k string lengths in sorted (so
    // scattered) order is a 10–15 ms block on its own.
    let total = 0;
    for (let i = 0; i < n; i++) {
      total += input[order[i]].length;
      if (i % slice === slice - 1) yield;
    }
    // One step per large array: each allocation may start a collection (external memory pressure),
    // and several in one step add up to a block of tens of ms at 460k paths.
    const offsets = shared(Uint32Array, n + 1, 4);
    yield;
    const chars = shared(Uint8Array, total, 1);
    yield;
    const upper = shared(Uint8Array, (total >> 3) + 1, 1);
    yield;
    const baseStart = shared(Uint16Array, n, 2);
    const mask = shared(Int32Array, n, 4);
    const digitMask = shared(Uint16Array, n, 2);
    const nameMask = shared(Int32Array, n, 4);
    yield;
    const startMask = shared(Int32Array, n, 4);
    const nameFirst = shared(Uint8Array, n, 1);
    const nameSecond = shared(Uint8Array, n, 1);
    const sharedPrefix = shared(Uint16Array, n, 2);
    const wide = shared(Uint8Array, n, 1);
    yield;
    const arrays: SnapshotArrays = { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, sharedPrefix, wide, wideText: new Map<number, string>() };
    let at = 0;
    // A step fills `slice` paths, or fewer once FILL_STEP_MS have passed: until V8 has optimized
    // the fill (a concurrent compile of ~10 ms, which shares the machine's two cores) it runs
    // several times slower, and a cold slice of 2,048 paths was a 9–13 ms block (issue 18).
    for (let from = 0; from < n; ) {
      const until = now() + FILL_STEP_MS;
      const stop = Math.min(n, from + slice);
      do {
        const to = Math.min(stop, from + FILL_CHUNK);
        at = fillPaths(arrays, input, order, from, to, at);
        from = to;
      } while (from < stop && now() < until);
      yield;
    }
    offsets[n] = at;
    // The name-pair groups: a counting sort, sliced like the fill; only the groups present are kept.
    const counts = new Int32Array(65536);
    for (let from = 0; from < n; from += slice) {
      countNamePairs(nameFirst, nameSecond, counts, from, Math.min(n, from + slice));
      yield;
    }
    const { namePairKeys, namePairStart } = namePairGroups(counts, n);
    const place = counts; // namePairGroups turned the counts into where each group's next index goes
    const byNamePair = shared(Int32Array, n, 4);
    yield;
    for (let from = 0; from < n; from += slice) {
      placeNamePairs(nameFirst, nameSecond, place, byNamePair, from, Math.min(n, from + slice));
      yield;
    }
    return new PathSnapshot(offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, byNamePair, namePairKeys, namePairStart, sharedPrefix, wide, arrays.wideText, PathSnapshot.nextGeneration++);
  }

  /** The snapshot for a scan worker (shared arrays: nothing is copied). */
  toShared(): SharedSnapshot {
    const { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, byNamePair, namePairKeys, namePairStart, sharedPrefix, wide } = this;
    return { arrays: { offsets, chars, upper, baseStart, mask, digitMask, nameMask, startMask, nameFirst, nameSecond, byNamePair, namePairKeys, namePairStart, sharedPrefix, wide }, wideText: [...this.wideText], generation: this.generation };
  }

  /** A scan worker's view of a snapshot another thread built (same generation, same memory). */
  static fromShared(s: SharedSnapshot): PathSnapshot {
    const a = s.arrays;
    return new PathSnapshot(a.offsets, a.chars, a.upper, a.baseStart, a.mask, a.digitMask, a.nameMask, a.startMask, a.nameFirst, a.nameSecond, a.byNamePair, a.namePairKeys, a.namePairStart, a.sharedPrefix, a.wide, new Map(s.wideText), s.generation);
  }

  /**
   * The half-open range of `byNamePair` holding the indices in `lo..hi` whose basename starts with
   * bytes `first`, `second`.
   */
  namePairRange(first: number, second: number, lo: number, hi: number): { start: number; end: number } {
    const keys = this.namePairKeys;
    const k = lowerBound(keys, 0, keys.length, (first << 8) | second);
    if (k === keys.length || keys[k] !== ((first << 8) | second)) return { start: 0, end: 0 };
    const from = this.namePairStart[k];
    const to = this.namePairStart[k + 1];
    return { start: lowerBound(this.byNamePair, from, to, lo), end: lowerBound(this.byNamePair, from, to, hi) };
  }

  /** Path `i` as a string (rebuilt from the bytes; the wide ones are kept). */
  pathAt(i: number): string {
    const w = this.wideText.get(i);
    if (w !== undefined) return w;
    const s = this.offsets[i];
    const e = this.offsets[i + 1];
    const codes = new Array<number>(e - s);
    for (let j = s; j < e; j++) codes[j - s] = isUpperAt(this.upper, j) ? this.chars[j] - 32 : this.chars[j];
    return String.fromCharCode.apply(null, codes);
  }

  /** Every path, in sorted order. */
  allPaths(): string[] {
    const out = new Array<string>(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.pathAt(i);
    return out;
  }

  /** Compares path `i` with `s` in code-unit order (negative: path i sorts first). */
  private compareAt(i: number, s: string): number {
    const w = this.wideText.get(i);
    if (w !== undefined) return w < s ? -1 : w > s ? 1 : 0;
    const start = this.offsets[i];
    const len = this.offsets[i + 1] - start;
    const n = Math.min(len, s.length);
    for (let k = 0; k < n; k++) {
      const j = start + k;
      const c = isUpperAt(this.upper, j) ? this.chars[j] - 32 : this.chars[j];
      const d = c - s.charCodeAt(k);
      if (d !== 0) return d;
    }
    return len - s.length;
  }

  /** Index of `path`, or -(insertion point) - 1. */
  find(path: string): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = this.compareAt(mid, path);
      if (d < 0) lo = mid + 1;
      else if (d > 0) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  has(path: string): boolean {
    return this.find(path) >= 0;
  }

  /** The half-open index range of the paths under directory `dir` (no trailing slash). */
  rangeUnder(dir: string): { start: number; end: number } {
    const prefix = dir + '/';
    const first = this.find(prefix);
    const start = first >= 0 ? first : -first - 1;
    // Every path with the prefix sorts before prefix + U+FFFF.
    const last = this.find(prefix + '\uffff');
    const end = last >= 0 ? last : -last - 1;
    return { start, end };
  }

  /** Does any path lie under directory `dir` (no trailing slash)? */
  hasUnder(dir: string): boolean {
    const r = this.rangeUnder(dir);
    return r.end > r.start;
  }
}

/** The first place in the ascending `a[from..to)` whose value is at least `x`. */
function lowerBound(a: Int32Array, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
