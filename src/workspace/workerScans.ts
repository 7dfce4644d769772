// What a scan worker holds and does per message (scanWorker.ts wires it to its port): the snapshots
// it was sent, each part's narrowing state, and the scan of one part for one keystroke. Its own
// module so the warm-up (scanWarmUp.ts) and its test drive exactly the code a real message runs.
import { PathSnapshot } from './pathSnapshot';
import { scanQueryOf, scanSnapshot, ScanState } from './folderScan';
import { liveOf, type FromScanWorker, type ToScanWorker } from './scanProtocol';
import { rangeKey } from './scanRange';
import { TopHeap } from './topHeap';

export type ScanMessage = Extract<ToScanWorker, { kind: 'scan' }>;
/**
 * Sends a reply to the host. Never with a transfer list: transferring an ArrayBuffer detaches it,
 * and the first detach in a V8 isolate invalidates its "array buffer detaching" protector, which
 * deoptimizes every optimized function that relied on it — the whole warmed-up scan (decision 570).
 */
export type Reply = (m: FromScanWorker) => void;

export class WorkerScans {
  private readonly snapshots = new Map<number, PathSnapshot>();
  /** Per generation and part: the narrowing state. */
  private readonly states = new Map<string, ScanState>();

  add(snap: PathSnapshot): void {
    this.snapshots.set(snap.generation, snap);
  }

  /** Drops a snapshot and its parts' narrowing states. */
  forget(generation: number): void {
    this.snapshots.delete(generation);
    for (const key of [...this.states.keys()]) if (key.startsWith(`${generation}:`)) this.states.delete(key);
  }

  /** How many snapshots and narrowing states are held (tests: the warm-up leaves none). */
  get held(): { snapshots: number; states: number } {
    return { snapshots: this.snapshots.size, states: this.states.size };
  }

  /** Scans the message's part and answers through `reply`: its best candidates, or why not. */
  scan(m: ScanMessage, reply: Reply): void {
    const snap = this.snapshots.get(m.generation);
    if (!snap) return reply({ kind: 'failed', id: m.id, message: `no snapshot ${m.generation} in this worker` });
    const key = `${m.generation}:${rangeKey(m.range)}`;
    let state = this.states.get(key);
    if (!state) this.states.set(key, (state = new ScanState()));
    const heap = new TopHeap(m.cap);
    const steps = scanSnapshot(state, snap, scanQueryOf(m.q), m.range, m.pass, liveOf(m.dead), { heap, tieBase: 0, onPush: (i) => i, bars: m.bars, barSlot: m.barSlot });
    for (;;) {
      // Between slices (4,096 paths): a newer keystroke has made this one useless.
      if (Atomics.load(m.cancel, 0) !== 0) {
        steps.return(0); // runs the scan's `finally`: its arrays go back to the part's pool
        return reply({ kind: 'cancelled', id: m.id });
      }
      const r = steps.next();
      if (r.done) {
        // Copied by postMessage (at most `cap` numbers each), never transferred: see Reply.
        const scores = heap.scores.slice(0, heap.size);
        const ids = heap.refs.slice(0, heap.size);
        return reply({ kind: 'scanned', id: m.id, total: r.value, scores, ids });
      }
    }
  }
}
