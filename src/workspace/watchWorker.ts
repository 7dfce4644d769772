// Node 20's recursive `fs.watch` on Linux walks the whole tree synchronously before it returns:
// 2.4 s with the event loop held for a 102,000-file workspace (the review of 2026-12-05: the first
// @ search of a fresh `rawp serve` stalled every session and `/v1/health` that long; a
// chromium-sized tree would take far longer). So `rawp serve` sets its watch up in a worker thread
// of its own, which posts the events back; the walk blocks only that thread. The worker is a few
// lines of plain JavaScript run with `eval` — no bundle to ship beside the CLI.
import { Worker } from 'node:worker_threads';

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { watch } = require('node:fs');
let w;
try {
  w = watch(workerData.root, { recursive: true }, (event, filename) => {
    if (filename != null) parentPort.postMessage({ event, filename: String(filename) });
  });
  w.on('error', () => parentPort.postMessage({ gone: true }));
  parentPort.postMessage({ ready: true });
} catch (e) {
  parentPort.postMessage({ failed: String((e && e.message) || e) });
}
parentPort.on('message', (m) => {
  if (m === 'close') {
    if (w) w.close();
    parentPort.close();
  }
});
`;

export interface WatchWorker {
  /** Resolves once the tree is watched (or the watch could not start: the index then stays as listed). */
  ready: Promise<void>;
  close(): void;
}

export function startWatchWorker(root: string, onEvent: (event: string, filename: string) => void): WatchWorker {
  const worker = new Worker(SOURCE, { eval: true, workerData: { root } });
  // A watcher must never keep `rawp serve` alive on its own, nor take it down.
  worker.unref();
  let settle: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (settle = resolve));
  worker.on('message', (m: { event?: string; filename?: string; ready?: true; failed?: string; gone?: true }) => {
    if (m.event !== undefined && m.filename !== undefined) onEvent(m.event, m.filename);
    else settle();
  });
  worker.on('error', () => settle());
  worker.on('exit', () => settle());
  return {
    ready,
    close: () => {
      worker.postMessage('close');
      // Ended for sure even if the walk still holds it.
      void worker.terminate();
    },
  };
}
