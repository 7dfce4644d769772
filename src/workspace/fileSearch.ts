// Fuzzy search over a FileIndex: the ranking half of §16.1.
//
// Per keystroke, per folder:
//  1. candidates = the previous keystroke's survivors when the query only grew (prefix narrowing),
//     else the whole snapshot;
//  2. a 32-bit character-mask test rejects most paths without reading them;
//  3. `quickScore` (one right-to-left pass) tests the subsequence and gives a lower-bound score;
//     the best TOP_N by it go on, everything that matched is counted for `total_count`;
//  4. `bestAlignment` (DP) gives the final score and the match positions of those TOP_N;
//  5. sort, cut to `max_results`.
// The scan runs as a generator so the async driver can stop between slices when the search is
// cancelled or superseded, and yield to the event loop on long scans.
import type { FileIndex, Folder } from './fileIndex';
import { baseStartOf, type PathSnapshot } from './pathSnapshot';
import { LENGTH_PENALTY, bestAlignment, normalizeScore, quickScore, toRanges } from './fuzzyScore';
import { quickBonusCaps, quickBonusMax, quickScoreBound } from './quickBound';
import { FilterCache, type SearchFilters } from './searchFilters';
import { lowerSameLength, normalizeQuery, queryMask } from './searchText';
import { scanSlice, scoreDeferred, type Scan } from './snapshotScan';
import { ScanBuffers, type SurvivorArrays } from './scanBuffers';
import { TopHeap } from './topHeap';

export { lowerSameLength, normalizeQuery } from './searchText';

export type SearchScope = 'workspace' | 'project' | 'global';

export interface SearchRequest {
  query: string;
  /** Default 20, at most 50 (§16.1.1). */
  max_results?: number;
  scope?: SearchScope;
  filters?: SearchFilters;
}

export interface SearchHit {
  folder: Folder;
  /** Path relative to its folder. */
  rel: string;
  /** Path as shown and sent: `rel`, or `name/rel` when the workspace has several folders. */
  path: string;
  score: number;
  /** 0.0–1.0 */
  match_score: number;
  /** Half-open ranges into `path`. */
  match_ranges: { start: number; end: number }[];
}

export interface SearchResult {
  hits: SearchHit[];
  total_count: number;
  truncated: boolean;
}

export interface CancelToken {
  readonly cancelled: boolean;
}

export const DEFAULT_MAX_RESULTS = 20;
export const MAX_RESULTS = 50;
/**
 * How many quick-score leaders get the exact DP score. The quick score is a lower bound, so a file
 * whose exact score would put it in the top results must be among these; 10× the default page is
 * generous (measured: recall@5 in `npm run bench:search`) and keeps the upper-bound pruning sharp.
 */
export const DEFAULT_LEADERS = 20;
const SLICE = 4096;

export function clampMax(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_MAX_RESULTS;
  return Math.max(1, Math.min(MAX_RESULTS, Math.floor(n)));
}


/** Survivors of the last query per folder, for prefix narrowing. */
interface NarrowCache {
  generation: number;
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

/** Per-folder state kept between keystrokes. */
class FolderSearchState {
  narrow: NarrowCache | undefined;
  readonly filters = new FilterCache();
  readonly buffers = new ScanBuffers();
}

/**
 * A searcher bound to one index. Keep one per picker/session so that keystrokes narrow the
 * previous keystroke's survivors.
 */
export class FileSearcher {
  private readonly states = new WeakMap<Folder, FolderSearchState>();

  constructor(
    private readonly index: FileIndex,
    private readonly leaders = DEFAULT_LEADERS,
  ) {}

  private stateOf(folder: Folder): FolderSearchState {
    let s = this.states.get(folder);
    if (!s) this.states.set(folder, (s = new FolderSearchState()));
    return s;
  }

  /** Folders a scope covers: `project` is the session's own folder (the first one). */
  foldersFor(scope: SearchScope | undefined): Folder[] {
    return scope === 'project' ? this.index.folders.slice(0, 1) : this.index.folders;
  }

  /** Runs to completion synchronously (CLI, benchmarks). */
  searchSync(request: SearchRequest): SearchResult {
    const steps = this.steps(request);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /**
   * Runs in slices; between slices checks `token` and, after `budgetMs` of work, yields to the
   * event loop so other messages (a newer keystroke, a cancel) are seen. Resolves undefined when
   * cancelled.
   */
  async search(request: SearchRequest, token: CancelToken, budgetMs = 6): Promise<SearchResult | undefined> {
    const steps = this.steps(request);
    let sliceStart = performance.now();
    for (;;) {
      if (token.cancelled) {
        steps.return(undefined as never); // runs its `finally`: the scan's arrays go back
        return undefined;
      }
      const r = steps.next();
      if (r.done) return token.cancelled ? undefined : r.value;
      if (performance.now() - sliceStart > budgetMs) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  private *steps(request: SearchRequest): Generator<void, SearchResult, void> {
    const q = normalizeQuery(request.query);
    const m = q.length;
    const max = clampMax(request.max_results);
    const folders = this.foldersFor(request.scope);
    const multi = this.index.folders.length > 1;
    const heap = new TopHeap(Math.max(this.leaders, max));
    // Heap refs point into these parallel lists (no object per candidate).
    const refFolder: Folder[] = [];
    const refPath: string[] = [];
    let total = 0;
    const qm = queryMask(q);
    const qb = new Uint8Array(m);
    let needStrings = false; // a query character beyond Latin-1 can only match "wide" paths
    for (let k = 0; k < m; k++) {
      const c = q.charCodeAt(k);
      qb[k] = c;
      if (c >= 0xff) needStrings = true;
    }
    for (const folder of folders) {
      const idx = folder.index;
      const snap = idx.snapshot;
      const state = this.stateOf(folder);
      const pass = state.filters.prepare(snap, request.filters);
      const test = state.filters.test;
      const onPush = (i: number): number => {
        refFolder.push(folder);
        refPath.push(snap.pathAt(i));
        return refPath.length - 1;
      };
      total += yield* scanSnapshot(state, snap, { q, qb, qm, needStrings }, pass, idx.deleted.size > 0 || idx.deletedDirs.length > 0 ? (i) => idx.isLive(i) : undefined, heap, onPush);
      // The overlay: files added since the snapshot.
      for (const e of idx.added.values()) {
        if ((e.mask & qm) !== qm) continue;
        if (test && !test(e.lower, e.path)) continue;
        const score = m === 0 ? 0 : quickScore(e.path, e.lower, e.baseStart, q);
        if (score !== score) continue;
        total++;
        if (score > heap.floor) {
          refFolder.push(folder);
          refPath.push(e.path);
          heap.push(score, refPath.length - 1);
        }
      }
      yield;
    }
    // Exact scores and positions for the leaders.
    const hits: SearchHit[] = [];
    for (let h = 0; h < heap.size; h++) {
      const path = refPath[heap.refs[h]];
      const folder = refFolder[heap.refs[h]];
      const a = bestAlignment(path, lowerSameLength(path), baseStartOf(path), q);
      if (!a) continue;
      const prefix = multi ? `${folder.name}/` : '';
      hits.push({
        folder,
        rel: path,
        path: prefix + path,
        score: a.score,
        match_score: normalizeScore(a.score, m),
        match_ranges: toRanges(a.positions, prefix.length),
      });
    }
    hits.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { hits: hits.slice(0, max), total_count: total, truncated: total > max };
  }
}

/** The query as the scan reads it. */
interface ScanQuery {
  q: string;
  qb: Uint8Array;
  qm: number;
  needStrings: boolean;
}

/**
 * One folder's snapshot: candidates (the previous keystroke's survivors when the query only grew),
 * the scan in slices, then the deferred matches; stores the survivors for the next keystroke.
 * Returns how many matches passed the filters. Its arrays go back to the folder's pool however it
 * ends (finished, or dropped by a cancelled search: `return()` runs the `finally`).
 */
function* scanSnapshot(state: FolderSearchState, snap: PathSnapshot, query: ScanQuery, pass: Uint8Array | undefined, live: ((i: number) => boolean) | undefined, heap: TopHeap, onPush: (i: number) => number): Generator<void, number, void> {
  const { q, qb, qm, needStrings } = query;
  const m = q.length;
  const prev = state.narrow;
  const narrowed = prev !== undefined && prev.generation === snap.generation && m > 0 && q.startsWith(prev.q);
  const count = narrowed && prev.ids !== undefined ? prev.ids.length : snap.size;
  // One letter: the mask bit is exact for a–z, so containment needs no byte read, and the
  // survivors need not be stored (the next keystroke's mask test selects them again).
  const maskExact = !narrowed && m === 1 && qb[0] >= 97 && qb[0] <= 122;
  const taken = state.buffers.take(maskExact ? 0 : count, count);
  let finished = false;
  try {
    const scan: Scan = {
      snap,
      q,
      qb,
      qm,
      needStrings,
      ids: narrowed ? prev.ids : undefined,
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
      onPush,
    };
    for (let start = 0; start < count; start += SLICE) {
      const end = Math.min(count, start + SLICE);
      scanSlice(scan, start, end);
      if (end < count) yield;
    }
    // Second phase: the deferred matches, against the floor the promising ones raised (skipped
    // when even the best a deferred match could score is below it). A match is at least m
    // characters long; a deferred one gets no name boost.
    const deferredCeiling = quickScoreBound(m, 0, m, true, false, quickBonusMax(quickBonusCaps(qb))) - m * LENGTH_PENALTY;
    for (let start = 0; start < scan.nDeferred && !(heap.size === heap.cap && heap.scores[0] >= deferredCeiling); start += SLICE) {
      scoreDeferred(scan, start, Math.min(scan.nDeferred, start + SLICE));
      yield;
    }
    const replaced = state.narrow?.arrays;
    const kept = maskExact ? undefined : { ids: scan.survivors, ends: scan.ends };
    state.narrow = {
      generation: snap.generation,
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

