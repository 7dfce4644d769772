// Payloads of the `session.*` frames (§7, §11, §12.2, §16.1.2).
import { z } from 'zod';
import { AgentMode, Id, IsoTimestamp, NonNegInt, NonNegNumber } from '../common';

export const BufferPolicy = z.enum(['RING', 'DROP', 'NONE']);

/**
 * §7.1.1. `frames` holds whole envelopes; they are validated one by one when replayed, so a single
 * bad frame in a history does not throw the whole history away.
 */
export const SessionHistory = z.looseObject({
  frames: z.array(z.record(z.string(), z.unknown())),
  buffer_status: z.looseObject({
    policy_applied: BufferPolicy,
    truncated: z.boolean(),
    lost_frame_count: NonNegInt.optional(),
    buffer_high_watermark: NonNegInt.optional(),
  }),
  last_sync_timestamp: IsoTimestamp,
  last_message_id: z.string().describe('empty when nothing was ever sent'),
});

/** §7.2.1 */
export const SessionCompacted = z.looseObject({
  summary: z.string(),
  previous_token_count: NonNegInt,
  current_token_count: NonNegInt,
  preserved_elements: z
    .looseObject({
      files_modified: z.array(z.string()).optional(),
      decisions_made: z.array(z.string()).optional(),
      errors_encountered: z.array(z.string()).optional(),
      active_todos: z.array(z.record(z.string(), z.unknown())).optional(),
    })
    .optional(),
  trigger: z.enum(['auto', 'manual', 'requested']),
});

const Limit = z.looseObject({
  limit: z.number().describe('-1 means unlimited'),
  used: NonNegNumber,
  unit: z.string().min(1),
});

/** §7.3.1 */
export const SessionUsage = z.looseObject({
  turn_id: z.string().optional(),
  token_usage: z.looseObject({
    input_tokens: NonNegInt,
    output_tokens: NonNegInt,
    cache_read_tokens: NonNegInt.optional(),
    cache_write_tokens: NonNegInt.optional(),
    thinking_tokens: NonNegInt.optional(),
  }),
  cost_usage: Limit,
  message_usage: Limit,
  context_window: z
    .looseObject({
      capacity: NonNegInt.optional(),
      used: NonNegInt.optional(),
      utilization: z.number().min(0).max(1).optional(),
    })
    .optional(),
  time_to_reset: z.string().describe('ISO 8601 (a date-time or a duration)'),
});

/** §7.4.1 */
export const SessionError = z.looseObject({
  error_code: z.string().min(1),
  message: z.string(),
  fatal: z.boolean(),
});

/** §7.5.1 (+ `mode`, §6.3.2) */
export const SessionTurnStart = z.looseObject({
  turn_id: Id,
  turn_index: NonNegInt,
  mode: AgentMode.optional(),
});

export const StopReason = z.enum(['end_turn', 'max_tokens', 'cancelled', 'error', 'tool_use', 'awaiting_input']);

/** §11.1 */
export const StructuredOutput = z.looseObject({
  schema_id: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
  validation_status: z.enum(['valid', 'partial', 'failed']),
});

/** §7.5.2 (+ `structured_output`, §11.1) */
export const SessionTurnEnd = z.looseObject({
  turn_id: Id,
  stop_reason: StopReason,
  tool_invocation_count: NonNegInt.optional(),
  structured_output: StructuredOutput.optional(),
});

/** §12.2.1 features, with `adapter_type` (§17.4) and `subagent_context` (§10.6). */
export const Features = z.looseObject({
  thinking_stream: z.boolean().optional(),
  tool_streaming: z.boolean().optional(),
  structured_output: z.boolean().optional(),
  subagent: z.boolean().optional(),
  subagent_context: z.boolean().optional(),
  context_compaction: z.boolean().optional(),
  plan_mode: z.boolean().optional(),
  file_reference: z.boolean().optional(),
  file_search_fuzzy: z.boolean().optional(),
  adapter_type: z.enum(['process', 'sdk']).optional(),
});

/** §12.2.1 */
export const SessionCapabilities = z.looseObject({
  protocol_version: z.literal('rawp-dps-1.0'),
  supported_namespaces: z.array(z.string()),
  features: Features.optional(),
  max_frame_size: z.number().int().positive().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

export const FileCandidate = z.looseObject({
  path: z.string().min(1),
  name: z.string().min(1),
  directory: z.string(),
  extension: z.string().optional(),
  mime_type: z.string().optional(),
  size_bytes: NonNegInt.optional(),
  modified_at: IsoTimestamp.optional(),
  match_score: z.number().min(0).max(1).optional(),
  match_ranges: z.array(z.looseObject({ start: NonNegInt, end: NonNegInt })).optional(),
});

/** §16.1.2 (the envelope's `parent_id` is the search's `message_id`). */
export const SessionFileCandidates = z.looseObject({
  query_id: Id,
  candidates: z.array(FileCandidate),
  total_count: NonNegInt.optional(),
  truncated: z.boolean(),
});

/** §7.6.1 */
export const SessionRenamed = z.looseObject({
  session_id: Id,
  name: z.string(),
  previous_name: z.string().optional(),
  renamed_by: z.enum(['edge', 'client', 'master']),
});

/** §7.7.1 */
export const SessionDeleted = z.looseObject({
  session_id: Id,
  reason: z.enum(['user_request', 'master_request', 'timeout', 'error']),
  deleted_by: z.enum(['edge', 'client', 'master', 'system']),
});
