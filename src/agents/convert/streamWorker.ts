// The thread a streamed `rawp convert` converts in (decision 726; stream.ts starts it, its script
// is convertWorker.ts, decision 732). A converter is one synchronous loop over its lines, so it
// runs here, where waiting for the next lines may block: each time it needs lines it sends what it
// made so far (frames as JSON lines, warnings) and sleeps (Atomics.wait) until the main thread,
// having written that out, sends the next chunk of the input. The chunk arrives as bytes, moved
// (transferred), not copied, and is split into lines and decoded here (decision 736): the main
// thread never holds a line, and a frame goes back to it in parts (outPieces.ts), never whole.
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { MAX_LINE_CHARS } from '../process/jsonLines';
import { withFrameSink } from './frameWriter';
import { LineSplitter } from './lineSplitter';
import { OutPieces } from './outPieces';
import { getConverter, type ConvertOptions, type ConvertResult, type NumberedLine, type StreamedLines } from './registry';
import type { Frame } from '../../protocol/frameTypes';

export interface StreamWorkerData {
  from: string;
  options: ConvertOptions;
  port: MessagePort;
  /** One Int32: the main thread adds 1 after each message it sends on `port`. */
  signal: SharedArrayBuffer;
}

/**
 * Main -> worker, on `port`: the input's next chunk of bytes (transferred: the main thread keeps
 * nothing of it), or the end of the input; or "written" (see FromWorker).
 */
export type ToWorker = { chunk: ArrayBuffer } | { end: true } | { written: true };

/**
 * Worker -> main: what was made since the last message, and what it waits for: the next chunk
 * ("lines"); "written" when its frames grew past OUT_FLUSH_CHARS within one chunk (a big frame is
 * written a part at a time, not gathered); nothing after the converter returned ("done").
 */
export interface FromWorker {
  next: 'lines' | 'written' | 'done';
  /** Frames as JSON lines, each ending in LF (what `rawp convert` writes), in pieces of about
   * OUT_PIECE_CHARS (outPieces.ts; a bigger frame is cut into several): written one by one. */
  out: string[];
  /** Frames begun in `out` (a frame cut into pieces counts in the message with its first piece). */
  frames: number;
  warnings: ConvertResult['warnings'];
}

class WorkerLines implements StreamedLines {
  private warnings: ConvertResult['warnings'] = [];

  /** `next`: the next chunk of the input's bytes, or undefined at its end. */
  constructor(private readonly next: (warnings: ConvertResult['warnings']) => Uint8Array | undefined) {}

  watch(warnings: ConvertResult['warnings']): void {
    this.warnings = warnings;
  }

  *entries(): Generator<NumberedLine> {
    // Split here, not in the main thread: a line is decoded only in the thread that converts it.
    const splitter = new LineSplitter(MAX_LINE_CHARS);
    let line = 0;
    for (;;) {
      const chunk = this.next(this.warnings);
      for (const e of chunk ? splitter.push(chunk) : splitter.end()) {
        line++;
        if (typeof e === 'number') yield { line, text: '', length: e };
        else if (e.trim()) yield { line, text: e };
      }
      if (!chunk) return;
    }
  }

  /** The plain lines (an over-long one as ''): converters read `entries` through numberedLines. */
  *[Symbol.iterator](): Generator<string> {
    for (const e of this.entries()) yield e.text;
  }
}

/**
 * Frames' JSON lines are sent in pieces of about this many characters (outPieces.ts; a big frame's
 * JSON made in parts of a quarter of it). Small, so that a piece, even of two-byte text (64 KB),
 * is below V8's large-object size and dies young in both threads: with pieces of 1 Mi characters
 * the line near the bound peaked 70-80 MB higher (decision 736).
 */
const OUT_PIECE_CHARS = 1 << 15;
/**
 * More than this waiting, within one chunk's frames, is written before the converter goes on.
 * Small for the same reason: with 16 Mi characters in flight, the pieces outlived minor
 * collections and piled up as old garbage in both threads (0.87-0.98 GB against 0.60 GB).
 */
const OUT_FLUSH_CHARS = 1 << 20;

/** Converts in this thread, as the main thread's messages say (convertWorker.ts calls it with its workerData). */
export function runStreamWorker(data: StreamWorkerData): void {
  const converter = getConverter(data.from);
  if (!converter || !parentPort) throw new Error(`no converter "${data.from}"`);
  const main = parentPort;
  const signal = new Int32Array(data.signal);
  const send = (next: FromWorker['next'], warnings: ConvertResult['warnings']) => {
    // The warnings sent are taken out of the converter's list: it only ever adds to it.
    const message: FromWorker = { next, ...out.take(), warnings: warnings.splice(0) };
    main.postMessage(message);
  };
  const receive = (): ToWorker => {
    for (;;) {
      const seen = Atomics.load(signal, 0);
      const m = receiveMessageOnPort(data.port);
      if (m) return m.message as ToWorker;
      Atomics.wait(signal, 0, seen);
    }
  };
  const lines = new WorkerLines((warnings) => {
    send('lines', warnings);
    const m = receive();
    return 'chunk' in m ? new Uint8Array(m.chunk) : undefined;
  });
  const out = new OutPieces(OUT_PIECE_CHARS, OUT_FLUSH_CHARS, () => {
    send('written', []);
    receive();
  });
  const result = withFrameSink((f: Frame) => out.add(f), () => converter.convert(lines, data.options));
  send('done', result.warnings);
}
