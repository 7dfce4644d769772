// §6.3.2 which tools a mode allows, by catalog category. `default` allows everything; `plan` and
// `review` allow reading, searching and the web, and block writes and the shell. The spec's table
// names only those categories; for the rest we decide (docs/decisions/038-mode-gating-beyond-table.md): task lists, planning
// and subagents stay allowed (a subagent's own calls are gated by the same mode), notebooks follow
// the read/write split, and mcp/custom tools are blocked because their side effects are unknown.
import type { AgentModeName, ToolCategoryName } from './common';

export const MODE_BLOCKED_MESSAGE = 'Tool not allowed in current mode';

/** Tool names that only read, compared without case, `_` or `-` (Claude's and our built-ins'). */
const READ_ONLY_NAMES = new Set(['read', 'readfile', 'glob', 'ls', 'list', 'grep', 'search', 'notebookread', 'webfetch', 'websearch', 'todoread']);

function normalize(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

export function isReadOnlyToolName(name: string): boolean {
  return READ_ONLY_NAMES.has(normalize(name));
}

/** May a tool of this category and name run in this mode? */
export function modeAllows(mode: AgentModeName, category: ToolCategoryName | undefined, toolName: string): boolean {
  if (mode === 'default') return true;
  switch (category) {
    case 'search':
    case 'web':
    case 'task_management':
    case 'planning':
    case 'agent':
      return true;
    case 'filesystem':
    case 'notebook':
      return isReadOnlyToolName(toolName);
    case 'shell':
    case 'mcp':
    case 'custom':
      return false;
    default:
      // No category: allow only what is known to be read-only by name.
      return isReadOnlyToolName(toolName);
  }
}
