// Line-delimited JSON from a child's stdout. Never throws: a line that is not JSON (a banner, a
// stray log line, a half-written line at a crash) is reported to `onBadLine` and skipped.
import { StringDecoder } from 'node:string_decoder';

export interface JsonLineHandlers {
  onMessage(value: unknown, line: string): void;
  onBadLine?(line: string, reason: string): void;
}

export class JsonLineReader {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';

  constructor(
    private readonly handlers: JsonLineHandlers,
    /** A line longer than this is dropped (reported) instead of growing memory without bound. */
    private readonly maxLineChars = 64 * 1024 * 1024,
  ) {}

  push(chunk: Buffer | string): void {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.emitLine(line);
    }
    if (this.buffer.length > this.maxLineChars) {
      this.report(this.buffer.slice(0, 200), `line longer than ${this.maxLineChars} characters dropped`);
      this.buffer = '';
    }
  }

  /** Flush the last line when the stream ends without a trailing newline. */
  end(): void {
    this.buffer += this.decoder.end();
    const rest = this.buffer;
    this.buffer = '';
    if (rest.trim()) this.emitLine(rest);
  }

  private emitLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.report(line, `not JSON: ${(e as Error).message}`);
      return;
    }
    try {
      this.handlers.onMessage(value, line);
    } catch (e) {
      // A handler bug must not kill the reader (and with it every later line).
      this.report(line, `handler failed: ${(e as Error).message}`);
    }
  }

  private report(line: string, reason: string): void {
    try {
      this.handlers.onBadLine?.(line, reason);
    } catch {
      /* the reporter itself failed; nothing more we can do for this line */
    }
  }
}
