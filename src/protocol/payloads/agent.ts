// Payloads of the `agent.*` frames (§4, §10.3, §12.1).
import { z } from 'zod';
import { AgentStateName, Id, NonNegInt, NonNegNumber, RiskLevel } from '../common';

/** §4.1.1 */
export const AgentTextDelta = z.looseObject({
  content_index: NonNegInt,
  text: z.string(),
});

/** §4.1.2, with `is_cancelled` from §6.1.2. */
export const AgentTextDone = z.looseObject({
  content_index: NonNegInt,
  full_text: z.string().optional().describe('whole text, for the receiver to check'),
  is_cancelled: z.boolean().optional().describe('§6.1.2 the block ended because the turn was cancelled'),
});

/** §4.2.1. `redacted: true` text must never be shown raw (§15.3). */
export const AgentThinkingDelta = z.looseObject({
  content_index: NonNegInt,
  text: z.string(),
  redacted: z.boolean().optional(),
});

/** §4.2.2 */
export const AgentThinkingDone = z.looseObject({
  content_index: NonNegInt,
});

export const InteractionType = z.enum(['YN', 'SELECT', 'MULTI_SELECT', 'TEXT_INPUT', 'PERMISSION']);

export const InteractionOption = z.looseObject({
  value: z.string(),
  label: z.string(),
  description: z.string().optional(),
  risk_level: RiskLevel.optional(),
});

/** §4.3.1 */
export const AgentInteractionRequest = z.looseObject({
  interaction_id: Id,
  interaction_type: InteractionType,
  question_text: z.string(),
  timeout_sec: NonNegNumber,
  options: z.array(InteractionOption).optional(),
  context: z
    .looseObject({
      tool_name: z.string().optional(),
      tool_input: z.record(z.string(), z.unknown()).optional(),
      affected_paths: z.array(z.string()).optional(),
    })
    .optional(),
  default_value: z.string().optional(),
});

/** §4.4.1. `fatal` obliges the client to clean the process up. */
export const AgentError = z.looseObject({
  error_code: z.string().min(1),
  message: z.string(),
  severity: z.enum(['fatal', 'error', 'warning']),
  recoverable: z.boolean(),
  details: z
    .looseObject({
      module: z.string().optional(),
      trace: z.string().optional(),
      related_tool: z.string().optional(),
      related_invocation_id: z.string().optional(),
    })
    .optional(),
});

/** §4.5.1: binaries travel by URL, never inside the WebSocket. */
export const AgentFileTransfer = z.looseObject({
  transfer_id: Id,
  direction: z.enum(['upload', 'download']),
  file_url: z.string().min(1),
  file_name: z.string().min(1),
  mime_type: z.string().min(1),
  size_bytes: NonNegInt,
  checksum: z.string().optional(),
  context: z
    .looseObject({
      workspace_relative_path: z.string().optional(),
      related_tool_invocation_id: z.string().optional(),
    })
    .optional(),
});

/** §4.6.1 */
export const AgentStateChanged = z.looseObject({
  previous_state: AgentStateName,
  current_state: AgentStateName,
  reason: z.string().optional(),
});

export const CommandParameter = z.looseObject({
  name: z.string().min(1),
  type: z.enum(['string', 'number', 'boolean']),
  required: z.boolean(),
  description: z.string().optional(),
});

export const CommandEntry = z.looseObject({
  name: z.string().min(1),
  description: z.string(),
  parameters: z.array(CommandParameter).optional(),
  category: z.enum(['session', 'display', 'config', 'navigation']).optional(),
});

/**
 * Ours, not in §12.1.1 (a receiver MUST ignore a payload key it does not know, §14.2-2, as for
 * `allowed_by_rule`): the command files that were found but not loaded, so a picker can say why
 * `/name` is missing (decision 721). `path` is workspace-relative or `~/…`, never the home's
 * absolute path; `reason` a code our views word in their language (an unknown one: `message`, the
 * same in English); `detail` what the reason leaves out (the YAML parser's words, an errno code).
 * At most `UNLOADED_LISTED_MAX` are listed; `total` counts them all. The bounds here are wider than
 * what we send, so a newer host's longer entry still parses.
 */
export const UNLOADED_LISTED_MAX = 20;
export const UnloadedCommandFile = z.looseObject({
  path: z.string().max(4096).optional(),
  reason: z.string().min(1).max(64),
  message: z.string().max(4096),
  detail: z.string().max(4096).optional(),
});
export const UnloadedCommandFiles = z.looseObject({
  total: NonNegInt,
  files: z.array(UnloadedCommandFile).max(100),
});

/** §12.1.1 (+ our `unloaded`, decision 721) */
export const AgentCommandsPublish = z.looseObject({
  commands: z.array(CommandEntry),
  unloaded: UnloadedCommandFiles.optional(),
});

/** §10.3.1, sent right after the `tool.invoke.request` that carries `subagent`. */
export const AgentSubagentStarted = z.looseObject({
  parent_invocation_id: Id,
  agent_type: z.string().optional(),
  description: z.string().optional(),
  depth: z.number().int().min(1),
});

/** §10.3.2, sent right before the `agent_result` tool result. */
export const AgentSubagentEnded = z.looseObject({
  parent_invocation_id: Id,
  status: z.enum(['completed', 'failed', 'cancelled']),
  duration_ms: NonNegNumber.optional(),
});
