// The ACP messages the translator reads, as zod schemas: `session/update` variants, the tool call
// inside a `session/request_permission`, and the content they carry. The names and shapes are the
// SDK's (`SessionUpdate`, `ToolCallUpdate`, `ToolCallContent`, `PlanEntry`, `AvailableCommand`,
// `UsageUpdate` in @agentclientprotocol/sdk types.gen.d.ts). The live connection has already
// validated every message with the SDK's own generated schemas; these are what the translator
// and `rawp convert --from acp` read through, because the SDK does not export its zod schemas
// (see docs/decisions/140-native-output-schemas.md). Loose objects: newer fields pass; a variant
// we do not translate (user_message_chunk, config_option_update, compaction_update, …) is an
// `unknown_variant`.
import { z } from 'zod';
import { openUnion } from '../schema/openUnion';

const Str = z.string();

/** ACP `ContentBlock`: text and resource links are shown; images, audio, resources skipped. */
export const AcpContentBlock = openUnion('type', [z.looseObject({ type: z.literal('text'), text: Str }), z.looseObject({ type: z.literal('resource_link'), uri: Str })]);
export type AcpContentBlock = z.infer<typeof AcpContentBlock>;

/** ACP `ToolCallContent`. */
export const AcpToolCallContent = openUnion('type', [
  z.looseObject({ type: z.literal('content'), content: AcpContentBlock }),
  z.looseObject({ type: z.literal('diff'), path: Str, oldText: Str.nullish(), newText: Str }),
  z.looseObject({ type: z.literal('terminal'), terminalId: Str }),
]);
export type AcpToolCallContent = z.infer<typeof AcpToolCallContent>;

/** The fields of `ToolCall` / `ToolCallUpdate` (an update may leave any of them out). */
export const AcpToolCallFields = {
  toolCallId: Str.min(1),
  title: Str.nullish(),
  name: Str.nullish(),
  /** `ToolKind`; a kind this client does not know is shown as "other" (see toolNames.ts). */
  kind: Str.nullish(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed']).nullish(),
  content: z.array(AcpToolCallContent).nullish(),
  locations: z.array(z.looseObject({ path: Str })).nullish(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  _meta: z.looseObject({ claudeCode: z.looseObject({ toolName: Str.optional() }).optional().catch(undefined) }).nullish().catch(undefined),
};
export const AcpToolCall = z.looseObject(AcpToolCallFields);
export type AcpToolCall = z.infer<typeof AcpToolCall>;

const PlanEntry = z.looseObject({ content: Str, status: Str.optional(), priority: Str.optional() });
const AvailableCommand = z.looseObject({ name: Str, description: Str.nullish(), input: z.looseObject({ hint: Str.optional() }).nullish().catch(undefined) });

export const AcpSessionUpdate = openUnion('sessionUpdate', [
  z.looseObject({ sessionUpdate: z.enum(['agent_message_chunk', 'agent_thought_chunk']), content: AcpContentBlock }),
  z.looseObject({ sessionUpdate: z.enum(['tool_call', 'tool_call_update']), ...AcpToolCallFields }),
  z.looseObject({ sessionUpdate: z.literal('plan'), entries: z.array(PlanEntry) }),
  z.looseObject({ sessionUpdate: z.literal('available_commands_update'), availableCommands: z.array(AvailableCommand) }),
  z.looseObject({ sessionUpdate: z.literal('current_mode_update'), currentModeId: Str }),
  z.looseObject({ sessionUpdate: z.literal('usage_update'), used: z.number().optional(), size: z.number().optional(), cost: z.looseObject({ amount: z.number() }).nullish() }),
  z.looseObject({ sessionUpdate: z.literal('session_info_update'), title: Str.nullish() }),
  z.looseObject({ sessionUpdate: z.literal('notice'), severity: Str.optional(), title: Str.nullish(), description: Str.nullish() }),
]);
export type AcpSessionUpdate = z.infer<typeof AcpSessionUpdate>;
export type AvailableCommand = z.infer<typeof AvailableCommand>;
