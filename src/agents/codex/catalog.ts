// The tools Codex runs, as DPS catalog entries. Codex's own tools (exec_command, apply_patch) reach
// us as `command_execution` / `file_change` items; we name them so a reader of the transcript
// recognises them: the shell as Claude Code's `Bash`, the patch tool by its Codex name.
import type { CatalogTool } from '../../session/agentAdapter';

export const CODEX_BASH = 'Bash';
export const CODEX_APPLY_PATCH = 'apply_patch';
export const CODEX_WEB_SEARCH = 'WebSearch';
export const CODEX_TODOS = 'TodoWrite';

export const CODEX_TOOLS: CatalogTool[] = [
  {
    name: CODEX_BASH,
    description: 'Runs a shell command in the Codex sandbox (read-only in plan and review mode).',
    category: 'shell',
    output_type: 'text',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  {
    name: CODEX_APPLY_PATCH,
    description: 'Applies a patch to workspace files (Codex apply_patch); the result is the unified diff.',
    category: 'filesystem',
    output_type: 'diff',
    input_schema: {
      type: 'object',
      properties: { changes: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, kind: { type: 'string' } } } } },
    },
  },
  {
    name: CODEX_WEB_SEARCH,
    description: 'Web search run by the model provider.',
    category: 'web',
    output_type: 'web_content',
    input_schema: { type: 'object', properties: { query: { type: 'string' } } },
  },
  {
    name: CODEX_TODOS,
    description: "Codex's plan (todo list) updates.",
    category: 'task_management',
    output_type: 'structured',
  },
];

/** An MCP tool Codex called, named as Claude Code names MCP tools. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

export function mcpCatalogEntry(server: string, tool: string): CatalogTool {
  return { name: mcpToolName(server, tool), description: `MCP tool ${tool} of server ${server} (via Codex)`, category: 'mcp', output_type: 'structured' };
}
