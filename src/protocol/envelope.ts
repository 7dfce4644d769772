// §2.1 the common envelope of every frame, and the metadata keys the spec defines (§7.8, §9, §10.2).
import { z } from 'zod';
import { Id, IsoTimestamp, NonNegInt } from './common';

/** §10.2: which (sub)agent a frame comes from. Absent or null means the main agent (depth 0). */
export const SubagentContext = z.looseObject({
  parent_invocation_id: Id,
  agent_type: z.string().optional(),
  depth: NonNegInt,
});

/** Free-form metadata (§2.1) with the keys the spec gives a meaning to. Unknown keys are kept. */
export const Metadata = z.looseObject({
  synthetic: z.boolean().optional().describe('§7.8.1 block synthesized locally on disconnect'),
  content_role: z.enum(['plan']).optional().describe('§9.1 the text is a plan document'),
  plan_id: z.string().optional(),
  subagent_context: SubagentContext.nullable().optional(),
  x_rawp_clipped: z
    .object({ original_bytes: NonNegInt, max_frame_size: NonNegInt, fields: z.array(z.string()) })
    .optional()
    .describe('RAWP extension (decisions 515, 516): strings of this frame were cut to fit the limit the receiving peer announced (max_frame_size, or x-rawp.frame_budget; the limit is in max_frame_size)'),
});

/**
 * The envelope with an unvalidated payload. `v` is checked separately (an unsupported `v` is
 * ignored and answered with `session.error`, §2.2) so this schema takes any integer.
 */
const envelopeShape = {
  v: z.number().int(),
  type: z.string().min(1),
  message_id: Id,
  timestamp: IsoTimestamp,
  session_id: Id,
  turn_id: Id.optional(),
  parent_id: Id.optional(),
  metadata: Metadata.optional(),
  payload: z.record(z.string(), z.unknown()),
};
export const Envelope = z.looseObject(envelopeShape);

/**
 * The envelope's own fields without the loose object's index signature: `Omit<Envelope, …>`
 * would collapse every field to `unknown`, so `FrameOf` is built from this.
 */
export const EnvelopeFields = z.object(envelopeShape);
export type EnvelopeFields = z.infer<typeof EnvelopeFields>;

export type SubagentContext = z.infer<typeof SubagentContext>;
export type Metadata = z.infer<typeof Metadata>;
export type Envelope = z.infer<typeof Envelope>;

export const ENVELOPE_VERSION = 1;
export const PROTOCOL_VERSION = 'rawp-dps-1.0';
