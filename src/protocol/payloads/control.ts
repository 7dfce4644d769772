// Payloads of the `control.*` frames (§6, §16.1).
import { z } from 'zod';
import { AgentMode, Id, NonNegInt } from '../common';

export const InputType = z.enum(['text', 'slash_command', 'continuation', 'piped_stdin']);

export const ContextFile = z.looseObject({
  file_url: z.string().min(1),
  file_name: z.string().min(1),
  mime_type: z.string().optional(),
  intent: z.enum(['reference', 'edit_target', 'context']).optional(),
});

/** §6.1.1 / §16.4: metadata of a file the prompt mentions with a `<@file:ref_id|path>` token. */
export const FileReference = z.looseObject({
  ref_id: z.string().regex(/^[a-zA-Z0-9_-]+$/, 'ref_id must match [a-zA-Z0-9_-]+ (§16.2.1)'),
  path: z.string().min(1),
  name: z.string().min(1),
  extension: z.string().optional(),
  mime_type: z.string().optional(),
  size_bytes: NonNegInt.optional(),
  workspace_relative_path: z.string().min(1),
});

/** §6.1.1 */
export const ControlPromptRequest = z.looseObject({
  prompt_text: z.string(),
  input_type: InputType.optional().describe('default text'),
  context_files: z.array(ContextFile).optional(),
  file_references: z.array(FileReference).optional(),
  config_overrides: z
    .looseObject({
      output_format: z.enum(['text', 'json', 'stream-json']).optional(),
      json_schema: z.record(z.string(), z.unknown()).optional(),
      max_turns: z.number().int().positive().optional(),
      allowed_tools: z.array(z.string()).optional(),
      denied_tools: z.array(z.string()).optional(),
    })
    .optional(),
});

/** §6.1.2 */
export const ControlPromptCancel = z.looseObject({
  target_turn_id: Id,
  reason: z.enum(['user_cancelled', 'timeout', 'quota_exceeded']).optional(),
});

/** §6.2.1 */
export const ControlInteractionResponse = z.looseObject({
  interaction_id: Id,
  selected_value: z.union([z.string(), z.array(z.string())]),
  text_input: z.string().optional(),
});

/** §6.2.2 */
export const ControlInteractionTimeout = z.looseObject({
  interaction_id: Id,
});

/** §6.3.1 */
export const ControlSessionCompact = z.looseObject({
  instruction: z.string().optional(),
  target_token_ratio: z.number().min(0).max(1).optional(),
});

/** §6.3.2 */
export const ControlModeSwitch = z.looseObject({
  mode: AgentMode,
  config: z.record(z.string(), z.unknown()).optional(),
});

/** §16.1.1 */
export const ControlFileSearch = z.looseObject({
  query_id: Id,
  query: z.string().describe('empty returns recently modified files'),
  scope: z.enum(['workspace', 'project', 'global']).optional().describe('default workspace'),
  max_results: z.number().int().min(1).max(50).optional().describe('default 20, max 50'),
  filters: z
    .looseObject({
      extensions: z.array(z.string()).optional(),
      exclude_patterns: z.array(z.string()).optional(),
    })
    .optional(),
});

/** §16.1.3 */
export const ControlFileSearchCancel = z.looseObject({
  query_id: Id,
});
