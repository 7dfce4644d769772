// The JSON lines `codex exec --json` prints (verified against @openai/codex 0.171), as loose zod
// schemas: unknown fields are kept; event and item types we do not translate are open-union
// `unknown_variant`s (skipped: newer versions add them), a known one that does not fit is
// malformed and reported (docs/decisions/140).
import { z } from 'zod';
import { openUnion } from '../schema/openUnion';

export const CodexUsage = z.looseObject({
  input_tokens: z.number().int().nonnegative().default(0),
  cached_input_tokens: z.number().int().nonnegative().optional(),
  cache_write_input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().default(0),
  reasoning_output_tokens: z.number().int().nonnegative().optional(),
});

const ItemBase = { id: z.string().min(1) };

export const ReasoningItem = z.looseObject({ ...ItemBase, type: z.literal('reasoning'), text: z.string() });
export const AgentMessageItem = z.looseObject({ ...ItemBase, type: z.literal('agent_message'), text: z.string() });
export const CommandExecutionItem = z.looseObject({
  ...ItemBase,
  type: z.literal('command_execution'),
  command: z.string(),
  aggregated_output: z.string().default(''),
  exit_code: z.number().int().nullable().optional(),
  status: z.string(),
});
export const FileChangeItem = z.looseObject({
  ...ItemBase,
  type: z.literal('file_change'),
  changes: z.array(z.looseObject({ path: z.string(), kind: z.string() })),
  status: z.string(),
});
export const McpToolCallItem = z.looseObject({
  ...ItemBase,
  type: z.literal('mcp_tool_call'),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
  status: z.string(),
});
export const WebSearchItem = z.looseObject({ ...ItemBase, type: z.literal('web_search'), query: z.string() });
export const TodoListItem = z.looseObject({
  ...ItemBase,
  type: z.literal('todo_list'),
  items: z.array(z.looseObject({ text: z.string(), completed: z.boolean() })),
});
export const ErrorItem = z.looseObject({ ...ItemBase, type: z.literal('error'), message: z.string() });

export const CodexItem = openUnion('type', [
  ReasoningItem,
  AgentMessageItem,
  CommandExecutionItem,
  FileChangeItem,
  McpToolCallItem,
  WebSearchItem,
  TodoListItem,
  ErrorItem,
]);

export const ThreadStarted = z.looseObject({ type: z.literal('thread.started'), thread_id: z.string().min(1) });

export const CodexEvent = openUnion('type', [
  ThreadStarted,
  z.looseObject({ type: z.literal('turn.started') }),
  z.looseObject({ type: z.literal('turn.completed'), usage: CodexUsage.optional() }),
  z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }).optional() }),
  z.looseObject({ type: z.literal('item.started'), item: z.looseObject({ id: z.string(), type: z.string() }) }),
  z.looseObject({ type: z.literal('item.updated'), item: z.looseObject({ id: z.string(), type: z.string() }) }),
  z.looseObject({ type: z.literal('item.completed'), item: z.looseObject({ id: z.string(), type: z.string() }) }),
  z.looseObject({ type: z.literal('error'), message: z.string() }),
]);

/** A provider's JSON error body, which Codex passes through as an error message. */
export const ProviderErrorBody = z.looseObject({ error: z.looseObject({ message: z.string().optional().catch(undefined), type: z.string().optional().catch(undefined) }) });

export type CodexUsage = z.infer<typeof CodexUsage>;
export type CodexItem = z.infer<typeof CodexItem>;
export type CodexEvent = z.infer<typeof CodexEvent>;
export type CommandExecutionItem = z.infer<typeof CommandExecutionItem>;
export type FileChangeItem = z.infer<typeof FileChangeItem>;
