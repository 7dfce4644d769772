// The script of `rawp convert`'s conversion thread (decision 732; stream.ts starts it). Bundled on
// its own as dist/convertWorker.js, so the thread loads the converters and nothing else: it used to
// load the whole CLI bundle, which cost every conversion from stdin time and memory for code the
// thread never runs. From the sources (tests under tsx) this file is loaded as it is.
import { workerData } from 'node:worker_threads';
// Every converter registers itself when imported; index.ts is the one list of them.
import './index';
import { runStreamWorker, type StreamWorkerData } from './streamWorker';

runStreamWorker(workerData as StreamWorkerData);
