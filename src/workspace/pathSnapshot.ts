// An immutable, compact snapshot of one folder's file paths, laid out for fast fuzzy scanning.
//
// All paths' lower-case characters sit in ONE byte array (and their word-start bonuses in another),
// so a scan over 100k paths reads memory sequentially instead of chasing 100k string objects —
// that, not the comparisons, is what a per-keystroke scan is bound by. A 32-bit mask per path of
// the characters it contains rejects most paths before their bytes are read. Paths are sorted
// (code-unit order) so membership is a binary search and a directory is a range; no per-path Map,
// which keeps 115k paths at about 20 MB.
import { boundaryBonus } from './fuzzyScore';

/** Bit of a lower-case character in the prefilter mask. */
export function charBit(c: number): number {
  if (c >= 97 && c <= 122) return 1 << (c - 97); // a–z: bits 0–25
  if (c >= 48 && c <= 57) return 1 << 26; // digits
  if (c === 46) return 1 << 27; // .
  if (c === 95 || c === 45) return 1 << 28; // _ -
  if (c === 47) return 1 << 29; // /
  if (c > 127) return 1 << 30; // anything non-ASCII
  return 1 << 31; // other ASCII
}

export function maskOf(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) mask |= charBit(lower.charCodeAt(i));
  return mask;
}

export function baseStartOf(path: string): number {
  return path.lastIndexOf('/') + 1;
}


/** Lower-case code unit stored for characters beyond Latin-1: never equal to an ASCII query char. */
export const WIDE = 0xff;

export class PathSnapshot {
  private constructor(
    readonly paths: readonly string[],
    /** Start of path i in `chars`/`bonus`; `offsets[n]` is the end. */
    readonly offsets: Uint32Array,
    /** Lower-case code units of all paths, concatenated (Latin-1; WIDE for anything beyond). */
    readonly chars: Uint8Array,
    /** Word-start bonus of every character (from the original case). */
    readonly bonus: Uint8Array,
    /** Basename start within path i. */
    readonly baseStart: Uint16Array,
    readonly mask: Int32Array,
    /** Character mask of the basename alone. */
    readonly nameMask: Int32Array,
    /** Paths with characters beyond Latin-1 (scanned as strings when the query is not ASCII). */
    readonly wide: Uint8Array,
    /** Increases with every snapshot; search caches are keyed by it. */
    readonly generation: number,
  ) {}

  private static nextGeneration = 1;

  get size(): number {
    return this.paths.length;
  }

  static empty(): PathSnapshot {
    return PathSnapshot.build([]);
  }

  /** Builds synchronously (≈100 ms for 115k paths). Duplicates are dropped. */
  static build(input: readonly string[]): PathSnapshot {
    const it = PathSnapshot.buildSteps(input, Infinity);
    for (;;) {
      const r = it.next();
      if (r.done) return r.value;
    }
  }

  /**
   * Builds in slices of `slice` paths, yielding between them so a caller can build in the
   * background without blocking the event loop (see FolderIndex.rebuild).
   */
  static *buildSteps(input: readonly string[], slice = 8192): Generator<void, PathSnapshot, void> {
    let sorted: string[] | undefined;
    for (let i = 1; i < input.length; i++) {
      if (!(input[i - 1] < input[i])) {
        sorted = Array.from(new Set(input)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        break;
      }
    }
    sorted ??= input.slice();
    const n = sorted.length;
    let total = 0;
    for (let i = 0; i < n; i++) total += sorted[i].length;
    const offsets = new Uint32Array(n + 1);
    const chars = new Uint8Array(total);
    const bonus = new Uint8Array(total);
    const baseStart = new Uint16Array(n);
    const mask = new Int32Array(n);
    const nameMask = new Int32Array(n);
    const wide = new Uint8Array(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const p = sorted[i];
      const l = p.toLowerCase();
      offsets[i] = at;
      // toLowerCase keeps the length for all but a few exotic characters; those paths are "wide".
      const sameLength = l.length === p.length;
      let m = 0;
      for (let k = 0; k < p.length; k++) {
        let c = sameLength ? l.charCodeAt(k) : p.charCodeAt(k);
        if (!sameLength && c >= 65 && c <= 90) c += 32;
        chars[at + k] = c > 0xff ? WIDE : c;
        bonus[at + k] = boundaryBonus(p, k);
        m |= charBit(c);
        if (c > 0x7f) wide[i] = 1;
      }
      if (!sameLength) wide[i] = 1;
      mask[i] = m;
      const bs = baseStartOf(p);
      baseStart[i] = Math.min(bs, 0xffff);
      let nm = 0;
      for (let k = at + bs; k < at + p.length; k++) nm |= charBit(chars[k]);
      nameMask[i] = nm;
      at += p.length;
      if (i % slice === slice - 1) yield;
    }
    offsets[n] = at;
    return new PathSnapshot(sorted, offsets, chars, bonus, baseStart, mask, nameMask, wide, PathSnapshot.nextGeneration++);
  }

  /** Index of `path`, or -(insertion point) - 1. */
  find(path: string): number {
    let lo = 0;
    let hi = this.paths.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.paths[mid];
      if (p < path) lo = mid + 1;
      else if (p > path) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  has(path: string): boolean {
    return this.find(path) >= 0;
  }

  /** Does any path lie under directory `dir` (no trailing slash)? */
  hasUnder(dir: string): boolean {
    const prefix = dir + '/';
    const i = this.find(prefix);
    const at = i >= 0 ? i : -i - 1;
    return at < this.paths.length && this.paths[at].startsWith(prefix);
  }
}
