// "Continue this conversation" (decisions 630, 641): a session that ended with an error stays ended
// (§18.2, §17.2.2); the user may start a NEW session with the same agent that goes on with the
// agent's own conversation (§18.3 `agent_session_id`). The new session says where it came from in
// two places, never in frames of the earlier session (every frame a session's connections get
// carries that session's id, so the editor's view and every master read the same):
//  - its own `session.capabilities` (§12.2.1 `extensions`, a vendor key a raw master ignores)
//    carries a small LINK: the earlier chat's id, name, agent, how and when it ended, whether the
//    agent was asked to resume, and how many messages the digest holds. The capabilities go out
//    before a master has said how big a frame it takes (§13.1), so they stay small (decision 641);
//  - the vendor frame `x-rawp.continued_from.earlier` (§3.1.1), published into the session once,
//    right after its opening, carries the DIGEST of what the user saw there. It is in the session's
//    history and journal like any frame, so the hub fits it to each connection's `max_frame_size`
//    and frame budget (cut texts with cutMark, or left out and counted, decisions 515, 516), and a
//    restored session already holds it (a restore announces the link again, never the digest).
import { z } from 'zod';
import { newId, systemClock, type Clock } from './build';
import { Id, IsoTimestamp } from './common';
import { ENVELOPE_VERSION } from './envelope';
import type { PayloadOf, VendorFrame } from './frameTypes';
import { SESSION_NAME_MAX } from './sessionName';

/** The key in the continuing session's own `session.capabilities.extensions`. */
export const CONTINUED_FROM_KEY = 'x-rawp.continued_from';
/** The vendor frame with the earlier chat's digest. */
export const EARLIER_CHAT_TYPE = 'x-rawp.continued_from.earlier';

/** One message of the earlier chat's digest; longer texts are cut in the middle (cutMark). */
export const EARLIER_TEXT_MAX = 4000;
/** Messages a digest holds at most (the newest; the count of those left out is said). */
export const EARLIER_MESSAGES_MAX = 200;

export const EarlierMessage = z.strictObject({
  /** `user`: a prompt; `agent`: the agent's answer text; `error`: the fatal error that ended it. */
  role: z.enum(['user', 'agent', 'error']),
  text: z.string().max(EARLIER_TEXT_MAX + 100),
});
export type EarlierMessage = z.infer<typeof EarlierMessage>;

/**
 * The link (`extensions["x-rawp.continued_from"]`). Unknown keys are dropped when it is read, so a
 * restored session announces only this small link again (a journal of decision 630 held the whole
 * digest under `earlier` here).
 */
export const ContinuedFrom = z.object({
  session_id: Id.max(200),
  name: z.string().max(SESSION_NAME_MAX),
  agent: z.string().min(1).max(500),
  reason: z.enum(['user_request', 'master_request', 'timeout', 'error']),
  ended_at: IsoTimestamp,
  /** The agent was started with the earlier conversation's id (§18.3); false: it starts afresh. */
  resumed: z.boolean(),
  /** Messages in the digest (`x-rawp.continued_from.earlier`); 0: nothing was said. */
  messages: z.number().int().nonnegative().max(EARLIER_MESSAGES_MAX).optional(),
  /** Older messages of the earlier chat the digest leaves out. */
  left_out: z.number().int().nonnegative().optional(),
});
export type ContinuedFrom = z.infer<typeof ContinuedFrom>;

/** `x-rawp.continued_from.earlier`: what was said in the chat this session continues, oldest first. */
export const EarlierChat = z.looseObject({
  /** The ended session the digest is of (the link's `session_id`). */
  continued_from: Id.max(200),
  earlier: z.array(EarlierMessage).max(EARLIER_MESSAGES_MAX),
  /** Older messages left out (a chain of continuations counts every link's). */
  left_out: z.number().int().nonnegative().optional(),
});
export type EarlierChat = z.infer<typeof EarlierChat>;

/** The registry of the continuation's vendor frame: schema, direction and where it is described. */
export const CONTINUATION_FRAME_TYPES = {
  [EARLIER_CHAT_TYPE]: { payload: EarlierChat, direction: 'C2M', section: 'docs/remote.md#continuing-an-ended-session' },
} as const;

/**
 * Where a session continues from, read from its own `session.capabilities`: the client's, the one
 * that announces its adapter type (§17.4) — a master's capabilities are not asked. Undefined when
 * none says it, or the value does not read as one (data from a peer: validated, never trusted).
 */
export function continuedFromOf(capabilities: readonly PayloadOf<'session.capabilities'>[]): ContinuedFrom | undefined {
  for (const c of capabilities) {
    if (c.features?.adapter_type === undefined) continue;
    const raw = c.extensions?.[CONTINUED_FROM_KEY];
    if (raw === undefined) continue;
    const parsed = ContinuedFrom.safeParse(raw);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/** The digest frame of one session (its own id, its message_id new, stamped by the session's clock). */
export function buildEarlierChatFrame(session_id: string, payload: EarlierChat, clock: Clock = systemClock): VendorFrame {
  return { v: ENVELOPE_VERSION, type: EARLIER_CHAT_TYPE, message_id: newId(), timestamp: clock.now().toISOString(), session_id, payload } as VendorFrame;
}

/** The digest in a frame, if it is a well-formed `x-rawp.continued_from.earlier` (a clipped one whose list was left out is not). */
export function earlierChatPayloadOf(frame: { type?: unknown; payload?: unknown }): EarlierChat | undefined {
  if (frame.type !== EARLIER_CHAT_TYPE) return undefined;
  const parsed = EarlierChat.safeParse(frame.payload);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The digests among frames a view was given for `session_id`: the frames themselves and those in a
 * `session.history` (a fresh attach). Frames are data from the host: checked, never trusted.
 */
export function earlierChatsIn(frames: readonly unknown[], session_id: string): EarlierChat[] {
  const out: EarlierChat[] = [];
  const look = (f: unknown, depth: number): void => {
    if (f === null || typeof f !== 'object') return;
    const frame = f as { type?: unknown; session_id?: unknown; payload?: { frames?: unknown } };
    if (frame.session_id !== session_id) return;
    if (frame.type === 'session.history' && depth === 0 && Array.isArray(frame.payload?.frames)) for (const inner of frame.payload.frames) look(inner, 1);
    const digest = earlierChatPayloadOf(frame);
    if (digest) out.push(digest);
  };
  for (const f of frames) look(f, 0);
  return out;
}
