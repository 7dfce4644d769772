// Starts the search worker on first use and sends it one request at a time per caller. The worker
// is `unref`ed (it never keeps the host alive); an aborted or overlong request terminates it (a
// fresh one starts on the next request), so a cancel is immediate. Where no worker can start, the
// same linear-time code runs inline (still linear, never backtracking).
import { workerScript } from '../../workspace/workerScript';
import { Worker } from 'node:worker_threads';
import { handleSearchRequest, transferListOf, type SearchQuery, type SearchRequest, type SearchResponse } from './searchProtocol';

/** One request may take this long before the worker is stopped (linear time, but big inputs exist). */
const REQUEST_TIMEOUT_MS = 30_000;

type Pending = { resolve: (r: SearchResponse) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

export class SearchAbortedError extends Error {}
/** Another caller's request stopped the shared worker: this one is sent again. */
class WorkerRestarted extends Error {}

// dist/searchWorker.js beside the bundle, or the .ts file under tsx (workerScript.ts).
const WORKER = workerScript(__dirname, 'searchWorker');

let worker: Worker | undefined;
let workerFailed = false;
let nextId = 1;
const pending = new Map<number, Pending>();

function settle(id: number): Pending | undefined {
  const p = pending.get(id);
  if (!p) return undefined;
  clearTimeout(p.timer);
  pending.delete(id);
  if (pending.size === 0) worker?.unref();
  return p;
}

/** Rejects every pending request: `culprit` with `error`, the others as restarted (they retry). */
function failAll(error: Error, culprit?: number): void {
  for (const id of [...pending.keys()]) settle(id)?.reject(id === culprit || culprit === undefined ? error : new WorkerRestarted());
}

function ensureWorker(): Worker | undefined {
  if (worker || workerFailed) return worker;
  try {
    const w = new Worker(WORKER.file, WORKER.options);
    w.on('message', (r: SearchResponse) => settle(r.id)?.resolve(r));
    w.on('error', (e) => {
      if (worker === w) worker = undefined;
      failAll(e);
    });
    w.on('exit', () => {
      if (worker !== w) return; // stopped on purpose: its requests were settled already
      worker = undefined;
      failAll(new WorkerRestarted());
    });
    w.unref(); // after the listeners: a 'message' listener refs the port again (decision 534)
    worker = w;
  } catch {
    workerFailed = true;
  }
  return worker;
}

function stopWorker(): void {
  const w = worker;
  worker = undefined;
  void w?.terminate();
}

/**
 * Runs one search request off the event loop; rejects with SearchAbortedError on abort or timeout.
 * A request given as a function is built afresh for each attempt and its bytes are moved to the
 * worker, not copied (moved bytes are gone from this thread, so a resend needs new ones).
 */
export async function search(req: SearchQuery | (() => Promise<SearchQuery>), signal?: AbortSignal): Promise<SearchResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await (typeof req === 'function' ? searchOnce(await req(), signal, true) : searchOnce(req, signal, false));
    } catch (e) {
      if (!(e instanceof WorkerRestarted) || attempt >= 2) throw e instanceof WorkerRestarted ? new SearchAbortedError('the search worker was restarted') : e;
    }
  }
}

function searchOnce(req: SearchQuery, signal: AbortSignal | undefined, move: boolean): Promise<SearchResponse> {
  const id = nextId++;
  const full = { ...req, id } as SearchRequest;
  const w = ensureWorker();
  if (!w) return Promise.resolve(handleSearchRequest(full));
  if (signal?.aborted) return Promise.reject(new SearchAbortedError('cancelled'));
  return new Promise<SearchResponse>((resolve, reject) => {
    const onAbort = () => {
      stopWorker();
      failAll(new SearchAbortedError('cancelled'), id);
    };
    const timer = setTimeout(() => {
      stopWorker();
      failAll(new SearchAbortedError(`the search took longer than ${REQUEST_TIMEOUT_MS / 1000} s and was stopped`), id);
    }, REQUEST_TIMEOUT_MS);
    timer.unref?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.set(id, {
      resolve: (r) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(r);
      },
      reject: (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
      timer,
    });
    w.ref(); // keep the host alive while a search is under way
    w.postMessage(full, move ? transferListOf(full) : []);
  });
}
