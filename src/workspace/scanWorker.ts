// An @-search scan worker (a worker thread; bundled as dist/scanWorker.js, started by
// scanPool.ts). It scans its part of a big folder snapshot per keystroke, keeping that part's
// survivors for the next keystroke, so the extension host never runs the scan and two cores share
// it (issue 18, decision 500).
import { parentPort } from 'node:worker_threads';
import { PathSnapshot } from './pathSnapshot';
import { scanQueryOf, scanSnapshot, ScanState } from './folderScan';
import { liveOf, type FromScanWorker, type ToScanWorker } from './scanProtocol';
import { rangeKey } from './scanRange';
import { settleGarbage } from './settleGarbage';
import { TopHeap } from './topHeap';

const snapshots = new Map<number, PathSnapshot>();
/** Per generation and part: the narrowing state. */
const states = new Map<string, ScanState>();

function reply(m: FromScanWorker, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(m, transfer);
}

function scan(m: Extract<ToScanWorker, { kind: 'scan' }>): void {
  const snap = snapshots.get(m.generation);
  if (!snap) return reply({ kind: 'failed', id: m.id, message: `no snapshot ${m.generation} in this worker` });
  const key = `${m.generation}:${rangeKey(m.range)}`;
  let state = states.get(key);
  if (!state) states.set(key, (state = new ScanState()));
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
      const scores = heap.scores.slice(0, heap.size);
      const ids = heap.refs.slice(0, heap.size);
      return reply({ kind: 'scanned', id: m.id, total: r.value, scores, ids }, [scores.buffer, ids.buffer]);
    }
  }
}

/** The worker's own memory, after its garbage has settled (settleGarbage.ts). */
async function reportMemory(id: number): Promise<void> {
  await settleGarbage();
  const u = process.memoryUsage();
  reply({ kind: 'memory', id, heapUsed: u.heapUsed, arrayBuffers: u.arrayBuffers });
}

parentPort?.on('message', (m: ToScanWorker) => {
  try {
    if (m.kind === 'snapshot') snapshots.set(m.snapshot.generation, PathSnapshot.fromShared(m.snapshot));
    else if (m.kind === 'drop') {
      snapshots.delete(m.generation);
      for (const key of [...states.keys()]) if (key.startsWith(`${m.generation}:`)) states.delete(key);
    } else if (m.kind === 'memory') void reportMemory(m.id);
    else scan(m);
  } catch (e) {
    if (m.kind === 'scan' || m.kind === 'memory') reply({ kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
  }
});
