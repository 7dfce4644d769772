// A frame for a peer that announced `max_frame_size` in its session.capabilities (§12.2): the largest
// frame it takes. A peer's WebSocket closes on a bigger message (1009), and a master that reattaches
// would get the same frame again in its session.history, closing again, for as long as the frame is
// in history. So the hub never sends a peer more than it announced (decision 515):
//  - a frame over the limit goes with its longest strings clipped (each ends with CLIP_MARK) and
//    `metadata.x_rawp_clipped` saying so (its size before, the limit, the clipped fields); where no
//    string is worth clipping, its biggest list or object is replaced by the mark instead;
//  - a session.history has each frame in it fitted the same way (to a quarter of the limit), then,
//    if the whole is still too big, its oldest frames dropped, counted in `lost_frame_count`, with `truncated: true` (§7.8.3);
//  - a frame that cannot be fitted (nothing left to clip, or its schema refuses the clipped form)
//    is not sent: undefined, and the hub tells the peer with a session.error instead.
import type { WireFrame } from '../protocol/frameTypes';
import { bytesOver, utf8Length } from '../protocol/limits';
import { parseFrame } from '../protocol/parse';
import { frameText } from './frameText';

/** Ends every clipped string: the peer's user sees the text was cut, not where the output ended. */
export const CLIP_MARK = ' …[clipped: larger than this connection takes]';

/** Room kept for the metadata note and the marks (bytes). */
const NOTE_ROOM = 512;
/** Rounds of clipping before giving up (each cuts one string by at least what is over, or one list). */
const MAX_ROUNDS = 32;

type Json = Record<string, unknown>;

/** The frame as it may go to a peer that takes at most `limit` bytes, or undefined if it cannot. */
export function fitFrame(frame: WireFrame, limit: number): WireFrame | undefined {
  const text = frameText(frame);
  if (bytesOver(text, limit) === 0) return frame;
  if (frame.type === 'session.history') return fitHistory(JSON.parse(text) as Json, limit);
  return clipStrings(JSON.parse(text) as Json, limit, utf8Length(text));
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

/** Clips the payload's longest strings until the frame fits; checks the result against its schema. */
function clipStrings(copy: Json, limit: number, originalBytes: number): WireFrame | undefined {
  const clipped = new Set<string>();
  const room = limit - NOTE_ROOM;
  if (room <= 0) return undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const over = bytesOver(JSON.stringify(copy), room);
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
    if (!longest || longest.value.length <= CLIP_MARK.length * 2) {
      // No string worth clipping: the biggest list or object goes, replaced by the mark (its
      // schema may refuse that: checked at the end).
      const biggest = biggestContainer(copy.payload, 'payload');
      if (!biggest) return undefined;
      (biggest.holder as Record<string | number, unknown>)[biggest.key] = CLIP_MARK;
      clipped.add(biggest.path);
      continue;
    }
    // Removing `over` UTF-16 units removes at least `over` bytes (each is one to six in JSON); the
    // mark's own bytes are in NOTE_ROOM. A string cut to nothing leaves the next longest for the next round.
    const base = longest.value.endsWith(CLIP_MARK) ? longest.value.slice(0, -CLIP_MARK.length) : longest.value;
    const keep = base.length - over - CLIP_MARK.length;
    (longest.holder as Record<string | number, unknown>)[longest.key] = cutAt(base, keep) + CLIP_MARK;
    clipped.add(longest.path);
  }
  return undefined;
}

/** A session.history that fits: its frames fitted one by one, then the oldest dropped if need be. */
function fitHistory(copy: Json, limit: number): WireFrame | undefined {
  const payload = copy.payload as { frames: Json[]; buffer_status: { truncated: boolean; lost_frame_count?: number } };
  let lost = 0;
  const fitted: { frame: WireFrame; bytes: number }[] = [];
  for (const inner of payload.frames) {
    // A quarter of the limit each: one huge frame must not crowd every other out of the history.
    const one = fitFrame(inner as unknown as WireFrame, Math.floor(limit / 4));
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

/** The session.error a peer gets instead of a frame that could not be fitted. */
export function tooLargeNote(frame: WireFrame, limit: number): { error_code: string; message: string; fatal: false } {
  return { error_code: 'FRAME_TOO_LARGE', message: `a ${frame.type} frame was not sent: it does not fit the max_frame_size of ${limit} bytes this connection announced, even with its text clipped`, fatal: false };
}
