// ACP tool calls carry a `kind` (read, edit, execute, …) and a free-text title, and only sometimes
// a tool name (`name`, or Claude's `_meta.claudeCode.toolName`). The DPS catalog needs names with a
// category and an output_type (§5.3.3), so every call gets one: its own name when the agent says
// it, else a Claude Code-like name for its kind. The catalog grows (and is re-published) when an
// agent names a tool we had not listed.
import type { CatalogTool } from '../../session/agentAdapter';
import type { OutputTypeName, ToolCategoryName } from '../../protocol/common';

export type AcpToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

interface KindInfo {
  name: string;
  category: ToolCategoryName;
  output_type: OutputTypeName;
  description: string;
}

export const KIND_TOOLS: Record<AcpToolKind, KindInfo> = {
  read: { name: 'Read', category: 'filesystem', output_type: 'file_content', description: 'Reads a file (ACP kind "read").' },
  edit: { name: 'Edit', category: 'filesystem', output_type: 'diff', description: 'Changes a file (ACP kind "edit").' },
  delete: { name: 'Delete', category: 'filesystem', output_type: 'diff', description: 'Deletes a file (ACP kind "delete").' },
  move: { name: 'Move', category: 'filesystem', output_type: 'text', description: 'Moves or renames a file (ACP kind "move").' },
  search: { name: 'Search', category: 'search', output_type: 'text', description: 'Searches files or content (ACP kind "search").' },
  execute: { name: 'Bash', category: 'shell', output_type: 'text', description: 'Runs a command (ACP kind "execute").' },
  think: { name: 'Think', category: 'custom', output_type: 'text', description: 'Internal reasoning step (ACP kind "think").' },
  fetch: { name: 'WebFetch', category: 'web', output_type: 'web_content', description: 'Fetches web content (ACP kind "fetch").' },
  switch_mode: { name: 'SwitchMode', category: 'planning', output_type: 'text', description: 'Switches the agent mode (ACP kind "switch_mode").' },
  other: { name: 'Tool', category: 'custom', output_type: 'text', description: 'Any other tool (ACP kind "other").' },
};

/** ACP `plan` updates are shown as TodoWrite calls (§8.2). */
export const ACP_TODOS = 'TodoWrite';

export function baseAcpCatalog(): CatalogTool[] {
  const tools: CatalogTool[] = Object.values(KIND_TOOLS).map((k) => ({ name: k.name, description: k.description, category: k.category, output_type: k.output_type }));
  tools.push({ name: ACP_TODOS, description: "The agent's plan (ACP `plan` updates).", category: 'task_management', output_type: 'structured' });
  return tools;
}

export function kindOf(kind: unknown): AcpToolKind {
  return typeof kind === 'string' && kind in KIND_TOOLS ? (kind as AcpToolKind) : 'other';
}

/** The name a call is shown under: the agent's own name when it gives one, else its kind's. */
export function toolNameOf(call: { name?: string | null; kind?: string | null; _meta?: { claudeCode?: { toolName?: string } } | null }): string {
  if (call.name) return call.name;
  const claude = call._meta?.claudeCode?.toolName;
  if (claude) return claude;
  return KIND_TOOLS[kindOf(call.kind)].name;
}

// Claude's subagent tools. claude-agent-acp sends them as kind "think" (its title is the task's
// description), so only the name it gives in `_meta.claudeCode.toolName` tells them apart; they are
// the "subagent delegation (Task)" row of §5.3.3, and their agent_result marks a subagent's answer even
// without subagent_context, which ACP cannot give (§10.7).
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

/** A catalog entry for a name the agent gave, classified by the call's kind (subagent tools by name). */
export function catalogEntryFor(name: string, kind: AcpToolKind): CatalogTool {
  if (SUBAGENT_TOOLS.has(name)) return { name, description: `${name} (delegates to a subagent; ACP kind "${kind}")`, category: 'agent', output_type: 'agent_result' };
  const k = KIND_TOOLS[kind];
  return { name, description: `${name} (${k.description})`, category: k.category, output_type: k.output_type };
}
