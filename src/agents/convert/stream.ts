// `rawp convert` streaming (decision 726): the input's chunks are split into lines here, the
// converter runs in a worker thread (streamWorker.ts) that asks for lines as it needs them, and the
// frames it makes come back to be written before more input is read. One batch of lines is in the
// worker at a time, and the next is read only once the output of the last has been written (the
// caller's `write` resolves when its stream has drained), so memory holds a batch and its frames,
// not the input or the output.
import { MessageChannel, Worker } from 'node:worker_threads';
import { MAX_LINE_CHARS } from '../process/jsonLines';
import { workerScript } from '../../workspace/workerScript';
import { LineSplitter, type LineEntry } from './lineSplitter';
import type { ConvertOptions, ConvertResult } from './registry';
import type { FromWorker, StreamWorkerData, ToWorker } from './streamWorker';

/**
 * The thread's script: the converters' own bundle beside the CLI's (dist/convertWorker.js), or
 * convertWorker.ts under tsx (workerScript.ts). Not the CLI bundle itself: the thread needs only
 * the converters, and loading all of dist/cli.js cost every conversion from stdin (decision 732).
 */
const WORKER = workerScript(__dirname, 'convertWorker');

/** Reading the input failed (the caller says "cannot read FILE"); anything else is the conversion's. */
export class InputReadError extends Error {
  constructor(error: Error) {
    super(error.message);
  }
}

export interface StreamOutput {
  /** Frames as JSON lines (`count` of them, in pieces to write in turn); resolves when more may be written. */
  write(pieces: string[], count: number): Promise<void> | void;
  warn(warnings: ConvertResult['warnings']): void;
}

/** Converts `input` (chunks of UTF-8) with the converter `from`, handing frames and warnings to `output` as they are made. */
export async function convertStream(from: string, options: ConvertOptions, input: AsyncIterable<Buffer | string>, output: StreamOutput): Promise<void> {
  const channel = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const workerData: StreamWorkerData = { from, options, port: channel.port2, signal };
  const worker = new Worker(WORKER.file, { ...WORKER.options, workerData, transferList: [channel.port2] });
  const messages = new MessageQueue(worker);
  const send = (m: ToWorker) => {
    channel.port1.postMessage(m);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const chunks = input[Symbol.asyncIterator]();
  const splitter = new LineSplitter(MAX_LINE_CHARS);
  let ended = false;
  const nextBatch = async (): Promise<LineEntry[] | undefined> => {
    while (!ended) {
      let r: IteratorResult<Buffer | string>;
      try {
        r = await chunks.next();
      } catch (e) {
        throw new InputReadError(e as Error);
      }
      const lines = r.done ? splitter.end() : splitter.push(r.value);
      if (r.done) ended = true;
      if (lines.length) return lines;
    }
    return undefined;
  };
  try {
    for (;;) {
      const m = await messages.next();
      if (m.warnings.length) output.warn(m.warnings);
      if (m.frames) await output.write(m.out, m.frames);
      if (m.next === 'done') return;
      if (m.next === 'written') {
        send({ written: true });
        continue;
      }
      const lines = await nextBatch();
      send(lines ? { lines } : { end: true });
    }
  } finally {
    channel.port1.close();
    if (!ended) await chunks.return?.();
    await worker.terminate();
  }
}

/** The worker's messages one at a time; its error (or an exit before `done`) rejects. */
class MessageQueue {
  private readonly queue: FromWorker[] = [];
  private failure: Error | undefined;
  private waiting: { resolve(m: FromWorker): void; reject(e: Error): void } | undefined;

  constructor(worker: Worker) {
    worker.on('message', (m: FromWorker) => {
      if (this.waiting) this.settle().resolve(m);
      else this.queue.push(m);
    });
    worker.on('error', (e) => this.fail(e));
    worker.on('exit', (code) => this.fail(new Error(`the conversion thread stopped (exit code ${code})`)));
  }

  next(): Promise<FromWorker> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  private fail(e: Error): void {
    this.failure ??= e;
    if (this.waiting) this.settle().reject(this.failure);
  }

  private settle() {
    const w = this.waiting!;
    this.waiting = undefined;
    return w;
  }
}
