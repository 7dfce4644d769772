// A Claude Code tool result (`tool_result` block + the structured `tool_use_result` of its `user`
// line) -> the output of `tool.invoke.result`, its output_type (§5.3.3, Appendix A) and, for Bash,
// the stdout/stderr chunks of `tool.invoke.stream`.
import { relative, isAbsolute } from 'node:path';
import type { OutputTypeName } from '../../protocol/common';
import { arr, contentText, isObj, num, str, type Json } from './native';
import { toolInfo } from './tools';

export interface ToolOutcome {
  status: 'success' | 'error' | 'cancelled';
  output: unknown;
  output_type: OutputTypeName;
  streams: Array<{ stream_type: 'stdout' | 'stderr'; chunk: string }>;
  truncated?: boolean;
  duration_ms?: number;
}

/** Workspace-relative where the path lies inside it (what a user recognizes), else as given. */
export function displayPath(path: string, workspacePath: string | undefined): string {
  if (!workspacePath || !isAbsolute(path)) return path;
  const rel = relative(workspacePath, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** `structuredPatch` hunks -> a unified diff with file headers. */
export function unifiedDiff(path: string, hunks: unknown[], created = false): string {
  const out = [created ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  for (const h of hunks) {
    if (!isObj(h)) continue;
    out.push(`@@ -${num(h.oldStart) ?? 0},${num(h.oldLines) ?? 0} +${num(h.newStart) ?? 0},${num(h.newLines) ?? 0} @@`);
    for (const l of arr(h.lines)) if (typeof l === 'string') out.push(l);
  }
  return out.join('\n') + '\n';
}

/** A whole new file as a unified diff (Write of a new file gives no hunks). */
function creationDiff(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return unifiedDiff(path, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines: lines.map((l) => '+' + l) }], true);
}

export function toolOutcome(toolName: string, block: Json, structured: unknown, workspacePath: string | undefined, isSubagent: boolean): ToolOutcome {
  const text = contentText(block.content);
  const isError = block.is_error === true;
  const s = isObj(structured) ? structured : undefined;
  const streams: ToolOutcome['streams'] = [];

  if (isSubagent) {
    const result = s ? contentText(s.content) || text : text;
    const failed = isError || (s !== undefined && typeof s.status === 'string' && !['completed', 'async_launched'].includes(s.status));
    return { status: failed ? 'error' : 'success', output: result, output_type: failed ? 'text' : 'agent_result', streams, ...(s && num(s.totalDurationMs) !== undefined ? { duration_ms: num(s.totalDurationMs) } : {}) };
  }
  if (isError) {
    // A refusal, a permission denial or a failure: the message the model saw, as text.
    const interrupted = /interrupted by user/i.test(text);
    return { status: interrupted ? 'cancelled' : 'error', output: text.replace(/^<tool_use_error>|<\/tool_use_error>$/g, ''), output_type: 'text', streams };
  }

  switch (toolName) {
    case 'Bash': {
      const stdout = str(s?.stdout) ?? text;
      const stderr = str(s?.stderr) ?? '';
      if (stdout) streams.push({ stream_type: 'stdout', chunk: stdout });
      if (stderr) streams.push({ stream_type: 'stderr', chunk: stderr });
      const interrupted = s?.interrupted === true;
      return { status: interrupted ? 'cancelled' : 'success', output: stderr ? `${stdout}${stdout && !stdout.endsWith('\n') ? '\n' : ''}${stderr}` : stdout, output_type: 'text', streams };
    }
    case 'Read':
    case 'NotebookRead': {
      const file = isObj(s?.file) ? (s!.file as Json) : undefined;
      const content = str(file?.content);
      return { status: 'success', output: content ?? text, output_type: 'file_content', streams };
    }
    case 'Edit':
    case 'MultiEdit':
    case 'Write':
    case 'NotebookEdit': {
      const filePath = str(s?.filePath) ?? '';
      const path = displayPath(filePath, workspacePath);
      const hunks = arr(s?.structuredPatch);
      // Appendix A: Write reports `empty`; Edit/MultiEdit a diff of what changed.
      if (toolName === 'Write') return { status: 'success', output: text, output_type: 'empty', streams };
      if (hunks.length > 0) return { status: 'success', output: unifiedDiff(path, hunks), output_type: 'diff', streams };
      if (s?.type === 'create' && typeof s.content === 'string') return { status: 'success', output: creationDiff(path, s.content), output_type: 'diff', streams };
      return { status: 'success', output: text, output_type: toolName === 'NotebookEdit' ? 'empty' : 'diff', streams };
    }
    case 'Glob':
    case 'LS': {
      const files = arr(s?.filenames).filter((f): f is string => typeof f === 'string');
      return { status: 'success', output: files.length ? files.map((f) => displayPath(f, workspacePath)) : text.split('\n').filter(Boolean), output_type: 'file_list', streams, ...(s?.truncated === true ? { truncated: true } : {}) };
    }
    case 'Grep': {
      const files = arr(s?.filenames).filter((f): f is string => typeof f === 'string');
      if (s?.mode === 'files_with_matches' && files.length) return { status: 'success', output: files.map((f) => displayPath(f, workspacePath)), output_type: 'file_list', streams };
      return { status: 'success', output: str(s?.content) ?? text, output_type: 'text', streams };
    }
    case 'TodoWrite':
    case 'TodoRead':
    case 'TaskList':
    case 'TaskCreate':
    case 'TaskUpdate': {
      const todos = taskOutput(toolName, s);
      if (todos) return { status: 'success', output: todos, output_type: 'structured', streams };
      return { status: 'success', output: s ?? text, output_type: s ? 'structured' : 'text', streams };
    }
    default: {
      const info = toolInfo(toolName);
      if (info?.output_type === 'structured' && s) return { status: 'success', output: s, output_type: 'structured', streams };
      return { status: 'success', output: text, output_type: info?.output_type && info.output_type !== 'structured' ? info.output_type : 'text', streams };
    }
  }
}

type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';
const STATUSES = new Set<string>(['pending', 'in_progress', 'completed', 'cancelled']);

/** §8.1 task objects from Claude's todo items (no ids of their own: their 1-based position). */
function todoItems(list: unknown[]): Array<Record<string, unknown>> {
  return list.filter(isObj).map((t, i) => {
    const item: Record<string, unknown> = {
      id: str(t.id) ?? String(i + 1),
      content: str(t.content) ?? str(t.subject) ?? '',
      status: (STATUSES.has(String(t.status)) ? t.status : 'pending') as TaskStatus,
    };
    const metadata: Record<string, unknown> = {};
    if (str(t.activeForm)) metadata.activeForm = t.activeForm;
    if (arr(t.blockedBy).length) metadata.blockedBy = t.blockedBy;
    if (str(t.owner)) metadata.owner = t.owner;
    if (Object.keys(metadata).length) item.metadata = metadata;
    return item;
  });
}

/**
 * §8.2 outputs: a whole list (TodoRead, TaskList) is `{ todos }`; a write is `{ success, count,
 * todos? }` — with `todos` only when it is the complete new list (TodoWrite), because a receiver
 * replaces its list with it; TaskCreate/TaskUpdate touch one task.
 */
function taskOutput(toolName: string, s: Json | undefined): Record<string, unknown> | undefined {
  if (!s) return undefined;
  switch (toolName) {
    case 'TodoWrite': {
      const todos = todoItems(arr(s.newTodos));
      return { success: true, count: todos.length, todos };
    }
    case 'TodoRead':
      return { todos: todoItems(arr(s.todos ?? s.newTodos)) };
    case 'TaskList':
      return { todos: todoItems(arr(s.tasks)) };
    case 'TaskCreate':
      return { success: true, count: 1, task: s.task };
    case 'TaskUpdate':
      return { success: s.success !== false, count: s.success === false ? 0 : 1, ...s };
    default:
      return undefined;
  }
}
