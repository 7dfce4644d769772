// Line-delimited JSON from a child's stdout. Never throws: a line that is not JSON (a banner, a
// stray log line, a half-written line at a crash) or longer than the limit is reported to
// `onBadLine` and skipped; the lines after it are read as usual. A line nesting arrays/objects
// deeper than a peer's frame may (decision 716) is refused before JSON.parse: JSON.parse takes
// ~5,000 levels, but every recursive step after it (zod, JSON.stringify of the frame made from
// it, the structured-output validator) then dies of a RangeError that failed the run unexplained.
import { StringDecoder } from 'node:string_decoder';
import { INCOMING_MAX_DEPTH } from '../../protocol/parse';
import { jsonTextTooDeep } from '../../protocol/limits';
import { cutAt } from '../../protocol/cutText';

export interface JsonLineHandlers {
  onMessage(value: unknown, line: string): void;
  onBadLine?(line: string, reason: string): void;
}

/** The longest line kept (64 Mi UTF-16 units, up to 128 MB of memory); a longer one is dropped. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects an agent's line may have: a peer's bound (parse.ts).
 * Real lines nest a handful of levels around a tool's input; the frames made from them are then
 * no deeper than a peer's, so a `session.history` holding them still parses (DEFAULT_MAX_DEPTH).
 */
export const AGENT_LINE_MAX_DEPTH = INCOMING_MAX_DEPTH;

/** The reader's reason for a line nested too deep. */
export const TOO_DEEP_REASON = `arrays and objects nested deeper than ${AGENT_LINE_MAX_DEPTH} levels`;

/** How much of a bad line is reported (and quoted): the start of a dropped line is all that is kept. */
export const BAD_LINE_HEAD_CHARS = 200;

/** The words an adapter shows for a line the reader could not read (decision 551): who, why, its start. */
export function badLineMessage(agentName: string, line: string, reason: string): string {
  return `${agentName} wrote a line that could not be read (${reason}): ${cutAt(line, BAD_LINE_HEAD_CHARS)}`;
}

export class JsonLineReader {
  private readonly decoder = new StringDecoder('utf8');
  // The unfinished line, in the pieces it arrived in: joined once, when its newline comes. Only
  // each new chunk is searched for a newline; rescanning one growing string made a long line cost
  // the square of its length (32 MB: 8.9 s on the event loop, decision 543).
  private pending: string[] = [];
  private pendingChars = 0;
  /** Inside a line that went over the limit: everything up to its newline is thrown away. */
  private skipping = false;

  constructor(
    private readonly handlers: JsonLineHandlers,
    /** A line longer than this is dropped (reported once) instead of growing memory without bound. */
    private readonly maxLineChars = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false; // the dropped line ends here; the next one is read normally
        continue;
      }
      if (this.pendingChars + piece.length > this.maxLineChars) {
        this.drop(piece);
        continue;
      }
      const line = this.pending.length === 0 ? piece : this.pending.join('') + piece;
      this.pending = [];
      this.pendingChars = 0;
      this.emitLine(line);
    }
    const rest = start === 0 ? text : text.slice(start);
    if (rest === '' || this.skipping) return;
    if (this.pendingChars + rest.length > this.maxLineChars) {
      this.drop(rest);
      this.skipping = true;
      return;
    }
    this.pending.push(rest);
    this.pendingChars += rest.length;
  }

  /** Flush the last line when the stream ends without a trailing newline. */
  end(): void {
    const tail = this.decoder.end();
    const rest = this.skipping ? '' : this.pending.join('') + tail;
    this.pending = [];
    this.pendingChars = 0;
    this.skipping = false;
    if (rest.trim()) this.emitLine(rest);
  }

  /** Reports the over-long line by its start, and forgets what was kept of it. */
  private drop(last: string): void {
    const head = (this.pending.length > 0 ? this.pending.slice(0, 8).join('') : last).slice(0, BAD_LINE_HEAD_CHARS);
    this.pending = [];
    this.pendingChars = 0;
    this.report(head, `line longer than ${this.maxLineChars} characters dropped`);
  }

  private emitLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    // One linear scan, no recursion, before anything recursive touches the line (decision 716).
    if (jsonTextTooDeep(line, AGENT_LINE_MAX_DEPTH)) {
      this.report(line, TOO_DEEP_REASON);
      return;
    }
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
