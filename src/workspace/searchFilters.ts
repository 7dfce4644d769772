// The request filters of §16.1.1 (`extensions`, `exclude_patterns`) as a per-snapshot pass mask,
// computed once per snapshot and filter set so a keystroke only reads one byte per path.
import { compileExcludes } from './excludeGlobs';
import type { PathSnapshot } from './pathSnapshot';
import { lowerSameLength } from './searchText';

export interface SearchFilters {
  extensions?: readonly string[];
  exclude_patterns?: readonly string[];
}

/** Which snapshot entries pass the request's filters; cached per snapshot and filter set. */
export class FilterCache {
  private key = '';
  private snap: PathSnapshot | undefined;
  private pass: Uint8Array | undefined;
  test: ((lowerPath: string, path: string) => boolean) | undefined;

  prepare(snap: PathSnapshot, filters: SearchFilters | undefined): Uint8Array | undefined {
    const exts = (filters?.extensions ?? []).filter((e) => e.length > 0).map((e) => (e.startsWith('.') ? e : '.' + e).toLowerCase());
    const globs = (filters?.exclude_patterns ?? []).filter((g) => g.length > 0);
    if (exts.length === 0 && globs.length === 0) {
      this.test = undefined;
      return undefined;
    }
    const key = JSON.stringify([exts, globs]);
    if (key !== this.key) {
      // One linear-time matcher for every pattern, compiled once per filter set (issue 12 #11).
      const excluded = compileExcludes(globs);
      this.test = (lower, path) => (exts.length === 0 || exts.some((e) => lower.endsWith(e))) && !(excluded?.test(path) ?? false);
      this.key = key;
      this.snap = undefined;
    }
    if (this.snap !== snap || !this.pass) {
      const test = this.test as (l: string, p: string) => boolean;
      const pass = new Uint8Array(snap.size);
      for (let i = 0; i < snap.size; i++) {
        const path = snap.pathAt(i);
        pass[i] = test(lowerSameLength(path), path) ? 1 : 0;
      }
      this.pass = pass;
      this.snap = snap;
    }
    return this.pass;
  }
}
