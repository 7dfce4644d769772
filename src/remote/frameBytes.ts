// The UTF-8 bytes of a frame's JSON (src/session/frameText.ts), encoded once per frame object:
// the session journal writes them (src/host/journal) and then every master's socket sends the same
// Buffer as a text frame, instead of each encoding the string again (16 masters, 16 encodings;
// and the journal's own line was one more copy and encoding of the whole frame). The hub hands one
// frame to history and the journal and then to every connection in turn, so remembering the last
// frame is enough. Frames are never mutated once published.
import { frameText } from '../session/frameText';

let lastFrame: object | undefined;
let lastBytes: Buffer = Buffer.alloc(0);

/** Buffer.from(frameText(frame)), computed once for the same object in a row. Throws what JSON.stringify throws. */
export function frameBytes(frame: object): Buffer {
  if (frame !== lastFrame) {
    lastBytes = Buffer.from(frameText(frame), 'utf8');
    lastFrame = frame;
  }
  return lastBytes;
}
