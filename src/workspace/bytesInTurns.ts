// Linear work on a big file's bytes (hashing, UTF-8 encoding) done in slices with an event-loop
// turn between them. One `createHash().update()` of 20 MB held the loop for 10 ms here (40-50 ms
// on CPUs without SHA extensions), an encode as long again, and an edit did them back to back:
// other sessions, heartbeats and /v1/health waited for all of it. Each slice takes well under a
// millisecond; the results are byte-identical to doing it in one go (the tests compare them on
// random inputs). Decoding is not sliced: a flat 20 MB string costs ~10 ms to materialise however
// it is built (joining decoded slices took as long as one decode), so slices would only add work
// (decision 490).
import { createHash, type BinaryToTextEncoding } from 'node:crypto';

/** One slice of work between two turns: ~0.25 ms of SHA-256, of decoding or of encoding. */
export const SLICE_BYTES = 512 * 1024;

/** A turn of the event loop: timers, I/O and other sessions' work run before we go on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The digest of `parts` in order, as `createHash(algorithm)` over their concatenation gives it. */
export async function digestInTurns(algorithm: 'sha1' | 'sha256', parts: readonly Uint8Array[], encoding: BinaryToTextEncoding): Promise<string> {
  const hash = createHash(algorithm);
  let sinceTurn = 0;
  for (const bytes of parts) {
    for (let at = 0; at < bytes.byteLength; at += SLICE_BYTES) {
      if (sinceTurn >= SLICE_BYTES) {
        await nextTurn();
        sinceTurn = 0;
      }
      const slice = bytes.subarray(at, at + SLICE_BYTES);
      hash.update(slice);
      sinceTurn += slice.byteLength;
    }
  }
  return hash.digest(encoding);
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** `bytes` as UTF-8 text in one call (see the header: slicing gains no turn), the BOM kept in the text. */
export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** `text` as UTF-8 bytes, exactly as `Buffer.from(text, 'utf8')` gives them (lone surrogates as U+FFFD). */
export async function encodeUtf8InTurns(text: string): Promise<Buffer> {
  // A slice of at most SLICE_BYTES / 3 UTF-16 units is at most SLICE_BYTES bytes of UTF-8.
  const units = Math.floor(SLICE_BYTES / 3);
  if (text.length <= units) return Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8'));
  let written = 0;
  for (let from = 0; from < text.length; ) {
    if (from > 0) await nextTurn();
    let to = Math.min(text.length, from + units);
    // Never cut a surrogate pair: its halves alone would each be encoded as U+FFFD.
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1)) && isLowSurrogate(text.charCodeAt(to))) to++;
    written += out.write(text.slice(from, to), written, 'utf8');
    from = to;
  }
  if (written !== out.length) throw new Error(`UTF-8 encoding wrote ${written} of ${out.length} bytes`);
  return out;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
