// Claude Code's tools as a §5.4.1 catalog: category, the output_type of Appendix A, and whether the
// CLI asks before running them. Unknown tools (MCP, newer versions) still get an entry, so the
// engine never blocks a call only because this table is older than the CLI.
import type { CatalogTool } from '../../session/agentAdapter';
import type { OutputTypeName, ToolCategoryName } from '../../protocol/common';

interface ToolInfo {
  category: ToolCategoryName;
  output_type?: OutputTypeName;
  requires_approval?: boolean;
  description: string;
}

/** Appendix A.1 / A.2, plus the tools newer Claude Code versions list in `system/init`. */
const TABLE: Record<string, ToolInfo> = {
  Bash: { category: 'shell', output_type: 'text', requires_approval: true, description: 'Run a shell command' },
  Read: { category: 'filesystem', output_type: 'file_content', description: 'Read a file' },
  Write: { category: 'filesystem', output_type: 'empty', requires_approval: true, description: 'Write a file' },
  Edit: { category: 'filesystem', output_type: 'diff', requires_approval: true, description: 'Replace text in a file' },
  MultiEdit: { category: 'filesystem', output_type: 'diff', requires_approval: true, description: 'Several replacements in one file' },
  Glob: { category: 'filesystem', output_type: 'file_list', description: 'Find files by pattern' },
  LS: { category: 'filesystem', output_type: 'file_list', description: 'List a directory' },
  // Grep gives lines or paths depending on its output_mode: left to the category rule (§5.3.3).
  Grep: { category: 'search', description: 'Search file contents' },
  WebFetch: { category: 'web', output_type: 'web_content', description: 'Fetch a web page' },
  WebSearch: { category: 'web', output_type: 'web_content', description: 'Search the web' },
  NotebookRead: { category: 'notebook', output_type: 'file_content', description: 'Read a Jupyter notebook' },
  NotebookEdit: { category: 'notebook', output_type: 'diff', requires_approval: true, description: 'Edit a Jupyter notebook cell' },
  TodoRead: { category: 'task_management', output_type: 'structured', description: 'Read the todo list' },
  TodoWrite: { category: 'task_management', output_type: 'structured', description: 'Write the todo list' },
  TaskCreate: { category: 'task_management', output_type: 'structured', description: 'Create a task' },
  TaskGet: { category: 'task_management', output_type: 'structured', description: 'Get a task' },
  TaskList: { category: 'task_management', output_type: 'structured', description: 'List tasks' },
  TaskUpdate: { category: 'task_management', output_type: 'structured', description: 'Update a task' },
  TaskOutput: { category: 'task_management', output_type: 'text', description: 'Output of a background task' },
  TaskStop: { category: 'task_management', output_type: 'text', description: 'Stop a background task' },
  Task: { category: 'agent', output_type: 'agent_result', description: 'Delegate to a subagent' },
  Agent: { category: 'agent', output_type: 'agent_result', description: 'Delegate to a subagent' },
  SendMessage: { category: 'agent', output_type: 'text', description: 'Message a running subagent' },
  EnterPlanMode: { category: 'planning', output_type: 'text', description: 'Enter plan mode' },
  ExitPlanMode: { category: 'planning', output_type: 'text', requires_approval: true, description: 'Present a plan and leave plan mode' },
  AskUserQuestion: { category: 'custom', output_type: 'text', requires_approval: true, description: 'Ask the user a question' },
  Skill: { category: 'custom', output_type: 'text', description: 'Run a skill' },
  Workflow: { category: 'custom', output_type: 'text', description: 'Run a workflow' },
  ReportFindings: { category: 'custom', output_type: 'text', description: 'Report findings' },
  ScheduleWakeup: { category: 'custom', output_type: 'text', description: 'Schedule a wake-up' },
  CronCreate: { category: 'custom', output_type: 'text', description: 'Create a scheduled job' },
  CronDelete: { category: 'custom', output_type: 'text', description: 'Delete a scheduled job' },
  CronList: { category: 'custom', output_type: 'text', description: 'List scheduled jobs' },
  EnterWorktree: { category: 'custom', output_type: 'text', description: 'Enter a git worktree' },
  ExitWorktree: { category: 'custom', output_type: 'text', description: 'Leave a git worktree' },
  BashOutput: { category: 'shell', output_type: 'text', description: 'Output of a background shell' },
  KillShell: { category: 'shell', output_type: 'text', description: 'Stop a background shell' },
};

/** Tools that start a subagent (§10.1). The CLI lists `Task` in init but calls it `Agent`. */
export const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

export function toolInfo(name: string): ToolInfo | undefined {
  return TABLE[name];
}

export function catalogEntry(name: string): CatalogTool {
  const info = TABLE[name];
  if (info) {
    const entry: CatalogTool = { name, description: info.description, category: info.category };
    if (info.output_type) entry.output_type = info.output_type;
    if (info.requires_approval) entry.requires_approval = true;
    return entry;
  }
  if (name.startsWith('mcp__')) return { name, description: `MCP tool ${name.split('__').slice(1).join('/')}`, category: 'mcp', requires_approval: true };
  return { name, description: `Claude Code tool ${name}`, category: 'custom' };
}

/** The catalog for the tool names of `system/init` (with `Agent` whenever `Task` is there). */
export function catalogFor(names: readonly string[]): CatalogTool[] {
  const all = new Set(names);
  if (all.has('Task') || all.has('Agent')) {
    all.add('Task');
    all.add('Agent');
  }
  return [...all].map(catalogEntry);
}

/** Before the first `system/init` (it only comes with the first prompt): every tool we know of. */
export function defaultCatalog(): CatalogTool[] {
  return Object.keys(TABLE).map(catalogEntry);
}
