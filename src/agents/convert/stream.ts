// `rawp convert` streaming (decision 726): the converter runs in a worker thread (streamWorker.ts)
// that asks for input as it needs it, and the frames it makes come back to be written before more
// input is read. One chunk of the input is in the worker at a time, and the next is read only once
// the output of the last has been written (the caller's `write` resolves when its stream has
// drained), so memory holds a chunk and its frames, not the input or the output. The chunks cross
// as bytes, moved rather than copied, and are split into lines in the worker (decision 736): split
// here, a line crossed as a string (copied) and its frames came back whole (copied again), and a
// line near the 64 Mi bound took 1.5 GB where converting it in one thread took 0.9 GB.
import { MessageChannel, Worker, type Transferable } from 'node:worker_threads';
import { workerScript } from '../../workspace/workerScript';
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
  /** Frames as JSON lines, in pieces to write in turn (`count`: the frames begun in them; a frame
   * may be cut over several calls); resolves when more may be written. */
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
  const send = (m: ToWorker, transfer: Transferable[] = []) => {
    channel.port1.postMessage(m, transfer);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const chunks = input[Symbol.asyncIterator]();
  let ended = false;
  /** The input's next chunk (not empty) as bytes of its own, or undefined at its end. */
  const nextChunk = async (): Promise<ArrayBuffer | undefined> => {
    while (!ended) {
      let r: IteratorResult<Buffer | string>;
      try {
        r = await chunks.next();
      } catch (e) {
        throw new InputReadError(e as Error);
      }
      if (r.done) ended = true;
      else if (r.value.length) return ownBytes(r.value);
    }
    return undefined;
  };
  try {
    for (;;) {
      const m = await messages.next();
      if (m.warnings.length) output.warn(m.warnings);
      // A message may carry only the middle of a frame cut into pieces (outPieces.ts): no frame begun.
      if (m.out.length) await output.write(m.out, m.frames);
      if (m.next === 'done') return;
      if (m.next === 'written') {
        send({ written: true });
        continue;
      }
      const chunk = await nextChunk();
      if (chunk) send({ chunk }, [chunk]);
      else send({ end: true });
    }
  } finally {
    channel.port1.close();
    if (!ended) await chunks.return?.();
    await worker.terminate();
  }
}

/**
 * A chunk's bytes in an ArrayBuffer of their own, to be transferred: a stream's Buffer may be a
 * view of a bigger buffer (Node's pool, or the caller's), which transferring would take from under
 * its owner. Copying a chunk (64 KiB from a pipe) costs far less than the structured clone of its
 * lines did. A string chunk (a stream with an encoding set) is encoded back: the worker decodes.
 */
function ownBytes(chunk: Buffer | string): ArrayBuffer {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  const own = new ArrayBuffer(bytes.length);
  new Uint8Array(own).set(bytes);
  return own;
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
