// `rawp convert` reads its input as it comes (decision 726): chunks of bytes -> the transcript's
// lines, split exactly as the whole text split on /\r?\n/ was (UTF-8 decoded across chunk edges,
// a byte order mark before the first line dropped, each line's CR before its LF dropped). A line
// longer than the bound is not kept: once it passes the bound its characters are only counted, and
// it comes out as its length (a number), or as '' when it held nothing but white space (a blank
// line, skipped without a word as before).
import { StringDecoder } from 'node:string_decoder';

/** A line's text, or the length of a line too long to keep. */
export type LineEntry = string | number;

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pieces: string[] = [];
  /** Characters of the current line so far (its CR before LF included). */
  private length = 0;
  /** Past the bound: the pieces are dropped and the line only counted. */
  private skipping = false;
  private nonBlank = false;
  private endsWithCr = false;
  private atStart = true;

  /** `maxChars`: a line longer than this (without its CR LF) is given as its length only. */
  constructor(private readonly maxChars: number) {}

  /** The lines a chunk completes (usually some, maybe none). */
  push(chunk: Buffer | string): LineEntry[] {
    return this.split(typeof chunk === 'string' ? chunk : this.decoder.write(chunk), false);
  }

  /** The input ended: its last line, when it does not end with a line break. */
  end(): LineEntry[] {
    return this.split(this.decoder.end(), true);
  }

  private split(text: string, last: boolean): LineEntry[] {
    if (this.atStart && text) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: LineEntry[] = [];
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      this.add(nl < 0 ? (from ? text.slice(from) : text) : text.slice(from, nl));
      if (nl < 0) break;
      out.push(this.take(true));
      from = nl + 1;
    }
    if (last && this.length > 0) out.push(this.take(false));
    return out;
  }

  private add(piece: string): void {
    if (!piece) return;
    this.length += piece.length;
    if (this.skipping) {
      if (!this.nonBlank && /\S/.test(piece)) this.nonBlank = true;
      this.endsWithCr = piece.charCodeAt(piece.length - 1) === 13;
      return;
    }
    this.pieces.push(piece);
    // One character over the bound is kept: it may be the CR of a CR LF, not part of the line.
    if (this.length > this.maxChars + 1) {
      this.nonBlank = this.pieces.some((p) => /\S/.test(p));
      this.endsWithCr = piece.charCodeAt(piece.length - 1) === 13;
      this.pieces = [];
      this.skipping = true;
    }
  }

  /** The current line, ended by a LF (`byLf`) or by the end of the input. */
  private take(byLf: boolean): LineEntry {
    let entry: LineEntry;
    if (this.skipping) {
      const length = this.length - (byLf && this.endsWithCr ? 1 : 0);
      entry = this.nonBlank ? length : '';
    } else {
      const text = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join('');
      entry = byLf && text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
    }
    this.pieces = [];
    this.length = 0;
    this.skipping = false;
    this.nonBlank = false;
    this.endsWithCr = false;
    return entry;
  }
}
