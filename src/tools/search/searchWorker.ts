// The search worker (a worker thread): runs linearRegex.ts's matching off the host's event loop,
// so no pattern and no file can delay another session, a heartbeat or /v1/health (issue 12
// finding 2). Built as its own bundle (dist/searchWorker.js); searchClient.ts starts it.
import { parentPort } from 'node:worker_threads';
import { handleSearchRequest, transferListOf, type SearchRequest } from './searchProtocol';

parentPort?.on('message', (req: SearchRequest) => {
  const res = handleSearchRequest(req);
  parentPort?.postMessage(res, transferListOf(res)); // an edited text's bytes move back, not copied
});
