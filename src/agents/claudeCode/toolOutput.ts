// A Claude Code tool result (`tool_result` block + the structured `tool_use_result` of its `user`
// line) -> the output of `tool.invoke.result`, its output_type (§5.3.3, Appendix A) and, for Bash,
// the stdout/stderr chunks of `tool.invoke.stream`.
//
// The structured result is read through the schemas below, field by field: a field that does
// not fit is absent (the text of the `tool_result` block stands in), because the structured
// result only refines what the block already says.
import { relative, isAbsolute } from 'node:path';
import { z } from 'zod';
import type { OutputTypeName } from '../../protocol/common';
import { hunkHeader } from '../../protocol/hunkHeader';
import { contentText, type ToolResultBlock } from './streamJson';
import { toolInfo } from './tools';
import { leavesRoot } from '../../workspace/leavesRoot';

/** An optional field that is absent when it does not fit. */
const opt = <T extends z.ZodType>(t: T) => t.optional().catch(undefined);
const Hunk = z.looseObject({ oldStart: opt(z.number()), oldLines: opt(z.number()), newStart: opt(z.number()), newLines: opt(z.number()), lines: opt(z.array(z.string())) });
type Hunk = z.infer<typeof Hunk>;
const TodoItem = z.looseObject({ id: opt(z.string()), content: opt(z.string()), subject: opt(z.string()), status: opt(z.string()), activeForm: opt(z.string()), blockedBy: opt(z.array(z.unknown())), owner: opt(z.string()) });
const TodoList = opt(z.array(TodoItem.nullable().catch(null)));

/** `tool_use_result` of the tools whose results we refine (the union of their fields). */
const Structured = z.looseObject({
  stdout: opt(z.string()),
  stderr: opt(z.string()),
  interrupted: opt(z.boolean()),
  file: opt(z.looseObject({ content: opt(z.string()) })),
  filePath: opt(z.string()),
  structuredPatch: opt(z.array(Hunk)),
  type: opt(z.string()),
  content: opt(z.union([z.string(), z.array(z.unknown())])),
  filenames: opt(z.array(z.string())),
  truncated: opt(z.boolean()),
  mode: opt(z.string()),
  newTodos: TodoList,
  todos: TodoList,
  tasks: TodoList,
  task: z.unknown().optional(),
  success: opt(z.boolean()),
  status: opt(z.string()),
  totalDurationMs: opt(z.number()),
});
type Structured = z.infer<typeof Structured>;

export interface ToolOutcome {
  status: 'success' | 'error' | 'cancelled';
  output: unknown;
  output_type: OutputTypeName;
  streams: Array<{ stream_type: 'stdout' | 'stderr'; chunk: string }>;
  truncated?: boolean;
  duration_ms?: number;
}

/** Workspace-relative where the path lies inside it (what a user recognizes), else as given. */
export function displayPath(path: string, workspacePath: string | readonly string[] | undefined): string {
  if (!workspacePath || !isAbsolute(path)) return path;
  // The workspace under every name it has: ours, and the CLI's own cwd (its realpath, e.g. through
  // a symlinked folder or macOS's /tmp -> /private/tmp), so a file inside is never shown absolute.
  for (const root of typeof workspacePath === 'string' ? [workspacePath] : workspacePath) {
    const rel = relative(root, path);
    if (rel && !leavesRoot(rel)) return rel;
  }
  return path;
}

/** `structuredPatch` hunks -> a unified diff with file headers. */
export function unifiedDiff(path: string, hunks: readonly Hunk[], created = false): string {
  const out = [created ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  for (const h of hunks) {
    out.push(hunkHeader({ oldStart: h.oldStart ?? 0, oldLines: h.oldLines ?? 0, newStart: h.newStart ?? 0, newLines: h.newLines ?? 0 }));
    out.push(...(h.lines ?? []));
  }
  return out.join('\n') + '\n';
}

/** A whole new file as a unified diff (Write of a new file gives no hunks). */
function creationDiff(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return unifiedDiff(path, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines: lines.map((l) => '+' + l) }], true);
}

export function toolOutcome(toolName: string, block: ToolResultBlock, structured: unknown, workspacePath: string | readonly string[] | undefined, isSubagent: boolean): ToolOutcome {
  const text = contentText(block.content);
  const isError = block.is_error === true;
  const parsed = Structured.safeParse(structured);
  const s = parsed.success ? parsed.data : undefined;
  const streams: ToolOutcome['streams'] = [];

  if (isSubagent) {
    const result = s ? contentText(s.content) || text : text;
    const failed = isError || (s?.status !== undefined && !['completed', 'async_launched'].includes(s.status));
    return { status: failed ? 'error' : 'success', output: result, output_type: failed ? 'text' : 'agent_result', streams, ...(s?.totalDurationMs !== undefined ? { duration_ms: s.totalDurationMs } : {}) };
  }
  if (isError) {
    // A refusal, a permission denial or a failure: the message the model saw, as text.
    const interrupted = /interrupted by user/i.test(text);
    return { status: interrupted ? 'cancelled' : 'error', output: text.replace(/^<tool_use_error>|<\/tool_use_error>$/g, ''), output_type: 'text', streams };
  }

  switch (toolName) {
    case 'Bash': {
      const stdout = s?.stdout ?? text;
      const stderr = s?.stderr ?? '';
      if (stdout) streams.push({ stream_type: 'stdout', chunk: stdout });
      if (stderr) streams.push({ stream_type: 'stderr', chunk: stderr });
      const interrupted = s?.interrupted === true;
      return { status: interrupted ? 'cancelled' : 'success', output: stderr ? `${stdout}${stdout && !stdout.endsWith('\n') ? '\n' : ''}${stderr}` : stdout, output_type: 'text', streams };
    }
    case 'Read':
    case 'NotebookRead': {
      return { status: 'success', output: s?.file?.content ?? text, output_type: 'file_content', streams };
    }
    case 'Edit':
    case 'MultiEdit':
    case 'Write':
    case 'NotebookEdit': {
      const path = displayPath(s?.filePath ?? '', workspacePath);
      const hunks = s?.structuredPatch ?? [];
      // Appendix A: Write reports `empty`; Edit/MultiEdit a diff of what changed.
      if (toolName === 'Write') return { status: 'success', output: text, output_type: 'empty', streams };
      if (hunks.length > 0) return { status: 'success', output: unifiedDiff(path, hunks), output_type: 'diff', streams };
      if (s?.type === 'create' && typeof s.content === 'string') return { status: 'success', output: creationDiff(path, s.content), output_type: 'diff', streams };
      return { status: 'success', output: text, output_type: toolName === 'NotebookEdit' ? 'empty' : 'diff', streams };
    }
    case 'Glob':
    case 'LS': {
      const files = s?.filenames ?? [];
      return { status: 'success', output: files.length ? files.map((f) => displayPath(f, workspacePath)) : text.split('\n').filter(Boolean), output_type: 'file_list', streams, ...(s?.truncated === true ? { truncated: true } : {}) };
    }
    case 'Grep': {
      const files = s?.filenames ?? [];
      if (s?.mode === 'files_with_matches' && files.length) return { status: 'success', output: files.map((f) => displayPath(f, workspacePath)), output_type: 'file_list', streams };
      return { status: 'success', output: typeof s?.content === 'string' ? s.content : text, output_type: 'text', streams };
    }
    case 'TodoWrite':
    case 'TodoRead':
    case 'TaskList':
    case 'TaskCreate':
    case 'TaskUpdate': {
      const todos = taskOutput(toolName, s);
      if (todos) return { status: 'success', output: todos, output_type: 'structured', streams };
      return { status: 'success', output: parsed.success ? structured : text, output_type: parsed.success ? 'structured' : 'text', streams };
    }
    default: {
      const info = toolInfo(toolName);
      if (info?.output_type === 'structured' && parsed.success) return { status: 'success', output: structured, output_type: 'structured', streams };
      return { status: 'success', output: text, output_type: info?.output_type && info.output_type !== 'structured' ? info.output_type : 'text', streams };
    }
  }
}

type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';
const STATUSES = new Set<string>(['pending', 'in_progress', 'completed', 'cancelled']);

/** §8.1 task objects from Claude's todo items (no ids of their own: their 1-based position). */
function todoItems(list: z.infer<typeof TodoList>): Array<Record<string, unknown>> {
  return (list ?? []).flatMap((t, i) => {
    if (!t) return [];
    const item: Record<string, unknown> = {
      id: t.id ?? String(i + 1),
      content: t.content ?? t.subject ?? '',
      status: (t.status && STATUSES.has(t.status) ? t.status : 'pending') as TaskStatus,
    };
    const metadata: Record<string, unknown> = {};
    if (t.activeForm) metadata.activeForm = t.activeForm;
    if (t.blockedBy?.length) metadata.blockedBy = t.blockedBy;
    if (t.owner) metadata.owner = t.owner;
    if (Object.keys(metadata).length) item.metadata = metadata;
    return [item];
  });
}

/**
 * §8.2 outputs: a whole list (TodoRead, TaskList) is `{ todos }`; a write is `{ success, count,
 * todos? }` — with `todos` only when it is the complete new list (TodoWrite), because a receiver
 * replaces its list with it; TaskCreate/TaskUpdate touch one task.
 */
function taskOutput(toolName: string, s: Structured | undefined): Record<string, unknown> | undefined {
  if (!s) return undefined;
  switch (toolName) {
    case 'TodoWrite': {
      const todos = todoItems(s.newTodos);
      return { success: true, count: todos.length, todos };
    }
    case 'TodoRead':
      return { todos: todoItems(s.todos ?? s.newTodos) };
    case 'TaskList':
      return { todos: todoItems(s.tasks) };
    case 'TaskCreate':
      return { success: true, count: 1, task: s.task };
    case 'TaskUpdate':
      return { success: s.success !== false, count: s.success === false ? 0 : 1, ...s };
    default:
      return undefined;
  }
}
