// The thread a streamed `rawp convert` converts in (decision 726; stream.ts starts it, its script
// is convertWorker.ts, decision 732). A converter is one synchronous loop over its lines, so it
// runs here, where waiting for the next lines may block: each time it needs lines it sends what it
// made so far (frames as JSON lines, warnings) and sleeps (Atomics.wait) until the main thread,
// having written that out, sends the next batch.
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { withFrameSink } from './frameWriter';
import { getConverter, type ConvertOptions, type ConvertResult, type NumberedLine, type StreamedLines } from './registry';
import type { LineEntry } from './lineSplitter';
import type { Frame } from '../../protocol/frameTypes';

export interface StreamWorkerData {
  from: string;
  options: ConvertOptions;
  port: MessagePort;
  /** One Int32: the main thread adds 1 after each message it sends on `port`. */
  signal: SharedArrayBuffer;
}

/** Main -> worker, on `port`: the next lines, or the end of the input; or "written" (see FromWorker). */
export type ToWorker = { lines: LineEntry[] } | { end: true } | { written: true };

/**
 * Worker -> main: what was made since the last message, and what it waits for: the next lines;
 * "written" when its frames grew past OUT_FLUSH_CHARS within one batch (one big line's frames are
 * written before the next are made, not gathered); nothing after the converter returned ("done").
 */
export interface FromWorker {
  next: 'lines' | 'written' | 'done';
  /** Frames as JSON lines, each ending in LF (what `rawp convert` writes), joined into pieces of
   * about OUT_PIECE_CHARS (a bigger frame is a piece of its own): written one by one. */
  out: string[];
  frames: number;
  warnings: ConvertResult['warnings'];
}

class WorkerLines implements StreamedLines {
  private warnings: ConvertResult['warnings'] = [];

  constructor(private readonly next: (warnings: ConvertResult['warnings']) => LineEntry[] | undefined) {}

  watch(warnings: ConvertResult['warnings']): void {
    this.warnings = warnings;
  }

  *entries(): Generator<NumberedLine> {
    let line = 0;
    for (let batch = this.next(this.warnings); batch; batch = this.next(this.warnings)) {
      for (const e of batch) {
        line++;
        if (typeof e === 'number') yield { line, text: '', length: e };
        else if (e.trim()) yield { line, text: e };
      }
    }
  }

  /** The plain lines (an over-long one as ''): converters read `entries` through numberedLines. */
  *[Symbol.iterator](): Generator<string> {
    for (const e of this.entries()) yield e.text;
  }
}

const OUT_PIECE_CHARS = 1 << 20;
const OUT_FLUSH_CHARS = 16 << 20;

/** Frames' JSON lines gathered into pieces, so the writer is called per piece and a big frame is never copied into a bigger piece. */
class OutPieces {
  pieces: string[] = [];
  frames = 0;
  /** Characters added since the last take. */
  chars = 0;
  private open: string[] = [];
  private openChars = 0;

  add(json: string): void {
    this.frames++;
    this.chars += json.length + 1;
    if (this.openChars + json.length > OUT_PIECE_CHARS) this.close();
    this.open.push(json);
    this.openChars += json.length + 1;
  }

  take(): { out: string[]; frames: number } {
    this.close();
    const taken = { out: this.pieces, frames: this.frames };
    this.pieces = [];
    this.frames = 0;
    this.chars = 0;
    return taken;
  }

  private close(): void {
    if (this.open.length) this.pieces.push(this.open.join('\n') + '\n');
    this.open = [];
    this.openChars = 0;
  }
}

/** Converts in this thread, as the main thread's messages say (convertWorker.ts calls it with its workerData). */
export function runStreamWorker(data: StreamWorkerData): void {
  const converter = getConverter(data.from);
  if (!converter || !parentPort) throw new Error(`no converter "${data.from}"`);
  const main = parentPort;
  const signal = new Int32Array(data.signal);
  const out = new OutPieces();
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
    return 'lines' in m ? m.lines : undefined;
  });
  const frame = (f: Frame) => {
    out.add(JSON.stringify(f));
    if (out.chars <= OUT_FLUSH_CHARS) return;
    send('written', []);
    receive();
  };
  const result = withFrameSink(frame, () => converter.convert(lines, data.options));
  send('done', result.warnings);
}
