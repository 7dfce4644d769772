// Grep's matching of one piece of a file, in the search worker (decision 577). A big file is sent
// in pieces that end at a line break, so no message and no request grows with the file: the host
// clones a few hundred KB per turn instead of the whole text, and each request gets its own
// timeout. The answer is a count and at most `want` positions, never one entry per line of the
// file: a 60 MB file of short matching lines must not send millions of numbers back.
import type { RE2JS } from 're2js';

export type GrepMode = 'files_with_matches' | 'count' | 'content';

export interface GrepPieceResult {
  /**
   * files_with_matches: 1 at the first match (the search stops there), else 0; count: matches;
   * content: lines where a match starts (a match spanning lines counts once, at its first line).
   */
  count: number;
  /** The piece holds a NUL: the file is binary (Grep says it matches but shows none of its lines). */
  binary: boolean;
  /** content: 0-based lines of the piece where the first `want` matching lines are. */
  lines?: number[];
  /** content: where each of those lines starts in the piece as it was sent (a CRLF is two units). */
  starts?: number[];
  /** content, when positions were asked: line breaks in the piece (the next piece's first line). */
  breaks?: number;
  /** The pattern must see the whole file at once (see wholeTextOnly). */
  wholeText: boolean;
}

/**
 * Matches `re` over `piece`, whose lines end in LF or CRLF (CRLF is read as LF, so `$` matches
 * before it). The place after a final line break is not a line: a pattern that matches the empty
 * string does not find one more line there (nor one per piece). Every scan moves forward: linear.
 */
export function grepPiece(re: RE2JS, piece: string, mode: GrepMode, want = 0): GrepPieceResult {
  const wholeText = wholeTextOnly(re);
  const binary = piece.includes('\u0000');
  const text = piece.includes('\r\n') ? piece.replace(/\r\n/g, '\n') : piece;
  const lastStart = text.endsWith('\n') ? text.length - 1 : text.length - (text === '' ? 1 : 0);
  const m = re.matcher(text);
  if (mode === 'files_with_matches') return { count: m.find() && m.start() <= lastStart ? 1 : 0, binary, wholeText };
  if (mode === 'count') {
    let count = 0;
    while (m.find() && m.start() <= lastStart) count++;
    return { count, binary, wholeText };
  }
  const lines: number[] = [];
  const starts: number[] = [];
  // Two cursors walk the lines: one in `text` (where the regex runs), one in `piece` (where the
  // host cuts the lines out); they differ only by the CR of each CRLF.
  let line = 0;
  let lineStart = 0;
  let pieceStart = 0;
  const advanceTo = (pos: number) => {
    for (let nl = text.indexOf('\n', lineStart); nl !== -1 && nl < pos; nl = text.indexOf('\n', lineStart)) {
      line++;
      lineStart = nl + 1;
      if (text !== piece) pieceStart = piece.indexOf('\n', pieceStart) + 1;
    }
  };
  let count = 0;
  for (let at = 0; at <= lastStart && m.find(at) && m.start() <= lastStart; ) {
    count++;
    if (lines.length < want) {
      advanceTo(m.start());
      lines.push(line);
      starts.push(text === piece ? lineStart : pieceStart);
    }
    // Resume at the start of the line after the match's end.
    const nl = text.indexOf('\n', Math.max(m.start(), m.end() - 1));
    if (nl === -1) break;
    at = nl + 1;
  }
  if (want <= 0) return { count, binary, wholeText };
  return { count, binary, lines, starts, breaks: countBreaks(text), wholeText };
}

function countBreaks(text: string): number {
  let n = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) n++;
  return n;
}

const wholeTextCache = new WeakMap<RE2JS, boolean>();

/**
 * Whether a match could cross a piece's edge or see it as the file's: the pattern can consume a
 * line break (`\n`, `\s`, `[^x]`, `.` in multiline mode …) or asserts the start or end of the text
 * (`\A`, `\z`, `(?-m)^`). Such a pattern gets the whole file in one request, as before pieces.
 * Read from the compiled program (re2js has no public way to ask), so anything unexpected in its
 * shape answers "whole text": slower, never wrong.
 */
export function wholeTextOnly(re: RE2JS): boolean {
  let whole = wholeTextCache.get(re);
  if (whole === undefined) {
    whole = readsWholeText(re);
    wholeTextCache.set(re, whole);
  }
  return whole;
}

// re2js's instruction ops and empty-width flags (RE2's own numbering).
const EMPTY_WIDTH = 4;
const RUNE_OPS = [8, 9, 10, 11];
const NON_RUNE_OPS = [1, 2, 3, 5, 6, 7];
const BEGIN_OR_END_TEXT = 4 | 8;

interface ProgInst {
  op: number;
  arg: number;
  runes: ArrayLike<number>;
  matchRune(r: number): boolean;
}

function readsWholeText(re: RE2JS): boolean {
  try {
    const insts = (re as unknown as { re2(): { prog: { inst: ProgInst[] } } }).re2().prog.inst;
    if (!Array.isArray(insts) || insts.length === 0) return true;
    for (const i of insts) {
      if (RUNE_OPS.includes(i.op)) {
        if (i.matchRune(0x0a)) return true;
      } else if (i.op === EMPTY_WIDTH) {
        if ((i.arg & BEGIN_OR_END_TEXT) !== 0) return true;
      } else if (!NON_RUNE_OPS.includes(i.op)) return true; // look-behind or an op we do not know
    }
    return false;
  } catch {
    return true;
  }
}
