// parseFrame: text (or an already-decoded value) -> one of three outcomes. Never throws.
// Postel's law (§2.2, §14.2): unknown payload keys are kept for relaying, unknown types are
// ignored and logged, an unsupported `v` or an invalid known payload is answered with a
// non-fatal `session.error` that names the bad field.
// Input limits come first (DESIGN.md: everything from outside is data with limits): size, then
// nesting depth and (for a peer's frames) width, all checked before anything recursive touches the
// value. A frame nested ~5,000 levels parses with JSON.parse but makes a later JSON.stringify throw
// RangeError (issue 12 #1); one object of 471,000 keys froze the host for seconds (decision 563).
// A frame over a limit is refused whatever its type: its type is not read until it is parsed.
import type { z } from 'zod';
import { Envelope, ENVELOPE_VERSION } from './envelope';
import { FRAME_TYPES, isFrameType, isVendorType, type Frame, type VendorFrame } from './frameTypes';
import { bytesOver, scanJsonText, utf8Length, valueOverLimits } from './limits';
import { INCOMING_MAX_ID_CHARS, overlongId } from './idLength';

export type ParseErrorCode = 'MALFORMED_JSON' | 'INVALID_ENVELOPE' | 'UNSUPPORTED_VERSION' | 'INVALID_PAYLOAD' | 'FRAME_TOO_LARGE' | 'FRAME_TOO_DEEP' | 'FRAME_TOO_WIDE';

export interface ParseErrorInfo {
  error_code: ParseErrorCode;
  message: string;
  fatal: false;
}

export type ParseOutcome =
  /** A known frame, validated; or a vendor (`x-…`) frame, envelope-validated, payload opaque. */
  | { kind: 'accepted'; frame: Frame; vendor: false }
  | { kind: 'accepted'; frame: VendorFrame; vendor: true }
  /** Unknown type: ignore and log, never an error (§2.2). */
  | { kind: 'ignored'; reason: string; type: string; session_id?: string }
  /** Ignore the frame and send this back as `session.error` (fatal: false). */
  | { kind: 'error'; error: ParseErrorInfo; type?: string; session_id?: string; message_id?: string };

/**
 * Deepest nesting of arrays and objects a frame may have by default. The deepest frame we make
 * ourselves is a `session.history` (frame > payload > frames[] > frame > payload) around a peer
 * frame, and peers are held to INCOMING_MAX_DEPTH, so every frame we relay parses here too.
 */
export const DEFAULT_MAX_DEPTH = 128;
/** What the hub accepts from a peer: real DPS payloads nest a handful of levels, JSON args a few more. */
export const INCOMING_MAX_DEPTH = 64;
/**
 * Members one object of a peer's frame may have (decision 563). A payload has a handful of keys
 * (unknown ones are kept, §14.2.2, a few per newer peer); what a master sends with the most keys
 * is a JSON Schema's `properties`. Each key costs in JSON.parse, in zod and in every copy of the
 * payload: 471,000 of them kept the host busy 5–30 s, 1,000 cost a few ms.
 */
export const INCOMING_MAX_OBJECT_MEMBERS = 1_000;
/**
 * Values (object members plus array elements, at every level) a peer's frame may hold. The most a
 * master sends is an `x-rawp.checkpoint.restore` naming 10,000 paths to force and 10,000 to
 * restore (~20,010 values); a prompt with 2,000 file references holds ~16,000.
 */
export const INCOMING_MAX_VALUES = 25_000;

export interface ParseOptions {
  /** Reject text longer than this many UTF-8 bytes (the advertised `max_frame_size`). */
  maxBytes?: number;
  /** Reject frames nesting arrays/objects deeper than this (default DEFAULT_MAX_DEPTH). */
  maxDepth?: number;
  /** Reject frames with an object of more members than this (default: no bound). */
  maxObjectMembers?: number;
  /** Reject frames holding more values, object members and array elements, than this (default: no bound). */
  maxValues?: number;
  /** Reject frames with an id (envelope ids, a payload's `…_id`) longer than this (default: no bound; idLength.ts). */
  maxIdChars?: number;
}

/** What a peer's frames are held to (peerIntake.ts): size is the connection's, the rest fixed. */
export const INCOMING_LIMITS = { maxDepth: INCOMING_MAX_DEPTH, maxObjectMembers: INCOMING_MAX_OBJECT_MEMBERS, maxValues: INCOMING_MAX_VALUES, maxIdChars: INCOMING_MAX_ID_CHARS } as const;

export function parseFrame(input: string | unknown, options: ParseOptions = {}): ParseOutcome {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (typeof input !== 'string') return parseValue(input, options);
  if (options.maxBytes !== undefined && bytesOver(input, options.maxBytes) > 0) {
    return fail('FRAME_TOO_LARGE', `frame of ${input.length > options.maxBytes ? `at least ${input.length}` : utf8Length(input)} bytes exceeds max_frame_size ${options.maxBytes}`);
  }
  // Depth and width are read off the text in one linear pass before JSON.parse builds anything.
  const over = scanJsonText(input, { ...options, maxDepth }).over;
  if (over !== undefined) return overLimit(over, options);
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (e) {
    return fail('MALFORMED_JSON', `frame is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return withIdBound(classifySafely(value), value, options);
}

/**
 * Validates a decoded JSON value as a frame (postMessage, a history entry). Never throws, even on
 * hostile objects (getters, proxies, cycles): depth, width and size are measured first, without recursion.
 */
export function parseValue(value: unknown, options: ParseOptions = {}): ParseOutcome {
  let over: ReturnType<typeof valueOverLimits>;
  try {
    over = valueOverLimits(value, { ...options, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH });
  } catch (e) {
    return fail('INVALID_ENVELOPE', `frame could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (over === 'size') return fail('FRAME_TOO_LARGE', `frame exceeds max_frame_size ${options.maxBytes}`);
  if (over !== undefined) return overLimit(over, options);
  return withIdBound(classifySafely(value), value, options);
}

/**
 * A frame with an over-long id is refused (idLength.ts), and no refusal echoes such an id back as
 * its parent_id: the answer to a 4 MiB id would be a 4 MiB error.
 */
function withIdBound(outcome: ParseOutcome, value: unknown, options: ParseOptions): ParseOutcome {
  const max = options.maxIdChars;
  if (max === undefined || outcome.kind === 'ignored') return outcome;
  if (outcome.kind === 'error') return outcome.message_id !== undefined && outcome.message_id.length > max ? { ...outcome, message_id: undefined } : outcome;
  const over = overlongId(value as Record<string, unknown>, max);
  if (!over) return outcome;
  return fail(over.field.startsWith('payload.') ? 'INVALID_PAYLOAD' : 'INVALID_ENVELOPE', `${over.field} of ${over.length.toLocaleString('en')} characters is longer than the ${max} an id may have; the frame was dropped`);
}

/** The refusal of a frame over its depth or width bound (non-fatal; the frame is not read further). */
function overLimit(over: 'depth' | 'members' | 'values', options: ParseOptions): ParseOutcome {
  if (over === 'depth') return fail('FRAME_TOO_DEEP', `frame nests arrays/objects deeper than ${options.maxDepth ?? DEFAULT_MAX_DEPTH} levels`);
  if (over === 'members') return fail('FRAME_TOO_WIDE', `frame has an object of more than ${count(options.maxObjectMembers)} members (keys); the frame was dropped`);
  return fail('FRAME_TOO_WIDE', `frame holds more than ${count(options.maxValues)} values (object members and array elements together); the frame was dropped`);
}

const count = (n: number | undefined): string => (n ?? Number.POSITIVE_INFINITY).toLocaleString('en');

function classifySafely(value: unknown): ParseOutcome {
  try {
    return classify(value);
  } catch (e) {
    return fail('INVALID_ENVELOPE', `frame could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function classify(value: unknown): ParseOutcome {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('INVALID_ENVELOPE', 'frame must be a JSON object');
  }
  const raw = value as Record<string, unknown>;
  const ids = {
    type: typeof raw.type === 'string' ? raw.type : undefined,
    session_id: typeof raw.session_id === 'string' ? raw.session_id : undefined,
    message_id: typeof raw.message_id === 'string' ? raw.message_id : undefined,
  };
  // §2.2: check `v` before anything else so a future envelope is never misread as ours.
  if (raw.v !== ENVELOPE_VERSION) {
    return { kind: 'error', ...ids, error: err('UNSUPPORTED_VERSION', `unsupported envelope version v=${JSON.stringify(raw.v)}; this peer speaks v=1`) };
  }
  // §2.2 / §14.2.1: a type we cannot handle is ignored and logged, never an error — even when the
  // rest of its envelope is not what we expect (a newer peer may shape it differently).
  // Vendor types (§3.1.1) are "unknown types we may ignore" too, unless their envelope is ours.
  if (ids.type !== undefined && !isFrameType(ids.type)) {
    const env = isVendorType(ids.type) ? Envelope.safeParse(raw) : undefined;
    if (env?.success) return { kind: 'accepted', vendor: true, frame: env.data as VendorFrame };
    return { kind: 'ignored', type: ids.type, session_id: ids.session_id, reason: `unknown frame type "${ids.type}" ignored (§2.2)` };
  }
  const env = Envelope.safeParse(raw);
  if (!env.success) {
    return { kind: 'error', ...ids, error: err('INVALID_ENVELOPE', `invalid envelope: ${describeIssues(env.error)}`) };
  }
  const type = env.data.type;
  if (isFrameType(type)) {
    const payload = FRAME_TYPES[type].payload.safeParse(env.data.payload);
    if (!payload.success) {
      return { kind: 'error', ...ids, error: err('INVALID_PAYLOAD', `${type}: ${describeIssues(payload.error, 'payload')}`) };
    }
    return { kind: 'accepted', vendor: false, frame: { ...env.data, type, payload: payload.data } as Frame };
  }
  // Unreachable: a string type that is not a known type returned above, and a non-string type
  // failed the envelope. Kept so the function stays total if the envelope schema changes.
  return { kind: 'ignored', type, session_id: ids.session_id, reason: `unknown frame type "${type}" ignored (§2.2)` };
}

/** "payload.options[0].label: expected string, received number; …" — the path a developer can act on. */
export function describeIssues(error: z.ZodError, prefix?: string): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const path = [prefix, ...i.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
        .filter((p) => p !== undefined && p !== '')
        .join('.')
        .replace(/\.\[/g, '[');
      return `${path || '(root)'}: ${i.message}`;
    })
    .join('; ')
    .concat(error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '');
}

function err(code: ParseErrorCode, message: string): ParseErrorInfo {
  return { error_code: code, message, fatal: false };
}

function fail(code: ParseErrorCode, message: string): ParseOutcome {
  return { kind: 'error', error: err(code, message) };
}

