// The request filters of §16.1.1 (`extensions`, `exclude_patterns`) as a per-snapshot pass mask,
// computed once per snapshot and filter set so a keystroke only reads one byte per path.
import { compileExcludes } from './excludeGlobs';
import type { PathSnapshot } from './pathSnapshot';
import { lowerSameLength } from './searchText';

export interface SearchFilters {
  extensions?: readonly string[];
  exclude_patterns?: readonly string[];
}

type PathTest = (lowerPath: string, path: string) => boolean;

/** A request's filters made ready: the snapshot's pass mask, and the test for paths added since. */
export interface PreparedFilter {
  pass: Uint8Array;
  test: PathTest;
}

/** Which snapshot entries pass the request's filters; cached per snapshot and filter set. */
export class FilterCache {
  private key = '';
  private snap: PathSnapshot | undefined;
  private pass: Uint8Array | undefined;
  private test: PathTest | undefined;

  /**
   * The pass mask in steps of SLICE paths: a first filtered search over 460k paths tests every one
   * of them (rebuilding its string, running the globs) — half a second in one piece, so it is
   * sliced like the scan. Undefined when the request has no filters.
   */
  *prepareSteps(snap: PathSnapshot, filters: SearchFilters | undefined): Generator<void, PreparedFilter | undefined, void> {
    const exts = (filters?.extensions ?? []).filter((e) => e.length > 0).map((e) => (e.startsWith('.') ? e : '.' + e).toLowerCase());
    const globs = (filters?.exclude_patterns ?? []).filter((g) => g.length > 0);
    if (exts.length === 0 && globs.length === 0) return undefined;
    const key = JSON.stringify([exts, globs]);
    if (key !== this.key) {
      // One linear-time matcher for every pattern, compiled once per filter set (issue 12 #11).
      const excluded = compileExcludes(globs);
      this.test = (lower, path) => (exts.length === 0 || exts.some((e) => lower.endsWith(e))) && !(excluded?.test(path) ?? false);
      this.key = key;
      this.snap = undefined;
    }
    const test = this.test as PathTest;
    if (this.snap !== snap || !this.pass) {
      // Shared memory: the scan workers read the same mask (decision 500).
      const pass = new Uint8Array(new SharedArrayBuffer(snap.size));
      for (let from = 0; from < snap.size; from += SLICE) {
        fillPass(pass, snap, test, from, Math.min(snap.size, from + SLICE));
        if (from + SLICE < snap.size) yield;
      }
      // Kept only once whole (a search dropped halfway leaves nothing half-made behind).
      if (this.key !== key) return { pass, test };
      this.pass = pass;
      this.snap = snap;
    }
    return { pass: this.pass, test };
  }
}

const SLICE = 2048;

/** A plain function for the loop (V8 optimizes loops in generators poorly). */
function fillPass(pass: Uint8Array, snap: PathSnapshot, test: PathTest, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const path = snap.pathAt(i);
    pass[i] = test(lowerSameLength(path), path) ? 1 : 0;
  }
}
