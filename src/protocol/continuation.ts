// "Continue this conversation" (decision 630): a session that ended with an error stays ended
// (§18.2, §17.2.2); the user may start a NEW session with the same agent that goes on with the
// agent's own conversation (§18.3 `agent_session_id`). The new session says where it came from in
// its own `session.capabilities` (§12.2.1 `extensions`, a vendor key a raw master ignores): the
// earlier chat's id, name and end, whether the agent was asked to resume, and a bounded digest of
// what the user saw there. Never frames of the earlier session: every frame a session's
// connections get carries that session's id, so the editor's view and every master read the same.
import { z } from 'zod';
import { Id, IsoTimestamp } from './common';
import type { PayloadOf } from './frameTypes';
import { SESSION_NAME_MAX } from './sessionName';

/** The key in the continuing session's own `session.capabilities.extensions`. */
export const CONTINUED_FROM_KEY = 'x-rawp.continued_from';

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

export const ContinuedFrom = z.looseObject({
  session_id: Id.max(200),
  name: z.string().max(SESSION_NAME_MAX),
  agent: z.string().min(1).max(500),
  reason: z.enum(['user_request', 'master_request', 'timeout', 'error']),
  ended_at: IsoTimestamp,
  /** The agent was started with the earlier conversation's id (§18.3); false: it starts afresh. */
  resumed: z.boolean(),
  earlier: z.array(EarlierMessage).max(EARLIER_MESSAGES_MAX),
  /** Older messages of the earlier chat the digest leaves out. */
  left_out: z.number().int().nonnegative().optional(),
});
export type ContinuedFrom = z.infer<typeof ContinuedFrom>;

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
