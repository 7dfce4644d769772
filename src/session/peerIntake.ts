// What a frame a peer sent is, before the hub (hub.ts) acts on it: parsed within the limits
// (size, depth, width — over one, any frame is refused, whatever its type: decision 563; §2.2: an
// unknown type is ignored, a bad one refused), checked against the connection's session
// and against every message_id the session already knows — a frame reusing one would repoint that
// id in history and a reattach from it would miss everything after (§13.7), and processing a
// retried control once is the same rule — then sorted by what the hub does with it.
import type { Frame, VendorFrame } from '../protocol/frameTypes';
import { isControlType } from '../protocol/frameTypes';
import { INCOMING_LIMITS, parseFrame } from '../protocol/parse';
import { BinaryMessage, type VendorFrameHandler } from './hubContract';
import { MAX_SEEN_CONTROLS, PEER_SESSION_TYPES, type ConnRecord, type HubSession } from './hubRecords';
import { utf8Length, type Logger } from './ports';
import { CONTENT_CONTROLS, DEFAULT_PLAIN_CONTROL_BYTES, FrameBudget, overControlBytes } from './refusals';

export type PeerIntake =
  /** Answered with a non-fatal session.error to the sender only. */
  | { kind: 'refuse'; error_code: string; message: string; parent_id: string | undefined }
  /** Nothing to do (logged). */
  | { kind: 'ignore' }
  /** The peer's own session.capabilities (§13.1, §13.7). */
  | { kind: 'capabilities'; frame: Extract<Frame, { type: 'session.capabilities' }> }
  /** A vendor frame a host part handles (§3.1.1); its message_id is remembered. */
  | { kind: 'vendor'; frame: VendorFrame; handler: VendorFrameHandler }
  /** A control.* frame; its message_id is remembered. */
  | { kind: 'control'; frame: Frame }
  /** A master's upload announcement (§4.5.1), relayed like a control; its message_id is remembered. */
  | { kind: 'upload'; frame: Frame }
  /** A bidirectional session frame (PEER_SESSION_TYPES) for the session itself. */
  | { kind: 'session'; frame: Frame };

export interface IntakeOptions {
  maxFrameSize: number;
  vendorHandlers: ReadonlyMap<string, VendorFrameHandler>;
  /** A prompt the host admitted earlier (the queue releasing it) keeps the id its master gave it. */
  admitted: boolean;
  logger: Logger;
  /** Now, in ms (the byte budget of controls). */
  now: number;
}

export function intakePeerFrame(raw: unknown, rec: ConnRecord, s: HubSession, options: IntakeOptions): PeerIntake {
  const connection = rec.conn.id;
  if (raw instanceof BinaryMessage) return { kind: 'refuse', error_code: 'MALFORMED_JSON', message: `a binary WebSocket message (${raw.bytes} bytes) is not a frame: send each frame as one JSON text message (§2.1)`, parent_id: undefined };
  const outcome = parseFrame(raw, { ...INCOMING_LIMITS, maxBytes: options.maxFrameSize });
  if (outcome.kind === 'error') {
    options.logger.warn('rejected frame', { connection, ...outcome.error });
    return { kind: 'refuse', error_code: outcome.error.error_code, message: outcome.error.message, parent_id: outcome.message_id };
  }
  if (outcome.kind === 'ignored') {
    options.logger.info(outcome.reason, { connection });
    return { kind: 'ignore' };
  }
  withoutSyntheticMark(outcome.frame, connection, options.logger);
  if (outcome.vendor) {
    const vendor = outcome.frame;
    const handler = options.vendorHandlers.get(vendor.type);
    if (!handler) {
      options.logger.info(`vendor frame ${vendor.type} ignored`, { connection });
      return { kind: 'ignore' };
    }
    // Checked like a control (session, message_id), then handed over.
    if (vendor.session_id !== rec.session_id) return mismatch(vendor, rec);
    if (rec.phase === 'handshake') return beforeCapabilities(vendor);
    if (knownId(s, vendor.message_id)) return duplicate(vendor.message_id);
    // Decision 547's budget holds for vendor frames too: what they cause is published and kept (an
    // x-rawp.checkpoint.restore of an unknown checkpoint is answered to every connection, into
    // history), and ten masters sending them at their frame rate flushed the whole 8 MiB ring in 30 s.
    const over = overPlainControlBudget(raw, rec, s, vendor, options.now);
    if (over) return over;
    rememberControl(s, vendor.message_id, connection);
    return { kind: 'vendor', frame: vendor, handler };
  }
  const known = outcome.frame;
  if (known.session_id !== rec.session_id) return mismatch(known, rec);
  if (known.type === 'session.capabilities') return { kind: 'capabilities', frame: known };
  if (!options.admitted && knownId(s, known.message_id)) {
    options.logger.info('frame with a known message_id dropped', { connection, message_id: known.message_id });
    return duplicate(known.message_id);
  }
  const kept = isControlType(known.type) || known.type === 'agent.file.transfer';
  if (kept && rec.phase === 'handshake') return beforeCapabilities(known);
  if (kept && !CONTENT_CONTROLS.has(known.type)) {
    const over = overPlainControlBudget(raw, rec, s, known, options.now);
    if (over) return over;
  }
  if (isControlType(known.type)) {
    rememberControl(s, known.message_id, connection);
    return { kind: 'control', frame: known };
  }
  if (known.type === 'agent.file.transfer') {
    rememberControl(s, known.message_id, connection);
    return { kind: 'upload', frame: known };
  }
  if (PEER_SESSION_TYPES.has(known.type)) return { kind: 'session', frame: known };
  return { kind: 'refuse', error_code: 'UNEXPECTED_FRAME', message: `${known.type} is sent by the client, not by a master`, parent_id: known.message_id };
}

/**
 * §13.1: the capabilities exchange comes before every other frame, and a master prompts once the
 * opening is done. A master's control, upload or vendor frame while the hub still waits for its
 * session.capabilities is refused, not acted on (a prompt sent first ran a whole turn), and its id
 * is not remembered: the same frame may be sent again after the opening. A master that never sends
 * capabilities is taken as it is once the wait ends (finishHandshake), as before.
 */
function beforeCapabilities(frame: { type: string; message_id: string }): PeerIntake {
  return { kind: 'refuse', error_code: 'UNEXPECTED_FRAME', message: `${frame.type} before this master's session.capabilities: send session.capabilities first, then this frame again (§13.1)`, parent_id: frame.message_id };
}

/**
 * Decision 547: a remote master's controls without user text (and its vendor frames) are kept in
 * history, or make what is kept, only within the session's byte budget, so no number of them can
 * flush what the others reattach from. The refusal when over it; undefined when within.
 */
function overPlainControlBudget(raw: unknown, rec: ConnRecord, s: HubSession, frame: { type: string; message_id: string }, now: number): PeerIntake | undefined {
  if (rec.conn.kind !== 'remote' || typeof raw !== 'string') return undefined;
  const bytes = utf8Length(raw);
  if ((s.plainControlBytes ??= new FrameBudget(DEFAULT_PLAIN_CONTROL_BYTES)).take(now, bytes)) return undefined;
  return { kind: 'refuse', error_code: 'RATE_LIMITED', message: overControlBytes(frame.type, bytes), parent_id: frame.message_id };
}

/**
 * §7.8.1: `metadata.synthetic` marks what the host itself made up for a peer that is gone (a restart
 * closing a question, a result for a lost call). A peer never makes that on the host's behalf; from
 * one it would let a master tell every view and the journal that a restart closed a question it
 * timed out itself (the review of decision 656). The mark is taken off, the frame is kept.
 */
function withoutSyntheticMark(frame: { metadata?: { synthetic?: boolean } }, connection: string, logger: Logger): void {
  if (frame.metadata?.synthetic === undefined) return;
  delete frame.metadata.synthetic;
  logger.info('metadata.synthetic of a peer frame dropped: only the host marks its own frames synthetic', { connection });
}

/** Does the session know this message_id already (its own frame's, or an earlier control's)? */
function knownId(s: HubSession, message_id: string): boolean {
  return s.seenControls.has(message_id) || s.history.knows(message_id);
}

/** A control's message_id and who sent it (idempotency, echo suppression), the oldest forgotten past the bound. */
export function rememberControl(s: HubSession, message_id: string, connection_id: string): void {
  s.seenControls.set(message_id, connection_id);
  if (s.seenControls.size > MAX_SEEN_CONTROLS) s.seenControls.delete(s.seenControls.keys().next().value as string);
}

function mismatch(frame: { session_id: string; message_id: string }, rec: ConnRecord): PeerIntake {
  return { kind: 'refuse', error_code: 'SESSION_MISMATCH', message: `frame for session ${frame.session_id} arrived on a connection of session ${rec.session_id}`, parent_id: frame.message_id };
}

function duplicate(message_id: string): PeerIntake {
  return { kind: 'refuse', error_code: 'DUPLICATE_MESSAGE_ID', message: `message_id ${message_id} is already used in this session; the frame was dropped`, parent_id: message_id };
}
