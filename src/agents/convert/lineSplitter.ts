// `rawp convert` reads its input as it comes (decision 726): chunks of bytes -> the transcript's
// lines, exactly the lines the whole text decoded as UTF-8 and split on /\r?\n/ gave (a byte order
// mark before the first line dropped, each line's CR before its LF dropped). A line longer than the
// bound is not kept: once it passes the bound its characters are only counted, and it comes out as
// its length (a number), or as '' when it held nothing but white space (a blank line, skipped
// without a word as before).
//
// The bytes are split on LF, which is never part of a multi-byte UTF-8 sequence, and each line is
// decoded once, whole, when its LF comes (decision 736): a line in one chunk straight from it, a
// line across chunks from its bytes gathered in one growable buffer, given back once it is decoded.
// (Decoded piece by piece and joined, the pieces were left for the garbage collector: a line near
// the bound was in memory three times, pieces, line and parsed text, while it was parsed.)
// A line's characters are UTF-16 code units, as a string's length counts them; a line of at most
// bound + 1 bytes has at most that many, and a longer one is counted as it comes (utf16Count.ts).
import { Utf16Counter } from './utf16Count';

/** A line's text, or the length of a line too long to keep. */
export type LineEntry = string | number;

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];
/** The gathering buffer is given back after a line that needed more than this. */
const KEEP_BYTES = 1 << 20;

/** ArrayBuffer with ES2024's resize (Node 20): grows in place, and gives its pages back when shrunk. */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

export class LineSplitter {
  /** The current line's bytes, while it spans chunks and is within the bound. */
  private readonly gathered: ResizableArrayBuffer;
  private used = 0;
  /** The current line's bytes so far. */
  private bytes = 0;
  /** Its characters, counted once its bytes passed the bound. */
  private counter: Utf16Counter | undefined;
  private lastByte = -1;
  /** Bytes of a byte order mark matched at the start of the input (-1: past the start). */
  private bom = 0;

  /** `maxChars`: a line longer than this (without its CR LF) is given as its length only. */
  constructor(private readonly maxChars: number) {
    // A line is gathered only while it has at most maxChars + 1 characters: 3 bytes each at most
    // (a 4-byte sequence is 2 of them, an invalid byte or sequence 1), and an unfinished one. Only
    // reserved: pages are taken as the buffer grows.
    this.gathered = new Resizable(0, { maxByteLength: 3 * (maxChars + 2) + 3 });
  }

  /** Bytes of the current line held (gathered) now: none once it passed the bound. */
  get heldBytes(): number {
    return this.used;
  }

  /** The lines a chunk completes (usually some, maybe none). */
  push(chunk: Uint8Array | string): LineEntry[] {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: LineEntry[] = [];
    let from = this.bom >= 0 ? this.skipBom(b) : 0;
    for (;;) {
      const nl = b.indexOf(LF, from);
      if (nl < 0) {
        this.add(b, from, b.length);
        return out;
      }
      out.push(this.take(b, from, nl));
      from = nl + 1;
    }
  }

  /** The input ended: its last line, when it does not end with a line break. */
  end(): LineEntry[] {
    if (this.bom > 0) this.add(Buffer.from(BOM.slice(0, this.bom)), 0, this.bom);
    this.bom = -1;
    return this.bytes > 0 ? [this.finish(false)] : [];
  }

  /** Where the text starts in the input's first bytes: after a byte order mark (EF BB BF), which may come a byte at a time. */
  private skipBom(b: Buffer): number {
    let i = 0;
    while (i < b.length && this.bom < 3 && b[i] === BOM[this.bom]) {
      i++;
      this.bom++;
    }
    if (this.bom === 3) this.bom = -1;
    else if (i < b.length) {
      // Not a mark: the bytes that looked like its start are the first line's.
      if (this.bom > 0) this.add(Buffer.from(BOM.slice(0, this.bom)), 0, this.bom);
      this.bom = -1;
    }
    return i;
  }

  /** The line that ends at b[nl] (a LF), its bytes in this chunk from `from`. */
  private take(b: Buffer, from: number, nl: number): LineEntry {
    if (this.bytes === 0 && nl - from <= this.maxChars + 1) {
      // All of it in this chunk, and within the bound: decoded straight from the chunk, on its own.
      // (Decoding the chunk once and splitting the text made each line a slice of the chunk's
      // string, which the converter's depth scan and JSON.parse read a fifth slower.)
      return b.toString('utf8', from, nl > from && b[nl - 1] === CR ? nl - 1 : nl);
    }
    this.add(b, from, nl);
    return this.finish(true);
  }

  /** Bytes b[from, end) of the current line (not its LF). */
  private add(b: Buffer, from: number, end: number): void {
    if (end <= from) return;
    this.bytes += end - from;
    this.lastByte = b[end - 1];
    if (!this.counter && this.bytes > this.maxChars + 1) {
      // It may be over the bound now: its characters are counted from here on.
      this.counter = new Utf16Counter();
      this.counter.write(new Uint8Array(this.gathered, 0, this.used));
    }
    this.counter?.write(b.subarray(from, end));
    if (this.over) this.release();
    else this.gather(b.subarray(from, end));
  }

  /** Its characters past the bound: it is dropped, only counted. */
  private get over(): boolean {
    return (this.counter?.units ?? 0) > this.maxChars + 1;
  }

  private gather(bytes: Uint8Array): void {
    const need = this.used + bytes.length;
    if (need > this.gathered.byteLength) this.gathered.resize(Math.min(this.gathered.maxByteLength, Math.max(need, 2 * this.gathered.byteLength, 1 << 16)));
    new Uint8Array(this.gathered, this.used, bytes.length).set(bytes);
    this.used = need;
  }

  /** The current line, ended by a LF (`byLf`) or by the end of the input. */
  private finish(byLf: boolean): LineEntry {
    const counter = this.counter;
    counter?.end();
    const cr = byLf && this.lastByte === CR ? 1 : 0;
    let entry: LineEntry;
    if (counter && this.over) entry = counter.nonBlank ? counter.units - cr : '';
    else entry = Buffer.from(this.gathered, 0, this.used - cr).toString('utf8');
    this.release();
    this.bytes = 0;
    this.counter = undefined;
    this.lastByte = -1;
    return entry;
  }

  private release(): void {
    this.used = 0;
    if (this.gathered.byteLength > KEEP_BYTES) this.gathered.resize(0);
  }
}
