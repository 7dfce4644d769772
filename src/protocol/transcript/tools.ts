// §5 tool invocations (request, ordered stream, result), §13.4 parallel groups, §10 subagent
// runs and §8 task lists. An invocation is found by `invocation_id` wherever it was placed; a
// stream or result for an unknown invocation gets a placeholder so nothing that arrived is lost.
import type { FrameOf } from '../frameTypes';
import {
  append,
  containerOf,
  ensureRun,
  newKey,
  placeholderTool,
  register,
  scopeOf,
  touch,
  type Container,
  type Transcript,
} from './state';
import { extractTodos } from './todos';
import type { ParallelGroupBlock, ToolBlock, ToolChunk } from './types';

function toolFor(t: Transcript, frame: FrameOf<'tool.invoke.stream'> | FrameOf<'tool.invoke.result'>): ToolBlock {
  const known = t.idx.tools.get(frame.payload.invocation_id);
  if (known) return known;
  return placeholderTool(t, containerOf(t, frame), frame.payload.invocation_id, frame.payload.tool_name, frame);
}

/** §13.4 calls with one `parallel_group_id` share one group block in their container. */
function groupFor(t: Transcript, container: Container, groupId: string, frame: FrameOf<'tool.invoke.request'>): ParallelGroupBlock {
  const key = `${container.key}|pg|${groupId}`;
  const known = t.idx.groups.get(key);
  if (known) return known;
  const group = append(t, container, {
    kind: 'parallel',
    key: newKey(t, 'group'),
    rev: 0,
    groupId,
    invocations: [],
    ...scopeOf(t, frame),
  } satisfies ParallelGroupBlock);
  t.idx.groups.set(key, group);
  return group;
}

export function onToolRequest(t: Transcript, frame: FrameOf<'tool.invoke.request'>): void {
  const p = frame.payload;
  const known = t.idx.tools.get(p.invocation_id);
  if (known) {
    // First request wins; a placeholder (stream/result seen first) is filled in where it stands.
    if (known.requestSeen) return;
    known.requestSeen = true;
    known.toolName = p.tool_name;
    known.input = p.input;
    if (p.tool_version !== undefined) known.toolVersion = p.tool_version;
    if (p.parallel_group_id !== undefined) known.parallelGroupId = p.parallel_group_id;
    if (p.subagent !== undefined) known.subagentSpec = p.subagent;
    touch(t, known.key);
    return;
  }
  const container = containerOf(t, frame);
  const tool: ToolBlock = {
    kind: 'tool',
    key: newKey(t, 'tool'),
    rev: 0,
    invocationId: p.invocation_id,
    toolName: p.tool_name,
    input: p.input,
    requestSeen: true,
    turnId: frame.turn_id,
    chunks: [],
    duplicateChunks: 0,
    ...scopeOf(t, frame),
  };
  if (tool.turnId === undefined && container !== t.idx.root) tool.turnId = turnIdOf(container);
  if (p.tool_version !== undefined) tool.toolVersion = p.tool_version;
  if (p.subagent !== undefined) tool.subagentSpec = p.subagent;
  t.idx.tools.set(p.invocation_id, tool);
  t.idx.openTools.add(tool);
  if (p.parallel_group_id !== undefined) {
    tool.parallelGroupId = p.parallel_group_id;
    const group = groupFor(t, container, p.parallel_group_id, frame);
    group.invocations.push(tool);
    register(t, tool, group.key);
    touch(t, group.key);
  } else {
    append(t, container, tool);
  }
}

function turnIdOf(container: Container): string | undefined {
  return 'turnId' in container ? container.turnId : undefined;
}

/** Inserts keeping `sequence` order; in-order arrival (the usual case) is an O(1) push. */
function insertChunk(chunks: ToolChunk[], chunk: ToolChunk): boolean {
  let lo = 0;
  let hi = chunks.length;
  if (hi === 0 || chunks[hi - 1].sequence < chunk.sequence) {
    chunks.push(chunk);
    return true;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chunks[mid].sequence < chunk.sequence) lo = mid + 1;
    else hi = mid;
  }
  if (lo < chunks.length && chunks[lo].sequence === chunk.sequence) return false;
  chunks.splice(lo, 0, chunk);
  return true;
}

export function onToolStream(t: Transcript, frame: FrameOf<'tool.invoke.stream'>): void {
  const tool = toolFor(t, frame);
  const p = frame.payload;
  if (!insertChunk(tool.chunks, { sequence: p.sequence, streamType: p.stream_type, chunk: p.chunk })) tool.duplicateChunks++;
  touch(t, tool.key);
}

export function onToolResult(t: Transcript, frame: FrameOf<'tool.invoke.result'>): void {
  const tool = toolFor(t, frame);
  const p = frame.payload;
  const synthetic = frame.metadata?.synthetic === true;
  // The first real result wins; a real result replaces a synthetic one (§7.8.1 placeholder).
  if (tool.result && !(tool.result.synthetic && !synthetic)) return;
  tool.result = {
    status: p.status,
    output: p.output,
    outputType: p.output_type,
    truncated: p.truncated === true,
    synthetic,
    messageId: frame.message_id,
  };
  if (p.duration_ms !== undefined) tool.result.durationMs = p.duration_ms;
  if (p.error_code !== undefined) tool.result.errorCode = p.error_code;
  if (p.allowed_by_rule !== undefined) tool.result.allowedByRule = p.allowed_by_rule;
  t.idx.openTools.delete(tool);
  touch(t, tool.key);
  const todos = p.status === 'success' ? extractTodos(p.output_type, p.output) : undefined;
  if (todos) {
    const list = { items: todos.items, invalidItems: todos.invalidItems, invocationId: p.invocation_id, toolName: p.tool_name };
    // Subagents keep their own list; the session's list is the main agent's (§10.2 depth 0).
    const run = tool.scope !== undefined ? t.idx.runs.get(tool.scope) : undefined;
    if (run) {
      run.todos = list;
      touch(t, run.key);
    } else {
      t.todos = list;
    }
  }
}

export function onSubagentStarted(t: Transcript, frame: FrameOf<'agent.subagent.started'>): void {
  const p = frame.payload;
  const run = ensureRun(t, p.parent_invocation_id, p.depth, frame);
  run.started = true;
  run.depth = p.depth;
  if (p.agent_type !== undefined) run.agentType = p.agent_type;
  if (p.description !== undefined) run.description = p.description;
  touch(t, run.key);
}

export function onSubagentEnded(t: Transcript, frame: FrameOf<'agent.subagent.ended'>): void {
  const p = frame.payload;
  const known = t.idx.runs.get(p.parent_invocation_id);
  const run = known ?? ensureRun(t, p.parent_invocation_id, 1, frame);
  run.status = p.status;
  run.synthetic = false;
  if (p.duration_ms !== undefined) run.durationMs = p.duration_ms;
  t.idx.runningRuns.delete(run);
  touch(t, run.key);
}
