// A fixed CPU-bound probe, so search figures can be compared run to run on a shared machine: the
// same typed-array scan timed on one thread, and on two threads at once (each thread's time; the
// slower one is what a split scan waits for). This machine's two cores were measured 40–65% apart
// in speed from one hour to the next, and sometimes one core 40% slower than the other.
import { Worker } from 'node:worker_threads';

const PROBE = `
const data = new Uint8Array(32e6);
for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 255;
function run() {
  const t = performance.now();
  let hits = 0;
  for (let r = 0; r < 3; r++) for (let i = 0; i < data.length; i++) if (data[i] === 13) hits++;
  return performance.now() - t + hits * 0;
}
run();
require('node:worker_threads').parentPort.on('message', () => require('node:worker_threads').parentPort.postMessage(run()));
`;

export interface MachineProbe {
  /** Best of three runs of the probe on one thread, ms. */
  oneThreadMs: number;
  /** Best of three: the slower of two threads running the probe at once, ms. */
  twoThreadsMs: number;
}

export async function machineProbe(): Promise<MachineProbe> {
  const workers = [new Worker(PROBE, { eval: true }), new Worker(PROBE, { eval: true })];
  const run = (n: number) => Promise.all(workers.slice(0, n).map((w) => new Promise<number>((resolve) => {
    w.once('message', resolve);
    w.postMessage(0);
  })));
  try {
    let one = Infinity;
    let two = Infinity;
    for (let k = 0; k < 3; k++) {
      one = Math.min(one, (await run(1))[0]);
      two = Math.min(two, Math.max(...(await run(2))));
    }
    return { oneThreadMs: one, twoThreadsMs: two };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
