// An @-search scan worker (a worker thread; bundled as dist/scanWorker.js, started by
// scanPool.ts). It scans its part of a big folder snapshot per keystroke, keeping that part's
// survivors for the next keystroke, so the extension host never runs the scan and two cores share
// it (issue 18, decision 500). What it holds and how it scans: workerScans.ts.
import { parentPort } from 'node:worker_threads';
import { PathSnapshot } from './pathSnapshot';
import type { FromScanWorker, ToScanWorker } from './scanProtocol';
import { settleGarbage } from './settleGarbage';
import { runInSlices } from './runSteps';
import { warmUpSteps } from './scanWarmUp';
import { WorkerScans } from './workerScans';

/** The longest the warm-up runs between two event-loop turns, ms. */
const WARM_UP_SLICE_MS = 2;

const scans = new WorkerScans();

function post(m: FromScanWorker, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(m, transfer);
}

/** The worker's own memory, after its garbage has settled (settleGarbage.ts). */
async function reportMemory(id: number): Promise<void> {
  await settleGarbage();
  const u = process.memoryUsage();
  post({ kind: 'memory', id, heapUsed: u.heapUsed, arrayBuffers: u.arrayBuffers });
}

// The warm-up (scanWarmUp.ts, decision 509), in slices of the worker's idle time: a scan the host
// asks for meanwhile waits for one warm-up keystroke at most. A warm-up that fails only leaves the
// scan colder; the host's own scans report their failures.
void runInSlices(warmUpSteps(scans), WARM_UP_SLICE_MS).catch(() => undefined);

parentPort?.on('message', (m: ToScanWorker) => {
  try {
    if (m.kind === 'snapshot') scans.add(PathSnapshot.fromShared(m.snapshot));
    else if (m.kind === 'drop') scans.forget(m.generation);
    else if (m.kind === 'memory') void reportMemory(m.id);
    else scans.scan(m, post);
  } catch (e) {
    if (m.kind === 'scan' || m.kind === 'memory') post({ kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
  }
});
