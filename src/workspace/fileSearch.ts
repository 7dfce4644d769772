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
// Steps 1–3 over a big snapshot run in the scan workers, one part each, and their lists are merged
// (`search`, decision 500); elsewhere they run here as a generator, so the async driver can stop
// between slices when the search is cancelled or superseded, and yield to the event loop.
import type { FileIndex, Folder } from './fileIndex';
import { baseStartOf, type PathSnapshot } from './pathSnapshot';
import { bestAlignment, normalizeScore, quickScore, toRanges } from './fuzzyScore';
import { FilterCache, type PreparedFilter, type SearchFilters } from './searchFilters';
import { lowerSameLength, normalizeQuery } from './searchText';
import { originalPositions } from './composedNames';
import { scanQueryOf, scanSnapshot, ScanState, type ScanQuery } from './folderScan';
import { runInSlices, runToEnd, type StopToken } from './runSteps';
import { PARALLEL_MIN_PATHS, ScanPool, type PartResult } from './scanPool';
import { TopHeap } from './topHeap';

export { lowerSameLength, normalizeQuery } from './searchText';

export type SearchScope = 'workspace' | 'project' | 'global';

export interface SearchRequest {
  query: string;
  /** Default 20, at most 50 (§16.1.1). */
  max_results?: number;
  scope?: SearchScope;
  filters?: SearchFilters;
  /**
   * Whose typing this is (a master's connection): a newer search of the same lane stops the one the
   * scan workers still run for it (the same picker's next keystroke); another lane's is not stopped,
   * so two masters typing at once both get their answers (decision 558). Default: one lane.
   */
  lane?: string;
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

/** How a caller cancels a search (the picker closed, a newer keystroke: §16.1.3). */
export type CancelToken = StopToken;

export const DEFAULT_MAX_RESULTS = 20;
export const MAX_RESULTS = 50;
/** Work done here between two event-loop turns, ms. */
const SLICE_BUDGET_MS = 6;
/**
 * How many quick-score leaders get the exact DP score. The quick score is a lower bound, so a file
 * whose exact score would put it in the top results must be among these; 10× the default page is
 * generous (measured: recall@5 in `npm run bench:search`) and keeps the upper-bound pruning sharp.
 */
export const DEFAULT_LEADERS = 20;

export function clampMax(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_MAX_RESULTS;
  return Math.max(1, Math.min(MAX_RESULTS, Math.floor(n)));
}


export { PARALLEL_MIN_PATHS } from './scanPool';

export interface FileSearcherOptions {
  /** Snapshots at least this big are scanned in the worker pool by `search` (default PARALLEL_MIN_PATHS). */
  parallelMin?: number;
  /** The pool to scan in; `null`: never (default: the process's pool, where it has one). */
  pool?: ScanPool | null;
}

/** Per-folder state kept between keystrokes. */
class FolderSearchState {
  readonly scan = new ScanState();
  readonly filters = new FilterCache();
  /** The snapshot generation the last search saw (a newer one makes the workers drop the old). */
  generation = 0;
}

/** One request's query, the folders it covers and what the scans collect. */
class Gather {
  readonly heap: TopHeap;
  // Heap refs point into these parallel lists (no object per candidate).
  readonly refFolder: Folder[] = [];
  readonly refPath: string[] = [];
  total = 0;
  constructor(
    readonly q: string,
    readonly query: ScanQuery,
    readonly max: number,
    readonly folders: Folder[],
    readonly multi: boolean,
    cap: number,
  ) {
    this.heap = new TopHeap(cap);
  }
  ref(folder: Folder, path: string): number {
    this.refFolder.push(folder);
    this.refPath.push(path);
    return this.refPath.length - 1;
  }
}

/**
 * A searcher bound to one index. Keep one per picker/session so that keystrokes narrow the
 * previous keystroke's survivors.
 */
export class FileSearcher {
  private readonly states = new WeakMap<Folder, FolderSearchState>();
  private readonly parallelMin: number;
  private readonly pool: ScanPool | undefined;
  /** Per lane, the cancel flag of the search the workers run for it now (set when a newer one of that lane starts). */
  private readonly running = new Map<string, Int32Array>();
  /** Snapshot generations this searcher had the workers scan (let go of by `release`). */
  private readonly sent = new Set<number>();

  constructor(
    private readonly index: FileIndex,
    private readonly leaders = DEFAULT_LEADERS,
    options: FileSearcherOptions = {},
  ) {
    this.parallelMin = options.parallelMin ?? PARALLEL_MIN_PATHS;
    this.pool = ScanPool.chosen(options.pool);
  }

  private stateOf(folder: Folder): FolderSearchState {
    let s = this.states.get(folder);
    if (!s) this.states.set(folder, (s = new FolderSearchState()));
    const generation = folder.index.snapshot.generation;
    if (s.generation !== generation) {
      if (s.generation !== 0 && this.sent.delete(s.generation)) this.pool?.drop(s.generation);
      s.generation = generation;
    }
    return s;
  }

  /** The workers let go of every snapshot this searcher had them scan (the index is disposed). */
  release(): void {
    for (const generation of this.sent) this.pool?.drop(generation);
    this.sent.clear();
  }

  /** Folders a scope covers: `project` is the session's own folder (the first one). */
  foldersFor(scope: SearchScope | undefined): Folder[] {
    return scope === 'project' ? this.index.folders.slice(0, 1) : this.index.folders;
  }

  /** Runs to completion synchronously, in this thread (CLI, tests). */
  searchSync(request: SearchRequest): SearchResult {
    return runToEnd(this.steps(request));
  }

  /**
   * The product's search: big snapshots are scanned in the worker pool (this thread only merges),
   * the rest in slices here — between slices it checks `token` and, after `budgetMs` of work,
   * yields to the event loop so other messages (a newer keystroke, a cancel) are seen. Resolves
   * undefined when cancelled. Identical results either way (TopHeap's total order).
   */
  async search(request: SearchRequest, token: CancelToken, budgetMs = SLICE_BUDGET_MS): Promise<SearchResult | undefined> {
    if (this.pool?.usable && this.foldersFor(request.scope).some((f) => f.index.snapshot.size >= this.parallelMin)) {
      try {
        return await this.searchInWorkers(request, token, this.pool);
      } catch {
        // A worker failed (the pool is unusable from now on): this search, and the next ones, scan here.
      }
    }
    // Its arrays go back however it ends: a cancel ends the generator, which runs its `finally`.
    return runInSlices(this.steps(request), budgetMs, token);
  }

  private gather(request: SearchRequest): Gather {
    const typed = normalizeQuery(request.query);
    const max = clampMax(request.max_results);
    // Multi-root: a query led by a folder's name as the picker shows it (`ws2/src/main`) searches
    // that folder for the rest (the paths hold no folder name to match; the picker trial).
    const all = this.foldersFor(request.scope);
    const named = all.length > 1 ? folderNamed(all, typed) : undefined;
    const q = named ? named.rest : typed;
    return new Gather(q, scanQueryOf(q), max, named ? [named.folder] : all, this.index.folders.length > 1, Math.max(this.leaders, max));
  }

  private *steps(request: SearchRequest): Generator<void, SearchResult, void> {
    const g = this.gather(request);
    let tieBase = 0;
    for (const folder of g.folders) {
      const snap = folder.index.snapshot;
      const state = this.stateOf(folder);
      const filter = yield* state.filters.prepareSteps(snap, request.filters);
      g.total += yield* this.scanHere(g, folder, state, filter?.pass, tieBase);
      tieBase = this.scanOverlay(g, folder, filter, tieBase + snap.size);
      yield;
    }
    return this.finish(g);
  }

  /** `search` with the big snapshots' scans in the worker pool; rejects when a worker failed. */
  private async searchInWorkers(request: SearchRequest, token: CancelToken, pool: ScanPool): Promise<SearchResult | undefined> {
    const g = this.gather(request);
    // A first filtered search tests every path: in slices, between event-loop turns.
    const states = g.folders.map((folder) => this.stateOf(folder));
    const filters: (PreparedFilter | undefined)[] = [];
    for (let f = 0; f < g.folders.length; f++) {
      filters.push(await runInSlices(states[f].filters.prepareSteps(g.folders[f].index.snapshot, request.filters), SLICE_BUDGET_MS));
      if (token.cancelled) return undefined;
    }
    // A newer keystroke makes the one the workers are scanning useless: they stop between slices.
    const lane = request.lane ?? '';
    const older = this.running.get(lane);
    if (older) Atomics.store(older, 0, 1);
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    this.running.set(lane, cancel);
    const merges: Promise<void>[] = [];
    let tieBase = 0;
    g.folders.forEach((folder, f) => {
      const idx = folder.index;
      const snap = idx.snapshot;
      const pass = filters[f]?.pass;
      const base = tieBase;
      if (snap.size >= this.parallelMin) {
        this.sent.add(snap.generation);
        const scanned = pool.scan(snap, { q: g.q, cap: g.heap.cap, pass, dead: idx.deadSet(), cancel });
        merges.push(scanned.then((parts) => (parts === undefined ? Promise.reject(cancelled) : mergeParts(g, folder, snap, base, parts))));
      } else {
        // Small: scanned here at once (a fraction of a millisecond).
        g.total += runToEnd(this.scanHere(g, folder, states[f], pass, base));
      }
      tieBase = this.scanOverlay(g, folder, filters[f], tieBase + snap.size);
    });
    // The caller's cancel (the picker closed, §16.1.3) stops the workers too.
    const watch = setInterval(() => {
      if (token.cancelled) Atomics.store(cancel, 0, 1);
    }, 2);
    watch.unref?.();
    try {
      await Promise.all(merges);
    } catch (e) {
      if (e === cancelled) return undefined;
      throw e;
    } finally {
      clearInterval(watch);
      if (this.running.get(lane) === cancel) this.running.delete(lane);
    }
    return token.cancelled ? undefined : this.finish(g);
  }

  /** One folder's whole snapshot scanned in this thread, into the request's list. */
  private scanHere(g: Gather, folder: Folder, state: FolderSearchState, pass: Uint8Array | undefined, tieBase: number): Generator<void, number, void> {
    const snap = folder.index.snapshot;
    return scanSnapshot(state.scan, snap, g.query, { lo: 0, hi: snap.size }, pass, folder.index.liveTest(), { heap: g.heap, tieBase, onPush: (i) => g.ref(folder, snap.pathAt(i)) });
  }

  /** The overlay: files added since the snapshot, their ties from `tieBase` on. Returns the next folder's tie base. */
  private scanOverlay(g: Gather, folder: Folder, filter: PreparedFilter | undefined, tieBase: number): number {
    const { q, heap } = g;
    const qm = g.query.qm;
    const test = filter?.test;
    let tie = tieBase;
    for (const e of folder.index.added.values()) {
      const t = tie++;
      if ((e.mask & qm) !== qm) continue;
      if (test && !test(e.lower, e.path)) continue;
      const score = q.length === 0 ? 0 : quickScore(e.path, e.lower, e.baseStart, q);
      if (score !== score) continue;
      g.total++;
      if (heap.admits(score, t)) heap.push(score, t, g.ref(folder, e.path));
    }
    return tie;
  }

  /** Exact scores and positions for the leaders; sorted and cut to the page. */
  private finish(g: Gather): SearchResult {
    const { heap, q, max } = g;
    const hits: SearchHit[] = [];
    for (let h = 0; h < heap.size; h++) {
      const key = g.refPath[heap.refs[h]];
      const folder = g.refFolder[heap.refs[h]];
      const a = bestAlignment(key, lowerSameLength(key), baseStartOf(key), q);
      if (!a) continue;
      const prefix = g.multi ? `${folder.name}/` : '';
      // Indexed composed, given back as named on disk (composedNames.ts), its highlight with it.
      const path = folder.index.original(key);
      hits.push({
        folder,
        rel: path,
        path: prefix + path,
        score: a.score,
        match_score: normalizeScore(a.score, q.length),
        match_ranges: toRanges(path === key ? a.positions : originalPositions(path, key, a.positions), prefix.length),
      });
    }
    hits.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { hits: hits.slice(0, max), total_count: g.total, truncated: g.total > max };
  }
}

/** Rejection of a merge whose scan the workers stopped (a newer keystroke superseded it). */
const cancelled = new Error('superseded');

/** One folder's parts into the request's list (any order: the heap's order is total). */
function mergeParts(g: Gather, folder: Folder, snap: PathSnapshot, tieBase: number, parts: PartResult[]): void {
  for (const part of parts) {
    g.total += part.total;
    for (let j = 0; j < part.ids.length; j++) {
      const tie = tieBase + part.ids[j];
      if (g.heap.admits(part.scores[j], tie)) g.heap.push(part.scores[j], tie, g.ref(folder, snap.pathAt(part.ids[j])));
    }
  }
}

/** The folder a multi-root query names first (`ws2/…`, compared as the query is: lower case) and the rest of the query. */
function folderNamed(folders: readonly Folder[], q: string): { folder: Folder; rest: string } | undefined {
  const slash = q.indexOf('/');
  if (slash <= 0 || slash === q.length - 1) return undefined;
  const head = q.slice(0, slash);
  const folder = folders.find((f) => lowerSameLength(f.name) === head);
  return folder ? { folder, rest: q.slice(slash + 1) } : undefined;
}
