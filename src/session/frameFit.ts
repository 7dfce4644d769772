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
import { cutAt } from '../protocol/cutText';

/** Stands for a list or object left out whole: the peer's user sees something was removed. */
export const CLIP_MARK = ' …[clipped: larger than this connection takes]';

/** The longest a cutMark can be (a count of 16 digits). */
const CUT_MARK_ROOM = cutMark(10 ** 15).length;

/** Room kept for the metadata note and the marks (bytes). */
const NOTE_ROOM = 512;
/** The most a cut mark takes in JSON (its newlines are escaped, its ellipses are three bytes each). */
const MARK_BYTES = utf8Length(JSON.stringify(cutMark(10 ** 15))) - 2;
const CLIP_MARK_BYTES = utf8Length(JSON.stringify(CLIP_MARK));
/**
 * Rounds of clipping before giving up. A round gives up what the frame is over (decision 546):
 * the first counts each string's bytes per unit, the second one byte per unit (sure to be enough);
 * the third finds it fitting. Was 32 rounds of one string each: a frame of 38,000 short strings
 * for a 700-byte budget blocked the event loop 1.2 s.
 */
const MAX_ROUNDS = 4;

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
  /** The payload's key it sits under (undefined: a string of the payload itself). */
  top?: string;
}

/** Every string under the payload, with where it sits. */
function stringLeaves(value: unknown, path: string, out: Leaf[], top?: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => (typeof v === 'string' ? out.push({ holder: value, key: i, path: `${path}[${i}]`, value: v, top }) : stringLeaves(v, `${path}[${i}]`, out, top)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Json)) {
      if (typeof v === 'string') out.push({ holder: value as Json, key: k, path: `${path}.${k}`, value: v, top });
      else stringLeaves(v, `${path}.${k}`, out, top ?? k);
    }
  }
}

/** The payload's lists and objects, biggest (in bytes of JSON) first. */
function containersOf(payload: Json): { key: string; path: string; bytes: number }[] {
  const out: { key: string; path: string; bytes: number }[] = [];
  for (const [k, v] of Object.entries(payload)) if (v !== null && typeof v === 'object') out.push({ key: k, path: `payload.${k}`, bytes: utf8Length(JSON.stringify(v)) });
  return out.sort((x, y) => y.bytes - x.bytes);
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

/**
 * Cuts the payload's longest strings until the frame fits; checks the result against its schema.
 * Each round serializes the copy once and, in one pass, cuts as many of the longest strings as
 * cover what is over, or — where all of them could not — first drops the payload's biggest lists
 * or objects. A frame of 38,000 short strings costs two serializations, not one per string, and
 * no round depends on how small the limit is (decision 546).
 */
function clipStrings(copy: Json, limit: number, frameJson: string): WireFrame | undefined {
  const originalBytes = utf8Length(frameJson);
  const clipped = new Set<string>();
  /** Strings cut so far: what they were, and how many units are gone. */
  const cuts = new Map<string, { original: string; removed: number }>();
  const room = limit - NOTE_ROOM;
  if (room <= 0) return undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // Exact bytes (Node counts them natively): the first round measures the frame's own text.
    // The note names every cut field: its list counts too (a cut of 200 strings names 200 paths).
    const over = Math.max(0, (round === 0 ? originalBytes : utf8Length(JSON.stringify(copy))) + pathsBytes(clipped) - room);
    if (over === 0) {
      copy.metadata = { ...((copy.metadata as Json | undefined) ?? {}), x_rawp_clipped: { original_bytes: originalBytes, max_frame_size: limit, fields: [...clipped] } };
      // A tool result has a field of its own for this (§5.3.1 `truncated`).
      if (copy.type === 'tool.invoke.result') (copy.payload as Json).truncated = true;
      const text = JSON.stringify(copy);
      if (bytesOver(text, limit) > 0 || parseFrame(text).kind !== 'accepted') return undefined;
      return copy as unknown as WireFrame;
    }
    if (!shrink(copy, over, cuts, clipped, round > 0)) return undefined;
  }
  return undefined;
}

/**
 * One round: gives up at least `over` bytes of the payload, or as much as it can; false when it
 * can give up nothing. Strings are cut longest first, each only as much as still needed; a list
 * or object (CLIP_MARK in its place; its schema may refuse that, checked at the end) goes only
 * while cutting every string worth it outside it could not cover what is over.
 * A string's units are counted at its own bytes per unit (Korean text is three), so it is not cut
 * three times deeper than needed; `sure`: one byte per unit, the least a unit of JSON takes, so
 * what a cut is counted to give up it gives up (after the first round: a text whose middle is
 * ASCII and its ends not gives up less than its average). A mark takes at most MARK_BYTES. A
 * string cut again is cut from its original, so it has one mark, with the whole count.
 */
/** What the paths take in the note's `fields`. */
function pathsBytes(paths: Iterable<string>): number {
  let n = 0;
  for (const p of paths) n += pathBytes(p);
  return n;
}
const pathBytes = (p: string) => utf8Length(p) + 3;

function shrink(copy: Json, over: number, cuts: Map<string, { original: string; removed: number }>, clipped: Set<string>, sure: boolean): boolean {
  const payload = copy.payload as Json;
  const leaves: Leaf[] = [];
  stringLeaves(payload, 'payload', leaves);
  const worth = leaves
    .filter((l) => l.value.length > CUT_MARK_ROOM * 2)
    .map((l) => {
      const earlier = cuts.get(l.path);
      const bytes = utf8Length(JSON.stringify(l.value)) - 2; // as it is written: escapes count
      return { l, original: earlier?.original ?? l.value, removed: earlier?.removed ?? 0, bytes, perUnit: sure ? 1 : bytes / l.value.length };
    })
    .sort((x, y) => y.bytes - x.bytes);
  // What cutting every string could give up, in all and under each of the payload's keys.
  const under = new Map<string | undefined, number>();
  const costOf = (path: string) => (clipped.has(path) ? 0 : pathBytes(path));
  for (const w of worth) under.set(w.l.top, (under.get(w.l.top) ?? 0) + w.bytes - MARK_BYTES - costOf(w.l.path));
  let could = [...under.values()].reduce((x, y) => x + y, 0);
  let need = over;
  const dropped = new Set<string>();
  let containers: ReturnType<typeof containersOf> | undefined;
  while (could < need) {
    containers ??= containersOf(payload);
    const c = containers.find((x) => !dropped.has(x.key));
    if (!c) return dropped.size > 0;
    payload[c.key] = CLIP_MARK;
    need -= c.bytes - CLIP_MARK_BYTES - costOf(c.path);
    clipped.add(c.path);
    dropped.add(c.key);
    could -= under.get(c.key) ?? 0;
  }
  for (const w of worth) {
    if (need <= 0) break;
    if (w.l.top !== undefined && dropped.has(w.l.top)) continue;
    const kept = w.original.length - w.removed;
    const cut = cutMiddle(w.original, kept - Math.ceil((need + costOf(w.l.path)) / w.perUnit) - MARK_BYTES);
    const gain = Math.floor((cut.removed - w.removed) * w.perUnit) - MARK_BYTES - costOf(w.l.path);
    if (gain <= 0) continue;
    (w.l.holder as Record<string | number, unknown>)[w.l.key] = cut.value;
    cuts.set(w.l.path, { original: w.original, removed: cut.removed });
    clipped.add(w.l.path);
    need -= gain;
  }
  return true;
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
