// How long a line of UTF-8 bytes is as a string (UTF-16 code units, what the 64 Mi bound counts),
// and whether it holds anything but white space, from its bytes as they come (decision 736). A line
// near the bound is counted while it is gathered, so that one past it is dropped, not held: decoding
// it to count it took as long as decoding it to keep it. Valid UTF-8 is counted from its bytes
// instead: a unit per byte of ASCII, else one per character and two for a 4-byte one. Anything
// else, and the text looked at for white space, is decoded as the whole text would be (Buffer's
// decoder, as `rawp convert FILE` reads it).
import { isAscii, isUtf8 } from 'node:buffer';

const SLICE = 1 << 16;

export class Utf16Counter {
  units = 0;
  nonBlank = false;
  /** The bytes of a character the last piece ended in the middle of (at most 3). */
  private tail: number[] = [];

  write(bytes: Uint8Array): void {
    // In slices: text decoded to be counted is garbage at once, and stays small.
    for (let i = 0; i < bytes.length; i += SLICE) this.slice(bytes.subarray(i, i + SLICE));
  }

  /** The bytes ended: a character left unfinished is one replacement character (as decoding gives). */
  end(): void {
    if (this.tail.length) this.counted(Buffer.from(this.tail));
    this.tail = [];
  }

  private slice(bytes: Uint8Array): void {
    let from = 0;
    if (this.tail.length) {
      // Finish the carried character with the continuation bytes it still needs, and count it alone:
      // after a whole character, or after the byte a decoder stops at, decoding starts afresh.
      const need = sequenceLength(this.tail[0]) - this.tail.length;
      while (from < bytes.length && from < need && isContinuation(bytes[from])) from++;
      if (from === need || from < bytes.length) this.counted(Buffer.from([...this.tail, ...bytes.subarray(0, from)]));
      else {
        this.tail.push(...bytes);
        return;
      }
      this.tail = [];
    }
    // A character cut at the end is carried: it starts at the last byte that is not a continuation.
    let cut = bytes.length;
    for (let i = bytes.length - 1; i >= from && i >= bytes.length - 3; i--) {
      if (isContinuation(bytes[i])) continue;
      if (i + sequenceLength(bytes[i]) > bytes.length) cut = i;
      break;
    }
    if (cut > from) this.counted(bytes.subarray(from, cut));
    this.tail = [...bytes.subarray(cut)];
  }

  private counted(bytes: Uint8Array): void {
    if (this.nonBlank && isAscii(bytes)) {
      this.units += bytes.length;
      return;
    }
    if (this.nonBlank && isUtf8(bytes)) {
      this.units += validUnits(bytes);
      return;
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    this.units += text.length;
    if (!this.nonBlank && /\S/.test(text)) this.nonBlank = true;
  }
}

function isContinuation(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/** Bytes of the sequence `lead` starts (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** UTF-16 units of valid UTF-8: bytes that start a character, plus one per 4-byte one (a surrogate
 * pair); four bytes at a time, their top bits counted together. */
function validUnits(bytes: Uint8Array): number {
  let units = 0;
  let i = 0;
  const one = (b: number) => (isContinuation(b) ? 0 : 1) + (b >= 0xf0 ? 1 : 0);
  // The bytes before the first 4-byte boundary one at a time (all of them when too few for a word).
  const head = (4 - (bytes.byteOffset & 3)) & 3;
  if (bytes.length < head + 4) {
    for (; i < bytes.length; i++) units += one(bytes[i]);
    return units;
  }
  for (; i < head; i++) units += one(bytes[i]);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (bytes.length - i) >>> 2);
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    const top = w & 0x80808080;
    const second = (w << 1) & 0x80808080;
    const continuation = top & ~second;
    const fourByte = top & second & (w << 2) & (w << 3);
    units += 4 - bitsAt7(continuation) + bitsAt7(fourByte);
  }
  for (i += words.length * 4; i < bytes.length; i++) units += one(bytes[i]);
  return units;
}

/** How many of bits 7, 15, 23 and 31 are set. */
function bitsAt7(x: number): number {
  return Math.imul((x >>> 7) & 0x01010101, 0x01010101) >>> 24;
}
