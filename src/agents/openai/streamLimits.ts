// What the OpenAI-compatible agent takes from a model server, and how much (decision 717). The
// server is not trusted: a hostile or broken one could send a tool call's arguments, a chunk or an
// error body nested 5,000 deep (JSON.parse takes it; the tool runner's zod, the frame's
// JSON.stringify or a template string then died of a RangeError and the turn ended unexplained),
// one SSE line of hundreds of MB (searched again for its newline at every chunk: 40 MB blocked the
// event loop 146 s), an answer of 200 MB (1.6 GB of memory) or an error body of 300 MB (shown
// whole in the error frame). Each is bounded here and refused in words.
import { INCOMING_MAX_DEPTH } from '../../protocol/parse';
import { jsonTextTooDeep } from '../../protocol/limits';
import { cutAt } from '../../protocol/cutText';

/** The deepest nesting of a chunk, a tool call's arguments or an error body: a peer frame's bound. */
export const MODEL_JSON_MAX_DEPTH = INCOMING_MAX_DEPTH;

/** The words for JSON nested deeper than that. */
export const TOO_DEEP_WORDS = `arrays and objects nested deeper than ${MODEL_JSON_MAX_DEPTH} levels`;

/** The longest line of the event stream (one `data:` chunk); a real chunk is one delta, a few hundred bytes. */
export const SSE_LINE_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The most one model call may stream: its text, its thinking, and its tool calls' ids, names and
 * arguments, in characters. The longest answers models give are ~128,000 tokens (~0.5 MB).
 */
export const CHAT_REPLY_MAX_CHARS = 16 * 1024 * 1024;

/** The most tool calls one model call may make (each index of its `tool_calls` deltas is one). */
export const CHAT_REPLY_MAX_TOOL_CALLS = 1_000;

/** The most of an error answer's body that is read; the rest is not. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;

/** The most of a server's error message that is shown. */
export const ERROR_TEXT_CHARS = 500;

/** `n` as people read it: 16,777,216. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** True when a model's JSON text (a chunk, a tool call's arguments, an error body) nests too deep to decode. */
export function modelJsonTooDeep(text: string): boolean {
  return jsonTextTooDeep(text, MODEL_JSON_MAX_DEPTH);
}

/**
 * The lines of an event stream as its chunks come. Only each new chunk is searched for a newline
 * and an unfinished line is kept in pieces, joined once when it ends (searching one growing buffer
 * cost the square of a line's length). A line past the bound is not kept: `push` says so.
 */
export class SseLines {
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(private readonly maxLineChars = SSE_LINE_MAX_CHARS) {}

  /** The lines this text completes (no CR or LF), or 'too long' once a line passes the bound. */
  push(text: string): string[] | 'too long' {
    const lines: string[] = [];
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (this.pendingChars + piece.length > this.maxLineChars) return 'too long';
      const line = this.pending.length === 0 ? piece : this.pending.join('') + piece;
      this.pending = [];
      this.pendingChars = 0;
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    const rest = start === 0 ? text : text.slice(start);
    if (rest !== '') {
      if (this.pendingChars + rest.length > this.maxLineChars) return 'too long';
      this.pending.push(rest);
      this.pendingChars += rest.length;
    }
    return lines;
  }
}

/** At most `maxBytes` of a response's body, as text; the rest is not read (the body is cancelled). */
export async function boundedBodyText(response: Response, maxBytes = ERROR_BODY_MAX_BYTES): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength >= maxBytes) {
        parts.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        await reader.cancel().catch(() => undefined);
        break;
      }
      parts.push(value);
      size += value.byteLength;
    }
  } catch {
    /* what came before the break is what we have */
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

/** The message of a server's error body (`{error: {message}}`, `{error: "…"}`, `{message}`), else its start; cut. */
export function errorText(body: string): string {
  let message: string | undefined;
  if (!modelJsonTooDeep(body)) {
    try {
      const j = JSON.parse(body) as { error?: { message?: unknown } | unknown; message?: unknown } | null;
      const error = j?.error as { message?: unknown } | string | undefined;
      const found = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : j?.message;
      if (typeof found === 'string') message = found;
    } catch {
      /* not JSON: its start is shown */
    }
  }
  const text = message ?? body;
  return text.length > ERROR_TEXT_CHARS ? `${cutAt(text, ERROR_TEXT_CHARS)}…` : text;
}
