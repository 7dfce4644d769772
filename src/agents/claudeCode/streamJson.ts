// Claude Code's stream-json lines as zod schemas (the shapes of `SDKMessage` and the control
// messages in @anthropic-ai/claude-agent-sdk's sdk.d.ts, checked against claude 2.1). Only the
// fields the translation reads are named, as loose objects: a newer CLI that adds fields still
// parses; one that changes a named field's type is *malformed* and reported, never guessed at.
// A line type we do not know is *unknown* and a subtype or block type we do not know is an
// `unknown_variant` (see ../schema/openUnion.ts): skipped without noise (keep_alive, newer notices).
import { z } from 'zod';
import { describeIssues } from '../../protocol/parse';
import { openUnion } from '../schema/openUnion';

const Str = z.string();
const Num = z.number().finite();
/** `parent_tool_use_id`: the subagent call a line belongs to, null at the top (§10.2). */
const Parent = z.string().nullish();

// ---- message content (Anthropic content blocks) ------------------------------------------------

export const TextBlock = z.looseObject({ type: z.literal('text'), text: Str });
export const ThinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: Str });
export const ToolUseBlock = z.looseObject({ type: z.literal('tool_use'), id: Str.min(1), name: Str.min(1), input: z.record(Str, z.unknown()).default({}) });
export const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: Str.min(1),
  /** A string, or text/image parts. */
  content: z.union([Str, z.array(z.unknown())]).optional(),
  is_error: z.boolean().optional(),
});
/** Images, documents, server tool blocks…: `unknown_variant`, skipped. */
export const ContentBlock = openUnion('type', [TextBlock, ThinkingBlock, ToolUseBlock, ToolResultBlock]);
export type ContentBlock = z.infer<typeof ContentBlock>;
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

/** Token usage of a message or a `result` (missing counts are 0). */
export const NativeUsage = z.looseObject({
  input_tokens: Num.default(0),
  output_tokens: Num.default(0),
  cache_read_input_tokens: Num.nullish().transform((v) => v ?? 0),
  cache_creation_input_tokens: Num.nullish().transform((v) => v ?? 0),
});
export type NativeUsage = z.infer<typeof NativeUsage>;

const Message = z.looseObject({
  id: Str.optional(),
  model: Str.optional(),
  content: z.union([Str, z.array(ContentBlock)]).default([]),
  usage: NativeUsage.nullish(),
});

/** A content block list's text (a plain string as is; images and other parts skipped). */
export function contentText(content: string | readonly unknown[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .map((p) => {
      const t = TextBlock.safeParse(p);
      return t.success ? t.data.text : '';
    })
    .filter(Boolean)
    .join('\n');
}

// ---- system lines ------------------------------------------------------------------------------

const Init = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: Str.optional(),
  model: Str.optional(),
  tools: z.array(Str).default([]),
  slash_commands: z.array(Str).default([]),
  permissionMode: Str.optional(),
  claude_code_version: Str.optional(),
  /** The CLI's working directory as it sees it: the workspace with its symlinks resolved. */
  cwd: Str.optional(),
});
const ApiRetry = z.looseObject({ type: z.literal('system'), subtype: z.literal('api_retry'), attempt: Num.optional(), max_retries: Num.optional(), error_status: Num.nullish(), error: Str.nullish() });
const CompactBoundary = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('compact_boundary'),
  compact_metadata: z.looseObject({ trigger: z.enum(['auto', 'manual']).catch('manual'), pre_tokens: Num.default(0), post_tokens: Num.nullish() }).default({ trigger: 'manual', pre_tokens: 0 }),
});
const Status = z.looseObject({ type: z.literal('system'), subtype: z.literal('status'), compact_result: Str.optional(), compact_error: Str.nullish() });
const TaskProgress = z.looseObject({ type: z.literal('system'), subtype: z.enum(['task_progress', 'task_started']), tool_use_id: Str.optional(), description: Str.optional() });
/** Other subtypes (hook_response, task_notification, commands_changed, …) are `unknown_variant`. */
export const SystemLine = openUnion('subtype', [Init, ApiRetry, CompactBoundary, Status, TaskProgress], { type: z.literal('system') });

// ---- partial-message stream events ---------------------------------------------------------------

const BlockStart = z.looseObject({
  type: z.literal('content_block_start'),
  index: z.number().int().nonnegative(),
  content_block: openUnion('type', [z.looseObject({ type: z.literal('text'), text: Str.default('') }), z.looseObject({ type: z.literal('thinking'), thinking: Str.default('') }), z.looseObject({ type: z.literal('redacted_thinking') })]),
});
const BlockDelta = z.looseObject({
  type: z.literal('content_block_delta'),
  index: z.number().int().nonnegative(),
  // input_json_delta, signature_delta, citations: nothing to show.
  delta: openUnion('type', [z.looseObject({ type: z.literal('text_delta'), text: Str }), z.looseObject({ type: z.literal('thinking_delta'), thinking: Str })]),
});
export const StreamEvent = openUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ id: Str.optional(), usage: NativeUsage.nullish() }) }),
  BlockStart,
  BlockDelta,
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number().int().nonnegative() }),
  z.looseObject({ type: z.enum(['message_delta', 'message_stop']) }),
]);
const StreamEventLine = z.looseObject({ type: z.literal('stream_event'), event: StreamEvent, parent_tool_use_id: Parent });

// ---- conversation lines ----------------------------------------------------------------------

/** `error`: the SDK's SDKAssistantMessageError ('authentication_failed', 'billing_error', 'rate_limit', …) on the CLI's own notices. */
const AssistantLine = z.looseObject({ type: z.literal('assistant'), message: Message, parent_tool_use_id: Parent, error: Str.optional() });
const UserLine = z.looseObject({ type: z.literal('user'), message: Message, parent_tool_use_id: Parent, tool_use_result: z.unknown().optional() });
const ResultLine = z.looseObject({
  type: z.literal('result'),
  subtype: Str.optional(),
  is_error: z.boolean().optional(),
  result: Str.optional(),
  errors: z.array(z.unknown()).optional(),
  api_error_status: Num.nullish(),
  stop_reason: Str.nullish(),
  num_turns: Num.optional(),
  session_id: Str.optional(),
  total_cost_usd: Num.optional(),
  usage: NativeUsage.optional(),
  modelUsage: z.record(Str, z.looseObject({ contextWindow: Num.optional() })).optional(),
  /** With --json-schema: the object the model handed to the StructuredOutput tool (§11). */
  structured_output: z.record(Str, z.unknown()).optional(),
});

// ---- control protocol (permission asks, initialize, interrupts) --------------------------------

/** `permission_suggestions` items (`PermissionUpdate` of the SDK): what "allow for this session" would add. */
export const PermissionSuggestion = openUnion('type', [
  z.looseObject({
    type: z.enum(['addRules', 'replaceRules', 'removeRules']),
    rules: z.array(z.looseObject({ toolName: Str, ruleContent: Str.optional() })),
    behavior: z.enum(['allow', 'deny', 'ask']),
    destination: Str.optional(),
  }),
  z.looseObject({ type: z.literal('setMode'), mode: Str, destination: Str.optional() }),
  z.looseObject({ type: z.enum(['addDirectories', 'removeDirectories']), directories: z.array(Str), destination: Str.optional() }),
]);
export type PermissionSuggestion = z.infer<typeof PermissionSuggestion>;

export const CanUseTool = z.looseObject({
  subtype: z.literal('can_use_tool'),
  tool_name: Str.min(1),
  input: z.record(Str, z.unknown()).default({}),
  tool_use_id: Str.optional(),
  description: Str.optional(),
  decision_reason: Str.optional(),
  /** Kept as given (the CLI takes them back verbatim), each also read through the schema above. */
  permission_suggestions: z.array(z.unknown()).default([]),
});
/** The id of our PreToolUse hook, registered at `initialize` (decision 623). */
export const PRE_TOOL_HOOK_ID = 'rawp_pre_tool_use';
/**
 * A hook the SDK host registered at `initialize` fires (`hook_callback`): ours is PreToolUse, called
 * before every tool call — also those Claude Code runs without asking (Read, Grep, what its own
 * rules or acceptEdits allow), which `can_use_tool` never shows us.
 */
export const HookCallback = z.looseObject({
  subtype: z.literal('hook_callback'),
  callback_id: Str,
  input: z.looseObject({ hook_event_name: Str, tool_name: Str.optional(), tool_input: z.unknown().optional(), tool_use_id: Str.optional(), cwd: Str.optional().catch(undefined) }),
  tool_use_id: Str.optional(),
});
/** MCP messages and other requests are `unknown_variant`: answered with an error. */
const ControlRequestLine = z.looseObject({ type: z.literal('control_request'), request_id: Str.min(1), request: openUnion('subtype', [CanUseTool, HookCallback]) });
const ControlResponseLine = z.looseObject({
  type: z.literal('control_response'),
  response: z.looseObject({ subtype: Str, request_id: Str.default(''), response: z.record(Str, z.unknown()).nullish(), error: Str.optional() }),
});
const ControlCancelLine = z.looseObject({ type: z.literal('control_cancel_request'), request_id: Str.min(1) });
/** Just the id of a control request, to answer one whose body we cannot read. */
export const RequestId = z.looseObject({ request_id: Str.min(1) });

/** `initialize` response: the CLI's slash commands. */
export const InitializeResponse = z.looseObject({
  /** An entry that does not fit is dropped (null), the others still count. */
  commands: z.array(z.looseObject({ name: Str, description: Str.optional(), argumentHint: Str.nullish() }).nullable().catch(null)),
});

export type StreamLine =
  | z.infer<typeof SystemLine>
  | z.infer<typeof StreamEventLine>
  | z.infer<typeof AssistantLine>
  | z.infer<typeof UserLine>
  | z.infer<typeof ResultLine>
  | z.infer<typeof ControlRequestLine>
  | z.infer<typeof ControlResponseLine>
  | z.infer<typeof ControlCancelLine>;
export type AssistantLine = z.infer<typeof AssistantLine>;
export type UserLine = z.infer<typeof UserLine>;
export type ResultLine = z.infer<typeof ResultLine>;
export type SystemLine = z.infer<typeof SystemLine>;
export type StreamEventLine = z.infer<typeof StreamEventLine>;
export type ControlRequestLine = z.infer<typeof ControlRequestLine>;
export type CanUseTool = z.infer<typeof CanUseTool>;
export type CompactMetadata = z.infer<typeof CompactBoundary>['compact_metadata'];

/**
 * One decoded stdout line: a `line` to translate, an `unknown` line type (skipped), or a
 * `malformed` line of a known type (reported by the caller as a warning; never fatal).
 */
export type ParsedLine =
  | { kind: 'line'; line: StreamLine; /** Fields left out because they did not fit (a `result` only): why. */ unreadable?: string }
  | { kind: 'unknown'; type: string }
  | { kind: 'malformed'; type: string; detail: string };

const Head = z.looseObject({ type: Str });

export function parseStreamLine(value: unknown): ParsedLine {
  const head = Head.safeParse(value);
  if (!head.success) return { kind: 'malformed', type: '(none)', detail: 'not an object with a string "type"' };
  const type = head.data.type;
  switch (type) {
    case 'system':
      return outcome(type, SystemLine.safeParse(value));
    case 'stream_event':
      return outcome(type, StreamEventLine.safeParse(value));
    case 'assistant':
      return outcome(type, AssistantLine.safeParse(value));
    case 'user':
      return outcome(type, UserLine.safeParse(value));
    case 'result':
      return resultLine(value as Record<string, unknown>);
    case 'control_request':
      return outcome(type, ControlRequestLine.safeParse(value));
    case 'control_response':
      return outcome(type, ControlResponseLine.safeParse(value));
    case 'control_cancel_request':
      return outcome(type, ControlCancelLine.safeParse(value));
    default:
      // keep_alive, auth_status, rate-limit notices and line types of newer versions.
      return { kind: 'unknown', type };
  }
}

function outcome(type: string, r: z.ZodSafeParseResult<StreamLine>): ParsedLine {
  return r.success ? { kind: 'line', line: r.data } : { kind: 'malformed', type, detail: describeIssues(r.error) };
}

/**
 * A `result` is the one line that ends a turn: skipping one that does not fit left the turn open
 * for as long as the CLI lived (decision 715). It is read with the fields that fit; each top-level
 * field that does not is left out whole (a `usage` with one bad count is no usage, never a guess)
 * and named in `unreadable`. An `is_error` left out is taken from the subtype: the CLI's error
 * subtypes are `error_*`, and a failed turn must not end as a success.
 */
function resultLine(value: Record<string, unknown>): ParsedLine {
  const r = ResultLine.safeParse(value);
  if (r.success) return { kind: 'line', line: r.data };
  const kept = { ...value };
  const dropped = new Set<string>();
  for (const issue of r.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && key !== 'type') {
      dropped.add(key);
      delete kept[key];
    }
  }
  // Every field but `type` is optional, so what is left fits; the bare line is the last resort.
  const again = ResultLine.safeParse(kept);
  const line = again.success ? again.data : ResultLine.parse({ type: 'result' });
  if (dropped.has('is_error') && line.subtype?.startsWith('error')) line.is_error = true;
  return { kind: 'line', line, unreadable: describeIssues(r.error) };
}
