// The pool of @-search scan workers (decision 500). A big folder snapshot is split into one part
// per worker; each worker scans its part per keystroke (keeping that part's survivors for the
// next keystroke) and answers with its best candidates, which FileSearcher merges. The extension
// host only posts a message and merges a few dozen entries, so a keystroke never blocks it, and
// the machine's cores share the scan.
//
// Workers start on first use and are `unref`ed while idle (they never keep the host alive). Each
// receives a snapshot once — its arrays are shared memory, so nothing is copied — and drops it
// when the snapshot is replaced or collected. A worker that fails or exits makes the pool unusable:
// searches then scan in the host, as they do for small folders.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PathSnapshot } from './pathSnapshot';
import type { DeadSet, FromScanWorker, ToScanWorker, WarmUpState } from './scanProtocol';
import { NO_BAR } from './scanBars';
import type { ScanRange } from './scanRange';
import { warmTopHeap } from './topHeap';
import { workerScript } from './workerScript';

/** Snapshots this big are scanned by the worker pool (FileSearcher.search; below, a worker's round
 * trip costs more than the scan it saves). */
export const PARALLEL_MIN_PATHS = 50_000;

/** Most workers a pool starts (the scan is bound by memory bandwidth beyond a few cores). */
const MAX_WORKERS = 4;

const WORKER = workerScript(__dirname, 'scanWorker');

export interface PartResult {
  total: number;
  /** Quick scores and snapshot indices of the part's best candidates. */
  scores: Float64Array;
  ids: Int32Array;
}

/** One part's scan request (the pool adds the message id and the snapshot's generation). */
export interface PartScan {
  q: string;
  cap: number;
  pass?: Uint8Array;
  dead?: DeadSet;
  cancel: Int32Array;
}

type Pending = { resolve: (r: FromScanWorker) => void; reject: (e: Error) => void };

class PoolWorker {
  readonly pending = new Map<number, Pending>();
  /** Generations this worker holds. */
  readonly holds = new Set<number>();
  constructor(readonly worker: Worker) {}
}

export class ScanPool {
  private static instance: ScanPool | undefined | null;
  private readonly workers: PoolWorker[] = [];
  private broken = false;
  private warmUpAsked = false;
  private failedWith: string | undefined;
  private nextId = 1;
  /** Posts `drop` for snapshots collected before they were replaced explicitly. */
  private readonly collected = new FinalizationRegistry<number>((generation) => this.drop(generation));
  private readonly registered = new WeakSet<PathSnapshot>();

  private constructor(
    readonly size: number,
    private readonly workerFile: string,
  ) {}

  /** The pool an option names: the given one, none for `null`, the process's pool when left out. */
  static chosen(option: ScanPool | null | undefined): ScanPool | undefined {
    return option === null ? undefined : (option ?? ScanPool.shared());
  }

  /** A pool of its own (tests; the product shares one per process). */
  static create(size: number, workerFile = WORKER.file): ScanPool {
    return new ScanPool(size, workerFile);
  }

  /** Stops the workers (a pool of its own, when done with it). */
  async dispose(): Promise<void> {
    this.broken = true;
    await Promise.all(this.workers.splice(0).map((pw) => pw.worker.terminate()));
  }

  /** The process's pool, or undefined where a scan cannot be shared (one core, no workers). */
  static shared(): ScanPool | undefined {
    if (ScanPool.instance === undefined) {
      const n = Math.min(MAX_WORKERS, availableParallelism());
      ScanPool.instance = n >= 2 ? new ScanPool(n, WORKER.file) : null;
    }
    return ScanPool.instance ?? undefined;
  }

  /**
   * Starts the workers now, if they are not running yet: a folder this big is being indexed, and
   * the workers load their code meanwhile. They warm their scan up (scanWarmUp.ts) only once told
   * to (`warmUp`), when the index is built: on two cores, warming workers starve the build
   * (decision 522). A pool that cannot start is left unusable, as a first search would leave it.
   */
  startEarly(): void {
    if (this.broken) return;
    try {
      this.start();
    } catch {
      // `start` recorded why; searches scan in the host.
    }
  }

  /** Tells the workers (started now if they are not) to warm their scan up; once per pool. */
  warmUp(): void {
    if (this.warmUpAsked) return;
    warmTopHeap(); // the host's side of every search: merging the workers' lists
    this.startEarly();
    if (this.broken) return;
    this.warmUpAsked = true;
    for (const pw of this.workers) this.post(pw, { kind: 'warm' });
  }

  /** Where each worker's warm-up is (tests; the cold-start benchmark waits for it). */
  async warmUpStates(): Promise<WarmUpState[]> {
    this.start();
    const answers = await Promise.all(this.workers.map((pw) => this.ask(pw, (id) => ({ kind: 'warmUpState', id }))));
    return answers.map((a) => {
      if (a.kind !== 'warmUpState') throw new Error(a.kind === 'failed' ? `the search worker failed: ${a.message}` : 'unexpected answer');
      return a.state;
    });
  }

  /** Whether its workers are running. */
  get started(): boolean {
    return this.workers.length > 0;
  }

  get usable(): boolean {
    return !this.broken;
  }

  /** Why the pool became unusable (a worker failed to start, errored or exited), if it did. */
  get failure(): string | undefined {
    return this.failedWith;
  }

  /**
   * The parts of a snapshot of `n` paths, one per worker, fixed so each part keeps its survivors:
   * interleaved blocks (scanRange.ts), so every part gets its share of the directories a query's
   * matches crowd into.
   */
  parts(n: number): ScanRange[] {
    return Array.from({ length: this.size }, (_, w) => ({ lo: 0, hi: n, stride: this.size, phase: w }));
  }

  /**
   * Scans every part of `snap` (one per worker). Resolves with each part's result, or undefined
   * when the scan was cancelled; rejects when a worker failed (the pool is then unusable).
   */
  async scan(snap: PathSnapshot, request: PartScan): Promise<PartResult[] | undefined> {
    this.start();
    this.warmUp(); // a search means no build is waiting for the cores (or it waits no longer)
    if (!this.registered.has(snap)) {
      this.registered.add(snap);
      this.collected.register(snap, snap.generation);
    }
    const parts = this.parts(snap.size);
    const bars = new Int32Array(new SharedArrayBuffer(4 * parts.length * request.cap)).fill(NO_BAR);
    const answers = await Promise.all(
      parts.map((part, w) => {
        const pw = this.workers[w];
        if (!pw.holds.has(snap.generation)) {
          pw.holds.add(snap.generation);
          this.post(pw, { kind: 'snapshot', snapshot: snap.toShared() });
        }
        return this.ask(pw, (id) => ({ kind: 'scan', id, generation: snap.generation, range: part, bars, barSlot: w, ...request }));
      }),
    );
    const results: PartResult[] = [];
    for (const a of answers) {
      if (a.kind === 'cancelled') return undefined;
      if (a.kind !== 'scanned') throw new Error(a.kind === 'failed' ? `the search worker failed: ${a.message}` : 'unexpected answer');
      results.push({ total: a.total, scores: a.scores, ids: a.ids });
    }
    return results;
  }

  /** Each worker's heap and array-buffer bytes (for the benchmark's memory figure). */
  async memory(): Promise<{ heapUsed: number; arrayBuffers: number }[]> {
    this.start();
    const answers = await Promise.all(this.workers.map((pw) => this.ask(pw, (id) => ({ kind: 'memory', id }))));
    return answers.map((a) => (a.kind === 'memory' ? { heapUsed: a.heapUsed, arrayBuffers: a.arrayBuffers } : { heapUsed: 0, arrayBuffers: 0 }));
  }

  /** The snapshot of `generation` was replaced: workers let go of it (and of its parts' survivors). */
  drop(generation: number): void {
    for (const pw of this.workers) {
      if (!pw.holds.delete(generation)) continue;
      this.post(pw, { kind: 'drop', generation });
    }
  }

  private start(): void {
    if (this.broken) throw new Error('the search workers are not available');
    while (this.workers.length < this.size) {
      let worker: Worker;
      try {
        worker = new Worker(this.workerFile, WORKER.options);
      } catch (e) {
        this.broken = true;
        this.failedWith ??= e instanceof Error ? e.message : String(e);
        throw e;
      }
      const pw = new PoolWorker(worker);
      worker.on('message', (m: FromScanWorker) => {
        const p = pw.pending.get(m.id);
        if (!p) return;
        pw.pending.delete(m.id);
        if (pw.pending.size === 0) worker.unref();
        p.resolve(m);
      });
      const fail = (e: Error): void => {
        if (!this.broken) this.failedWith ??= e.message;
        this.broken = true;
        for (const p of pw.pending.values()) p.reject(e);
        pw.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the search worker exited (code ${code})`)));
      // After the listeners: adding a 'message' listener refs the worker's port again (Node 20),
      // and a process that indexed a big folder but never searched it would never exit.
      worker.unref();
      this.workers.push(pw);
    }
  }

  private post(pw: PoolWorker, m: ToScanWorker): void {
    pw.worker.postMessage(m);
  }

  private ask(pw: PoolWorker, make: (id: number) => ToScanWorker): Promise<FromScanWorker> {
    if (this.broken) return Promise.reject(new Error('the search workers are not available'));
    const id = this.nextId++;
    return new Promise<FromScanWorker>((resolve, reject) => {
      pw.pending.set(id, { resolve, reject });
      pw.worker.ref(); // keep the host alive while a scan is under way
      this.post(pw, make(id));
    });
  }
}
