// The JSON text of a frame, serialized once per frame object however many places need it: the
// history's byte budget, every WebSocket a frame fans out to (§2.4), and the journal. The hub
// hands one frame to history and then to every connection in turn, so remembering the last frame
// serialized is enough (and cheaper than a WeakMap). Frames are never mutated once published.

let lastFrame: object | undefined;
let lastText = '';

/** JSON.stringify(frame), computed once for the same object in a row. Throws what it throws. */
export function frameText(frame: object): string {
  if (frame !== lastFrame) {
    lastText = JSON.stringify(frame);
    lastFrame = frame;
  }
  return lastText;
}
