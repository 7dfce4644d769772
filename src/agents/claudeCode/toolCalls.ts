// The tool calls of one Claude Code turn (translate.ts): the tool uses of one assistant message are
// buffered and go out together, as one parallel group when there are several (§13.4); a call that
// starts a subagent (Task/Agent) gets `agent.subagent.started` and its depth, so the subagent's
// own lines carry their `subagent_context` (§10.2); a result closes the call, the subagent ending
// right before it (§10.3.2); and at a turn's end what is still open is closed as cancelled.
import type { AgentEvent } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import { STRUCTURED_OUTPUT_TOOL } from './capabilities';
import { pushEvent, type ClaudeItem } from './items';
import type { StreamLine, ToolUseBlock } from './streamJson';
import { SUBAGENT_TOOLS } from './tools';

export interface OpenTool {
  name: string;
  metadata?: Metadata;
  /** Set when this call started a subagent. */
  subagent?: { depth: number; agent_type?: string };
  streamSeq: number;
}

interface PendingTools {
  key: string;
  messageId: string;
  parent: string | null;
  uses: ToolUseBlock[];
}

type ToolStatus = 'success' | 'error' | 'cancelled';
type OutputType = Extract<AgentEvent, { type: 'tool.invoke.result' }>['payload']['output_type'];
type StreamType = Extract<AgentEvent, { type: 'tool.invoke.stream' }>['payload']['stream_type'];

export class ToolCalls {
  private readonly open = new Map<string, OpenTool>();
  /** Depth of every subagent ever started, so late lines still get their context. */
  private readonly subagentDepth = new Map<string, { depth: number; agent_type?: string }>();
  private pending: PendingTools | undefined;
  /** §11: the main agent's latest StructuredOutput call (--json-schema), kept for a failed result. */
  structuredAttempt: Record<string, unknown> | undefined;

  /**
   * `plan`: §9.1, the plan of ExitPlanMode shown as a plan document before the call.
   * `subagentEnding`: a subagent is about to end (its own last frames, e.g. its usage, §10.5).
   */
  constructor(
    private readonly plan: (out: ClaudeItem[], text: string, metadata: Metadata) => void,
    private readonly subagentEnding: (out: ClaudeItem[], id: string) => void = () => {},
  ) {}

  /** Is a call open or buffered? */
  get busy(): boolean {
    return this.open.size > 0 || this.pending !== undefined;
  }

  get(id: string): OpenTool | undefined {
    return this.open.get(id);
  }

  /** Before each line: buffered uses go out unless the line continues their message. */
  beforeLine(line: StreamLine, out: ClaudeItem[]): void {
    if (this.pending && !this.continuesPending(line)) this.flush(out);
  }

  /** A tool use of an assistant message: buffered with the others of the same message. */
  buffer(out: ClaudeItem[], use: ToolUseBlock, parent: string | null, messageId: string): void {
    const key = `${parent ?? ''}|${messageId}`;
    if (this.pending && this.pending.key !== key) this.flush(out);
    this.pending ??= { key, messageId, parent, uses: [] };
    this.pending.uses.push(use);
  }

  /** Emit the buffered tool uses of one message: one parallel group when there are several (§13.4). */
  flush(out: ClaudeItem[]): void {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    const group = p.uses.length > 1 ? `pg_${p.messageId || p.uses.map((u) => u.id).join('_')}` : undefined;
    for (const use of p.uses) this.request(out, use, p.parent, group);
  }

  /** A chunk of a call's output or progress (§10.4, §13.5), numbered per call. */
  stream(out: ClaudeItem[], id: string, open: OpenTool, stream_type: StreamType, chunk: string, metadata: Metadata | undefined): void {
    pushEvent(out, { type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: open.name, stream_type, chunk, sequence: open.streamSeq++ } }, metadata);
  }

  finish(out: ClaudeItem[], id: string, open: OpenTool, status: ToolStatus, output: unknown, output_type: OutputType, extra: { duration_ms?: number; truncated?: boolean } = {}): void {
    this.open.delete(id);
    if (open.subagent) {
      this.subagentEnding(out, id);
      // §10.3.2: ended right before the agent_result.
      const ended: Extract<AgentEvent, { type: 'agent.subagent.ended' }>['payload'] = {
        parent_invocation_id: id,
        status: status === 'success' ? 'completed' : status === 'cancelled' ? 'cancelled' : 'failed',
      };
      if (extra.duration_ms !== undefined) ended.duration_ms = extra.duration_ms;
      pushEvent(out, { type: 'agent.subagent.ended', payload: ended }, open.metadata);
    }
    const payload: Extract<AgentEvent, { type: 'tool.invoke.result' }>['payload'] = {
      invocation_id: id,
      tool_name: open.name,
      status,
      output: output === undefined ? null : output,
      output_type: open.subagent ? 'agent_result' : output_type,
    };
    if (extra.duration_ms !== undefined) payload.duration_ms = extra.duration_ms;
    if (extra.truncated) payload.truncated = true;
    pushEvent(out, { type: 'tool.invoke.result', payload }, open.metadata);
  }

  /** Close every open call (innermost first), e.g. at the end of an interrupted turn. */
  closeAll(out: ClaudeItem[], cancelled: boolean): void {
    if (this.pending) this.flush(out);
    for (const id of [...this.open.keys()].reverse()) {
      const open = this.open.get(id)!;
      this.finish(out, id, open, 'cancelled', cancelled ? 'Cancelled' : 'The turn ended before the tool reported a result', 'text');
    }
  }

  /** §10.2: the subagent context of a line with `parent_tool_use_id`. */
  contextOf(parent: string | null): Metadata | undefined {
    if (!parent) return undefined;
    const sub = this.subagentDepth.get(parent);
    return { subagent_context: { parent_invocation_id: parent, depth: sub?.depth ?? 1, ...(sub?.agent_type ? { agent_type: sub.agent_type } : {}) } };
  }

  /** The subagent context of a call, open or still buffered (a PreToolUse hook may ask before it goes out). */
  metadataOf(id: string): Metadata | undefined {
    const open = this.open.get(id);
    if (open) return open.metadata;
    return this.pending?.uses.some((u) => u.id === id) ? this.contextOf(this.pending.parent) : undefined;
  }

  private continuesPending(line: StreamLine): boolean {
    // Our PreToolUse hook fires between the tool uses of one message: it emits nothing, so the
    // message's calls still go out together (one parallel group, §13.4).
    if (line.type === 'control_request' && line.request.subtype === 'hook_callback') return true;
    if (line.type === 'assistant') return `${line.parent_tool_use_id ?? ''}|${line.message.id ?? ''}` === this.pending?.key;
    if (line.type === 'stream_event') {
      const t = line.event.type;
      return t !== 'message_delta' && t !== 'message_stop' && t !== 'message_start';
    }
    return false;
  }

  private request(out: ClaudeItem[], use: ToolUseBlock, parent: string | null, group: string | undefined): void {
    const { id, name, input } = use;
    if (this.open.has(id)) return;
    const metadata = this.contextOf(parent);
    const open: OpenTool = { name, streamSeq: 0, ...(metadata ? { metadata } : {}) };
    // §9.1: the plan of ExitPlanMode is a plan document, shown as such before the call.
    if (name === 'ExitPlanMode' && typeof input.plan === 'string' && input.plan) {
      this.plan(out, input.plan, { ...(metadata ?? {}), content_role: 'plan', plan_id: id });
    }
    const payload: Extract<AgentEvent, { type: 'tool.invoke.request' }>['payload'] = { invocation_id: id, tool_name: name, input };
    if (group) payload.parallel_group_id = group;
    if (SUBAGENT_TOOLS.has(name)) {
      const depth = (metadata?.subagent_context?.depth ?? 0) + 1;
      const agent_type = typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose';
      const description = typeof input.description === 'string' ? input.description : undefined;
      open.subagent = { depth, agent_type };
      this.subagentDepth.set(id, { depth, agent_type });
      payload.subagent = { agent_type, ...(description ? { description } : {}) };
      this.open.set(id, open);
      pushEvent(out, { type: 'tool.invoke.request', payload }, metadata);
      pushEvent(out, { type: 'agent.subagent.started', payload: { parent_invocation_id: id, agent_type, depth, ...(description ? { description } : {}) } }, metadata);
      return;
    }
    this.open.set(id, open);
    if (name === STRUCTURED_OUTPUT_TOOL && !metadata?.subagent_context) this.structuredAttempt = input;
    pushEvent(out, { type: 'tool.invoke.request', payload }, metadata);
  }
}
