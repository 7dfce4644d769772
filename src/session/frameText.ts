// The JSON text of a frame, serialized once per frame object however many places need it: the
// history's byte budget, every WebSocket a frame fans out to (§2.4), and the journal. The hub
// hands a frame to history and then to every connection, but a control's handling may publish
// other frames in between (a prompt's turn start, state change, an agent's first event), so the
// last few frames are remembered, not only the last one: a 4 MiB prompt was serialized twice
// (about 40 ms each here), once for history and again for its relay. Frames are never mutated
// once published.

/** How many frames are remembered: the frames one handling publishes before its deliveries. */
const REMEMBERED = 4;

const frames: (object | undefined)[] = new Array(REMEMBERED).fill(undefined);
const texts: string[] = new Array(REMEMBERED).fill('');
let next = 0;

/** JSON.stringify(frame), computed once for the same object among the last few. Throws what it throws. */
export function frameText(frame: object): string {
  for (let i = 0; i < REMEMBERED; i++) if (frames[i] === frame) return texts[i];
  const text = JSON.stringify(frame);
  frames[next] = frame;
  texts[next] = text;
  next = (next + 1) % REMEMBERED;
  return text;
}
