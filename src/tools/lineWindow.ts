// The Read tool's window of lines (decision 539). Lines [start, start + limit) of a text (LF or
// CRLF endings; a final newline ends the last line) and how many lines it has — without splitting
// all of it: a 20 MB file split whole made 400,000 strings on the host's event loop (and the GC
// after them) for a window of 2,000 (issue 12 finding 2). Even unsplit, walking 20 MB of two-byte
// lines and looking for a NUL held the loop for 140 ms in one go, so the tool walks it in slices
// with a turn of the event loop between them.
import { nextTurn } from '../workspace/bytesInTurns';

/** Characters walked in one turn of the event loop (about 1 ms even when they are 32K two-byte lines). */
const SLICE = 64 * 1024;

interface Scan {
  window: string[];
  count: number;
  /** Where the next line starts. */
  from: number;
}

/** Walks the lines that start before `until`. */
function scanLines(text: string, s: Scan, start: number, limit: number, until: number): void {
  while (s.from < text.length && s.from < until) {
    const from = s.from;
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    if (s.count >= start && s.count < start + limit) s.window.push(text.slice(from, nl !== -1 && end > from && text[end - 1] === '\r' ? end - 1 : end));
    s.count++;
    s.from = nl === -1 ? text.length : nl + 1;
  }
}

/** The window and the line count in one synchronous pass (small texts, and the tests' reference). */
export function lineWindow(text: string, start: number, limit: number): { window: string[]; count: number } {
  const s: Scan = { window: [], count: 0, from: 0 };
  scanLines(text, s, start, limit, Infinity);
  return { window: s.window, count: s.count };
}

/**
 * The same window and count, walked SLICE characters per turn of the event loop; `binary` when the
 * text has a NUL (checked slice by slice on the way, so a binary file stops at its first NUL's slice).
 */
export async function lineWindowInTurns(text: string, start: number, limit: number): Promise<{ window: string[]; count: number } | 'binary'> {
  const s: Scan = { window: [], count: 0, from: 0 };
  for (let at = 0; at < text.length; at += SLICE) {
    if (at > 0) await nextTurn();
    if (text.slice(at, at + SLICE).includes('\u0000')) return 'binary';
    scanLines(text, s, start, limit, at + SLICE);
  }
  return { window: s.window, count: s.count };
}
