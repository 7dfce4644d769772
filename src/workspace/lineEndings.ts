// Line-ending style of a text file: text written over a CRLF file stays CRLF (both backends keep
// the file's own style when an agent writes LF text over it). A whole-file Write over a file of
// mixed endings takes the majority style (decision 021); an edit of one changes only the bytes it
// replaces (decision 704).
import { nextTurn, SLICE_BYTES } from './bytesInTurns';

/** "crlf" when most line breaks of `text` are CRLF; new text written over it gets the same style. */
export function lineEndingOf(text: string): 'crlf' | 'lf' | undefined {
  const { crlf, all } = countBreaks(text);
  if (all === 0) return undefined;
  return crlf * 2 > all ? 'crlf' : 'lf';
}

/** Line breaks (LFs) of `text`, and how many of them are CRLF. */
function countBreaks(text: string): { crlf: number; all: number } {
  // Counted with indexOf: no array of a million matches for a big file.
  let crlf = 0;
  let all = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    all++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  return { crlf, all };
}

/**
 * When `text` breaks lines both ways, with CRLF and with a bare LF (lone CRs are not counted), the
 * ending most of its lines have (an added line takes it, decision 704); undefined for one style.
 */
export function mixedLineEndingsDominant(text: string): '\r\n' | '\n' | undefined {
  if (!text.includes('\r\n')) return undefined; // the common case, one native pass
  const { crlf, all } = countBreaks(text);
  if (crlf === 0 || crlf === all) return undefined;
  return crlf * 2 > all ? '\r\n' : '\n';
}

/**
 * The style an Edit's or MultiEdit's result is written in (decision 704). A file of one style gets
 * it back: the edit matched and replaced in LF text (ledger/match.ts). A file of mixed endings gets
 * none (`undefined`, the text is written as it is): there the edit worked in the file's own text,
 * so each untouched line keeps its ending and the replaced text has its region's. Rewriting it in
 * the majority style would change lines the edit never touched.
 */
export function editLineEnding(before: string): 'crlf' | 'lf' | undefined {
  const { crlf, all } = countBreaks(before); // one pass, as lineEndingOf's
  if (all === 0 || (crlf > 0 && crlf < all)) return undefined;
  return crlf > 0 ? 'crlf' : 'lf';
}

/**
 * lineEndingOf for UTF-8 bytes (LF and CR are single bytes in UTF-8), so a whole-file Write need
 * not decode the file it replaces to keep its style. Counted in slices with an event-loop turn
 * between them: 400,000 lines are as many indexOf calls, 10-14 ms in one go.
 */
export async function lineEndingOfBytesInTurns(bytes: Uint8Array): Promise<'crlf' | 'lf' | undefined> {
  let crlf = 0;
  let all = 0;
  for (let from = 0; from < bytes.byteLength; from += SLICE_BYTES) {
    if (from > 0) await nextTurn();
    const to = Math.min(bytes.byteLength, from + SLICE_BYTES);
    for (let i = bytes.indexOf(10, from); i !== -1 && i < to; i = bytes.indexOf(10, i + 1)) {
      all++;
      if (i > 0 && bytes[i - 1] === 13) crlf++;
    }
  }
  if (all === 0) return undefined;
  return crlf * 2 > all ? 'crlf' : 'lf';
}

/** Rewrites the line breaks of `text` in `style` (lone CRs are left alone). */
export function withLineEnding(text: string, style: 'crlf' | 'lf' | undefined): string {
  if (style === undefined) return text;
  const lf = text.replace(/\r\n/g, '\n');
  return style === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Does the file start with a UTF-8 byte order mark? */
export function startsWithBom(bytes: Uint8Array | undefined): boolean {
  return bytes !== undefined && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * A whole-file write over a file that starts with a byte order mark keeps it, as it keeps the
 * file's line endings: Excel's CSV, PowerShell and some Windows tools read the encoding from it.
 * (An edit keeps it anyway: the mark is the first character of the text it transforms.)
 */
export function withBom(text: string, keep: boolean): string {
  return keep && !text.startsWith('\ufeff') ? `\ufeff${text}` : text;
}
