// The JSON size of the frames the history has measured: its byte budget counts every frame it
// keeps, and fitting a frame to a limit (frameFit.ts: a history's frames against a peer's frame
// budget, a replay to the view) reads it instead of serializing the frame again. For a full 8 MB
// ring that took 40–54 ms on this machine, once per attach (decision 516).
const sizes = new WeakMap<object, number>();

/** `frame`'s JSON is `bytes` long in UTF-8 (frames are never mutated once published). */
export function rememberSize(frame: object, bytes: number): void {
  sizes.set(frame, bytes);
}

/** The size remembered for `frame`, if any. */
export function knownSize(frame: object): number | undefined {
  return sizes.get(frame);
}
