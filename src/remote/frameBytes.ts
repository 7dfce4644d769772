// The UTF-8 bytes of a frame's JSON (src/session/frameText.ts), encoded once per frame object:
// the session journal writes them (src/host/journal) and then every master's socket sends the same
// Buffer as a text frame, instead of each encoding the string again (16 masters, 16 encodings;
// and the journal's own line was one more copy and encoding of the whole frame). The hub hands one
// frame to history and the journal and then to every connection, with a few other frames published
// in between at most, so the last few are remembered (as frameText does). Frames are never mutated
// once published.
import { frameText } from '../session/frameText';

const REMEMBERED = 4;

const frames: (object | undefined)[] = new Array(REMEMBERED).fill(undefined);
const encoded: Buffer[] = new Array(REMEMBERED).fill(Buffer.alloc(0));
let next = 0;

/** Buffer.from(frameText(frame)), computed once for the same object among the last few. Throws what JSON.stringify throws. */
export function frameBytes(frame: object): Buffer {
  for (let i = 0; i < REMEMBERED; i++) if (frames[i] === frame) return encoded[i];
  const bytes = Buffer.from(frameText(frame), 'utf8');
  frames[next] = frame;
  encoded[next] = bytes;
  next = (next + 1) % REMEMBERED;
  return bytes;
}
