// A frame for a peer that announced `max_frame_size` in its session.capabilities (§12.2): the largest
// frame it takes. A peer's WebSocket closes on a bigger message (1009), and a master that reattaches
// would get the same frame again in its session.history, closing again, for as long as the frame is
// in history. So the hub never sends a peer more than it announced (decision 515):
//  - a frame over the limit goes with its longest strings cut in the middle (decision 516: the start
//    says what it is, the end is where a command's error or a log's last lines are), a mark saying
//    how many characters are left out where the cut is (cutMark), and `metadata.x_rawp_clipped`
//    saying so (its size before, the limit, the cut fields); where no string is worth cutting, its
//    biggest list or object is replaced by CLIP_MARK instead;
//  - a session.history has each frame in it fitted the same way (to a quarter of the limit), then,
//    if the whole is still too big, its oldest frames dropped, counted in `lost_frame_count`, with `truncated: true` (§7.8.3);
//  - a frame that cannot be fitted (nothing left to clip, or its schema refuses the clipped form)
//    is not sent: undefined, and the hub tells the peer with a session.error instead.
import type { WireFrame } from '../protocol/frameTypes';
import { cutMark } from '../protocol/cutMark';
import { bytesOver, utf8Length } from '../protocol/limits';
import { parseFrame } from '../protocol/parse';
import { frameText } from './frameText';
import { knownSize } from './frameSizes';

/** Stands for a list or object left out whole: the peer's user sees something was removed. */
export const CLIP_MARK = ' …[clipped: larger than this connection takes]';

/** The longest a cutMark can be (a count of 16 digits). */
const CUT_MARK_ROOM = cutMark(10 ** 15).length;

/** Room kept for the metadata note and the marks (bytes). */
const NOTE_ROOM = 512;
/** Rounds of clipping before giving up (each cuts one string by at least what is over, or one list). */
const MAX_ROUNDS = 32;

type Json = Record<string, unknown>;

/** The frame as it may go to a peer that takes at most `limit` bytes, or undefined if it cannot. */
export function fitFrame(frame: WireFrame, limit: number): WireFrame | undefined {
  // A size the history measured answers it without serializing the frame again (a replay).
  const known = knownSize(frame);
  if (known !== undefined && known <= limit) return frame;
  const text = frameText(frame);
  if (bytesOver(text, limit) === 0) return frame;
  if (frame.type === 'session.history') return fitHistory(copyOf(frame) as Json, limit, Math.floor(limit / 4));
  return clipStrings(copyOf(frame) as Json, limit, text);
}

/**
 * The frame as a peer may be given it: within the `max_frame_size` it announced (the whole frame, a
 * session.history as a whole), and within its frame budget (`x-rawp.frame_budget`, decision 516:
 * each frame, and each frame of a history, none left out). Undefined if it cannot be fitted.
 */
export function fitForPeer(frame: WireFrame, maxFrameSize: number | undefined, budget: number | undefined): WireFrame | undefined {
  if (frame.type !== 'session.history') {
    const limit = Math.min(maxFrameSize ?? Infinity, budget ?? Infinity);
    return limit === Infinity ? frame : fitFrame(frame, limit);
  }
  if (budget === undefined) return maxFrameSize === undefined ? frame : fitFrame(frame, maxFrameSize);
  const whole = maxFrameSize === undefined || bytesOver(frameText(frame), maxFrameSize) === 0;
  if (whole && !hasFrameOver(frame, budget)) return frame;
  return fitHistory(copyOf(frame) as Json, maxFrameSize ?? Infinity, Math.min(maxFrameSize === undefined ? Infinity : Math.floor(maxFrameSize / 4), budget));
}

/** Whether a session.history holds a frame over `bytes` (sizes the history measured are read, not measured again). */
function hasFrameOver(history: WireFrame, bytes: number): boolean {
  return (history.payload as { frames: object[] }).frames.some((f) => {
    const known = knownSize(f);
    return known !== undefined ? known > bytes : bytesOver(JSON.stringify(f), bytes) > 0;
  });
}

/** A copy of `value`'s arrays and objects sharing its strings (immutable): what fitting may change
 *  is copied, at a cost per node, not per byte (JSON.parse of a 20 MB text took ~100 ms). */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) if (v !== undefined) out[k] = copyOf(v);
  return out;
}

interface Leaf {
  holder: Json | unknown[];
  key: string | number;
  path: string;
  value: string;
}

/** Every string under the payload, with where it sits. */
function stringLeaves(value: unknown, path: string, out: Leaf[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => (typeof v === 'string' ? out.push({ holder: value, key: i, path: `${path}[${i}]`, value: v }) : stringLeaves(v, `${path}[${i}]`, out)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Json)) {
      if (typeof v === 'string') out.push({ holder: value as Json, key: k, path: `${path}.${k}`, value: v });
      else stringLeaves(v, `${path}.${k}`, out);
    }
  }
}

/** The largest array or object under `value` (by JSON length), with where it sits. */
function biggestContainer(value: unknown, path: string): (Omit<Leaf, 'value'> & { size: number }) | undefined {
  let best: (Omit<Leaf, 'value'> & { size: number }) | undefined;
  const visit = (holder: Json | unknown[], key: string | number, v: unknown, at: string): void => {
    if (v === null || typeof v !== 'object') return;
    const size = JSON.stringify(v).length;
    if (!best || size > best.size) best = { holder, key, path: at, size };
  };
  if (Array.isArray(value)) value.forEach((v, i) => visit(value, i, v, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value as Json)) visit(value as Json, k, v, `${path}.${k}`);
  return best;
}

/** `s` cut to at most `keep` UTF-16 units, never between the halves of a surrogate pair. */
function cutAt(s: string, keep: number): string {
  let end = Math.max(0, keep);
  const c = s.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}

/** The last `keep` UTF-16 units of `s` at most, never starting between the halves of a surrogate pair. */
function lastOf(s: string, keep: number): string {
  let start = s.length - Math.max(0, Math.min(keep, s.length));
  const c = s.charCodeAt(start);
  if (start < s.length && c >= 0xdc00 && c <= 0xdfff) start++;
  return s.slice(start);
}

/** `original` with its middle cut so that at most `keep` of its units are left, and the mark between. */
function cutMiddle(original: string, keep: number): { value: string; removed: number } {
  const head = cutAt(original, Math.ceil(Math.max(0, keep) / 2));
  const tail = lastOf(original, Math.max(0, keep) - head.length);
  const removed = original.length - head.length - tail.length;
  return { value: head + cutMark(removed) + tail, removed };
}

/** Cuts the payload's longest strings until the frame fits; checks the result against its schema. */
function clipStrings(copy: Json, limit: number, frameJson: string): WireFrame | undefined {
  const originalBytes = utf8Length(frameJson);
  const clipped = new Set<string>();
  /** Strings cut so far: what they were, and how many units are gone. */
  const cuts = new Map<string, { original: string; removed: number }>();
  const room = limit - NOTE_ROOM;
  if (room <= 0) return undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // The first round measures the frame's own text (a 20 MB text is not written again). What is
    // over is counted as bytesOver counts it: UTF-16 units where the length alone decides.
    const over = bytesOver(round === 0 ? frameJson : JSON.stringify(copy), room);
    if (over === 0) {
      copy.metadata = { ...((copy.metadata as Json | undefined) ?? {}), x_rawp_clipped: { original_bytes: originalBytes, max_frame_size: limit, fields: [...clipped] } };
      // A tool result has a field of its own for this (§5.3.1 `truncated`).
      if (copy.type === 'tool.invoke.result') (copy.payload as Json).truncated = true;
      const text = JSON.stringify(copy);
      if (bytesOver(text, limit) > 0 || parseFrame(text).kind !== 'accepted') return undefined;
      return copy as unknown as WireFrame;
    }
    const leaves: Leaf[] = [];
    stringLeaves(copy.payload, 'payload', leaves);
    let longest: Leaf | undefined;
    for (const l of leaves) if (!longest || l.value.length > longest.value.length) longest = l;
    if (!longest || longest.value.length <= CUT_MARK_ROOM * 2) {
      // No string worth clipping: the biggest list or object goes, replaced by the mark (its
      // schema may refuse that: checked at the end).
      const biggest = biggestContainer(copy.payload, 'payload');
      if (!biggest) return undefined;
      (biggest.holder as Record<string | number, unknown>)[biggest.key] = CLIP_MARK;
      clipped.add(biggest.path);
      continue;
    }
    // Removing `over` UTF-16 units removes at least `over` bytes (each is one to six in JSON); the
    // mark's bytes are in CUT_MARK_ROOM. A string cut again is cut from its original, so it has
    // one mark, with the whole count. Cut to nothing, it leaves the next longest for the next round.
    const earlier = cuts.get(longest.path);
    const original = earlier?.original ?? longest.value;
    const kept = original.length - (earlier?.removed ?? 0);
    const cut = cutMiddle(original, kept - over - CUT_MARK_ROOM);
    (longest.holder as Record<string | number, unknown>)[longest.key] = cut.value;
    cuts.set(longest.path, { original, removed: cut.removed });
    clipped.add(longest.path);
  }
  return undefined;
}

/** A session.history that fits: its frames fitted one by one (to `each`), then, if it is still over
 *  `limit` as a whole (Infinity: no such limit), its oldest frames dropped. */
function fitHistory(copy: Json, limit: number, each: number): WireFrame | undefined {
  const payload = copy.payload as { frames: Json[]; buffer_status: { truncated: boolean; lost_frame_count?: number } };
  let lost = 0;
  const fitted: { frame: WireFrame; bytes: number }[] = [];
  for (const inner of payload.frames) {
    // A quarter of the limit each (at most): one huge frame must not crowd every other out of the history.
    const one = fitFrame(inner as unknown as WireFrame, each);
    if (one) fitted.push({ frame: one, bytes: utf8Length(JSON.stringify(one)) });
    else lost++;
  }
  // The envelope without frames, then frames from the newest back while they fit.
  payload.frames = [];
  let total = utf8Length(JSON.stringify(copy)) + 64; // room for the counts set below
  let first = fitted.length;
  while (first > 0 && total + fitted[first - 1].bytes + 1 <= limit) total += fitted[--first].bytes + 1;
  lost += first;
  payload.frames = fitted.slice(first).map((f) => f.frame as unknown as Json);
  if (lost > 0) {
    payload.buffer_status = { ...payload.buffer_status, truncated: true, lost_frame_count: (payload.buffer_status.lost_frame_count ?? 0) + lost };
  }
  const text = JSON.stringify(copy);
  if (bytesOver(text, limit) > 0 || parseFrame(text).kind !== 'accepted') return undefined;
  return copy as unknown as WireFrame;
}

/** The session.error a peer gets instead of a frame that could not be fitted; `what` names the limit. */
export function tooLargeNote(frame: WireFrame, limit: number, what = `the max_frame_size of ${limit} bytes this connection announced`): { error_code: string; message: string; fatal: false } {
  return { error_code: 'FRAME_TOO_LARGE', message: `a ${frame.type} frame was not sent: it does not fit ${what}, even with its text cut`, fatal: false };
}

/** The note for a frame fitForPeer could not fit, naming the limit that was too small. */
export function tooLargeForPeer(frame: WireFrame, maxFrameSize: number | undefined, budget: number | undefined): ReturnType<typeof tooLargeNote> {
  return budget !== undefined && (maxFrameSize === undefined || budget < maxFrameSize)
    ? tooLargeNote(frame, budget, `the frame budget of ${budget} bytes this connection announced`)
    : tooLargeNote(frame, maxFrameSize ?? Infinity);
}
