// An @-search scan worker (a worker thread; bundled as dist/scanWorker.js, started by
// scanPool.ts). It scans its part of a big folder snapshot per keystroke, keeping that part's
// survivors for the next keystroke, so the extension host never runs the scan and two cores share
// it (issue 18, decision 500). What it holds and how it scans: workerScans.ts.
import { parentPort } from 'node:worker_threads';
import { PathSnapshot } from './pathSnapshot';
import type { FromScanWorker, ToScanWorker, WarmUpState } from './scanProtocol';
import { settleGarbage } from './settleGarbage';
import { runInSlices } from './runSteps';
import { warmUpSteps } from './scanWarmUp';
import { WorkerScans } from './workerScans';

/** The longest the warm-up runs between two event-loop turns, ms. */
const WARM_UP_SLICE_MS = 2;

const scans = new WorkerScans();

/** No transfer list, ever (workerScans.ts `Reply`, decision 570). */
function post(m: FromScanWorker): void {
  parentPort?.postMessage(m);
}

/** The worker's own memory, after its garbage has settled (settleGarbage.ts). */
async function reportMemory(id: number): Promise<void> {
  await settleGarbage();
  const u = process.memoryUsage();
  post({ kind: 'memory', id, heapUsed: u.heapUsed, arrayBuffers: u.arrayBuffers });
}

// The warm-up (scanWarmUp.ts, decision 509), in slices of the worker's idle time: a scan the host
// asks for meanwhile waits for one warm-up keystroke at most. It starts when the host says so
// (decision 522): a worker started early waits while the host builds the index, since on two cores
// two warming workers starve the build (460k paths: 1.3–2.2 s and 20–39 ms blocks, against 0.7 s).
// A warm-up that fails only leaves the scan colder; the host's own scans report their failures.
let warmUp: WarmUpState = 'waiting';
function startWarmUp(): void {
  if (warmUp !== 'waiting') return;
  warmUp = 'running';
  void runInSlices(warmUpSteps(scans), WARM_UP_SLICE_MS)
    .catch(() => undefined)
    .finally(() => (warmUp = 'done'));
}

parentPort?.on('message', (m: ToScanWorker) => {
  try {
    if (m.kind === 'snapshot') scans.add(PathSnapshot.fromShared(m.snapshot));
    else if (m.kind === 'drop') scans.forget(m.generation);
    else if (m.kind === 'memory') void reportMemory(m.id);
    else if (m.kind === 'warm') startWarmUp();
    else if (m.kind === 'warmUpState') post({ kind: 'warmUpState', id: m.id, state: warmUp });
    else scans.scan(m, post);
  } catch (e) {
    if (m.kind === 'scan' || m.kind === 'memory' || m.kind === 'warmUpState') post({ kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
  }
});
