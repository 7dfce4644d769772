// The live path index of ONE workspace folder: an immutable PathSnapshot plus a small overlay of
// additions and deletions that watcher batches write into. Applying a batch is a few binary
// searches and Set/Map operations (well under 1 ms); when the overlay grows or goes quiet, a new
// snapshot is built in slices in the background and swapped in, replaying changes that arrived
// meanwhile. Searches see the snapshot minus deletions plus additions, so a file created or deleted
// is visible to the very next keystroke.
import { PathSnapshot, baseStartOf, maskOf } from './pathSnapshot';
import type { DeadSet } from './scanProtocol';
import { PARALLEL_MIN_PATHS, ScanPool } from './scanPool';
import { nextTurn } from './bytesInTurns';
import { lowerSameLength } from './searchText';
import { composedKey, composedKeys, composedKeysNow } from './composedNames';

/** A path added since the snapshot was built, prepared like a snapshot entry. */
export interface OverlayEntry {
  path: string;
  lower: string;
  baseStart: number;
  mask: number;
}

export type FolderChange = { kind: 'addFile'; path: string } | { kind: 'remove'; path: string };

export interface FolderIndexOptions {
  /** Overlay size that triggers a rebuild right away. */
  rebuildThreshold?: number;
  /** Quiet time after the last change before the overlay is folded into a new snapshot. */
  rebuildDelayMs?: number;
  /** The scan workers a big folder starts while it is indexed (default: the process's pool; null: none). */
  scanPool?: ScanPool | null;
}

export function overlayEntry(path: string): OverlayEntry {
  const lower = lowerSameLength(path); // the snapshot's match form (accents folded), not plain lower case
  return { path, lower, baseStart: baseStartOf(path), mask: maskOf(lower) };
}

export class FolderIndex {
  private snap: PathSnapshot;
  /** Additions not in the snapshot (or re-created under a deleted directory). */
  readonly added = new Map<string, OverlayEntry>();
  /** Snapshot paths deleted since it was built. */
  readonly deleted = new Set<string>();
  /** The same, as snapshot indices (the scan asks by index and must not rebuild strings). */
  private readonly deletedIds = new Set<number>();
  /** Snapshot directories deleted as a whole (with trailing `/`). */
  deletedDirs: string[] = [];
  /** Their snapshot index ranges (a directory is a contiguous range of the sorted snapshot). */
  private deletedRanges: { start: number; end: number }[] = [];
  /** Bumped on every applied change (search caches of the overlay depend on it). */
  version = 0;
  private rebuildTimer: ReturnType<typeof setTimeout> | undefined;
  private rebuilding: FolderChange[] | undefined;
  private disposed = false;
  /** Bumped by replaceAll, so a background rebuild of the old listing never swaps in over it. */
  private epoch = 0;
  private readonly threshold: number;
  private readonly delay: number;
  /** Paths are indexed composed (composedNames.ts); the names on disk of those stored otherwise. */
  private originals = new Map<string, string>();

  constructor(
    paths: readonly string[],
    options: FolderIndexOptions = {},
    snapshot?: PathSnapshot,
    originals?: Map<string, string>,
  ) {
    if (originals) this.originals = originals;
    this.snap = snapshot ?? PathSnapshot.build(composedKeysNow(paths, this.originals));
    this.threshold = options.rebuildThreshold ?? 1024;
    this.delay = options.rebuildDelayMs ?? 2000;
  }

  /** Builds the snapshot in the background (slices of a few ms), then the index. */
  static async create(paths: readonly string[], options: FolderIndexOptions = {}): Promise<FolderIndex> {
    // A folder the scan workers will search: they start while its snapshot is built, and warm up
    // once it is (decision 522: warming during the build starves it on two cores).
    const pool = paths.length >= PARALLEL_MIN_PATHS ? ScanPool.chosen(options.scanPool) : undefined;
    if (pool && !pool.started) {
      pool.startEarly();
      await nextTurn(); // starting the workers and the build's first slice are two blocks, not one
    }
    const originals = new Map<string, string>();
    const snapshot = await PathSnapshot.buildAsync(await composedKeys(paths, originals, nextTurn));
    pool?.warmUp();
    return new FolderIndex([], options, snapshot, originals);
  }

  get snapshot(): PathSnapshot {
    return this.snap;
  }

  get overlaySize(): number {
    return this.added.size + this.deleted.size + this.deletedDirs.length;
  }

  /** The snapshot entries deleted since it was built, for a scan worker (undefined: none). */
  deadSet(): DeadSet | undefined {
    if (this.deletedIds.size === 0 && this.deletedRanges.length === 0) return undefined;
    return { ids: Int32Array.from(this.deletedIds), ranges: Int32Array.from(this.deletedRanges.flatMap((r) => [r.start, r.end])) };
  }

  /** `isLive` for a scan, or undefined while nothing in the snapshot was deleted (every path is live). */
  liveTest(): ((i: number) => boolean) | undefined {
    return this.deleted.size > 0 || this.deletedDirs.length > 0 ? (i) => this.isLive(i) : undefined;
  }

  /** Is snapshot path `i` still there (not deleted since the snapshot)? */
  isLive(i: number): boolean {
    if (this.deletedIds.has(i)) return false;
    for (const r of this.deletedRanges) if (i >= r.start && i < r.end) return false;
    return true;
  }

  private maskedByDir(path: string): boolean {
    for (const d of this.deletedDirs) if (path.startsWith(d)) return true;
    return false;
  }

  /** Does the index currently list `path`? */
  has(name: string): boolean {
    return this.hasKey(name) || this.hasKey(composedKey(name));
  }

  /** Every listed path, as named on disk. */
  allPaths(): string[] {
    const keys = this.allKeys();
    return this.originals.size === 0 ? keys : keys.map((k) => this.original(k));
  }

  /** A path as indexed (a search hit's) → the name on disk. */
  original(key: string): string {
    return this.originals.get(key) ?? key;
  }

  /** Every listed path as indexed (for rebuilds). */
  private allKeys(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.snap.size; i++) if (this.isLive(i)) out.push(this.snap.pathAt(i));
    for (const p of this.added.keys()) out.push(p);
    return out;
  }

  get size(): number {
    let n = this.added.size;
    for (let i = 0; i < this.snap.size; i++) if (this.isLive(i)) n++;
    return n;
  }

  /** Applies a batch synchronously. `remove` of a directory removes everything under it. */
  apply(changes: readonly FolderChange[]): void {
    if (this.disposed || changes.length === 0) return;
    for (const c of changes) this.applyOne(c);
    this.version++;
    this.rebuilding?.push(...changes);
    this.scheduleRebuild();
  }

  /** One change, its path as named on disk. */
  private applyOne(c: FolderChange): void {
    let path = this.keyOf(c.path);
    if (c.kind === 'addFile') {
      // Its composed form is listed already under another name on disk: this one keeps its own.
      if (path !== c.path && this.hasKey(path) && this.originals.get(path) !== c.path) path = c.path;
      if (path !== c.path) this.originals.set(path, c.path);
      this.addFile(path);
      return;
    }
    const key = composedKey(c.path);
    if (this.originals.get(key) === c.path) this.originals.delete(key);
    // A decomposed name listed under itself (both forms on disk), file or folder, goes by that name.
    path = key !== c.path && (this.hasKey(c.path) || this.snap.hasUnder(c.path)) ? c.path : key;
    this.remove(path);
  }

  /** The key a name on disk is listed under: composed, unless it is listed under itself. */
  private keyOf(name: string): string {
    const key = composedKey(name);
    return key === name || this.originals.get(key) === name || !this.hasKey(name) ? key : name;
  }

  private hasKey(path: string): boolean {
    if (this.added.has(path)) return true;
    return this.snap.has(path) && !this.deleted.has(path) && !this.maskedByDir(path);
  }

  private addFile(path: string): void {
    const at = this.snap.find(path);
    if (at >= 0 && !this.maskedByDir(path)) {
      this.deleted.delete(path);
      this.deletedIds.delete(at);
      return;
    }
    if (!this.added.has(path)) this.added.set(path, overlayEntry(path));
  }

  private remove(path: string): void {
    this.added.delete(path);
    const at = this.snap.find(path);
    if (at >= 0) {
      this.deleted.add(path);
      this.deletedIds.add(at);
      return;
    }
    const dir = path.endsWith('/') ? path : path + '/';
    for (const p of [...this.added.keys()]) if (p.startsWith(dir)) this.added.delete(p);
    if (this.snap.hasUnder(dir.slice(0, -1)) && !this.deletedDirs.some((d) => dir.startsWith(d))) {
      this.deletedDirs = this.deletedDirs.filter((d) => !d.startsWith(dir));
      this.deletedDirs.push(dir);
      this.deletedRanges = this.deletedDirs.map((d) => this.snap.rangeUnder(d.slice(0, -1)));
    }
  }

  /** Replaces everything with a fresh listing (after ignore rules changed), built in the background. */
  async replaceAll(paths: readonly string[]): Promise<void> {
    const epoch = ++this.epoch;
    const originals = new Map<string, string>();
    const snap = await PathSnapshot.buildAsync(await composedKeys(paths, originals, nextTurn));
    if (this.disposed || epoch !== this.epoch) return;
    this.snap = snap;
    this.originals = originals;
    this.clearOverlay();
    this.version++;
  }

  private clearOverlay(): void {
    this.added.clear();
    this.deleted.clear();
    this.deletedIds.clear();
    this.deletedDirs = [];
    this.deletedRanges = [];
  }

  private scheduleRebuild(): void {
    if (this.rebuilding || this.disposed) return;
    if (this.overlaySize >= this.threshold) {
      void this.rebuild();
      return;
    }
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer);
    this.rebuildTimer = setTimeout(() => void this.rebuild(), this.delay);
    this.rebuildTimer.unref?.();
  }

  /** Folds the overlay into a new snapshot, building it in slices between event-loop turns. */
  async rebuild(): Promise<void> {
    if (this.rebuilding || this.disposed || this.overlaySize === 0) return;
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    const replay: FolderChange[] = [];
    this.rebuilding = replay;
    try {
      const epoch = this.epoch;
      const snap = await PathSnapshot.buildAsync(this.allKeys());
      if (this.disposed || epoch !== this.epoch) return;
      this.snap = snap;
      this.clearOverlay();
      for (const c of replay) this.applyOne(c);
      this.version++;
    } finally {
      this.rebuilding = undefined;
    }
    if (this.overlaySize > 0) this.scheduleRebuild();
  }

  dispose(): void {
    this.disposed = true;
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer);
  }
}
