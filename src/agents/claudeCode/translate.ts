// Claude Code stream-json -> DPS frame content. Pure translation with a little state (open
// blocks, open tool calls, subagent depths, the session id): the live adapter feeds it the
// process's stdout, `rawp convert --from claude-code` feeds it a captured transcript.
//
// What it returns are *items* (items.ts). Lines are read through the schemas of streamJson.ts;
// usage/cost accounting, compaction detection, permission asks, the turn's end and the content
// blocks are their own units (usageMeter.ts, compaction.ts, permissionAsk.ts, turnEnd.ts,
// contentBlocks.ts); this file keeps the order of things: blocks, tool calls, subagents.
import type { AgentEvent, TurnOutcome } from '../../session/agentAdapter';
import { STRUCTURED_OUTPUT_TOOL } from './capabilities';
import type { Metadata } from '../../protocol/envelope';
import { commandsFromInitialize } from './commands';
import { CompactionWatch } from './compaction';
import { permissionAskOf } from './permissionAsk';
import { contentText, parseStreamLine, RequestId, type AssistantLine, type ControlRequestLine, type ResultLine, type StreamEventLine, type StreamLine, type SystemLine, type ToolUseBlock, type UserLine } from './streamJson';
import { catalogFor, SUBAGENT_TOOLS } from './tools';
import { toolOutcome } from './toolOutput';
import { turnEnd } from './turnEnd';
import { UsageMeter } from './usageMeter';
import { ContentBlocks } from './contentBlocks';
import type { ClaudeItem } from './items';

export type { PermissionAsk } from './permissionAsk';
export { affectedPaths } from './permissionAsk';

export type { ClaudeInit, ClaudeItem } from './items';

interface OpenTool {
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

export interface TranslatorOptions {
  /** For workspace-relative paths in diffs and permission asks. */
  workspacePath?: string;
}

export class ClaudeTranslator {
  agentSessionId: string | undefined;
  model: string | undefined;
  /** The CLI's own working directory (system init `cwd`): the workspace with symlinks resolved. */
  private agentCwd: string | undefined;
  private readonly blocks = new ContentBlocks();
  private readonly streamedMessages = new Set<string>();
  /** The message a parent context is streaming (stream events carry no message id but in message_start). */
  private readonly streamingMessage = new Map<string, string>();
  private readonly tools = new Map<string, OpenTool>();
  /** Depth of every subagent ever started, so late lines still get their context. */
  private readonly subagentDepth = new Map<string, { depth: number; agent_type?: string }>();
  private pending: PendingTools | undefined;
  private interruptRequested = false;
  /** §11: the main agent's latest StructuredOutput call (--json-schema), kept for a failed result. */
  private structuredAttempt: Record<string, unknown> | undefined;
  /** The CLI said it has no credentials (`error: "authentication_failed"`): the turn's end says how to log in. */
  private authFailed = false;
  private readonly usage = new UsageMeter();
  /** Set `compaction.requested` before a compaction the master asked for (§6.3.1). */
  readonly compaction = new CompactionWatch();

  constructor(private readonly options: TranslatorOptions = {}) {}

  /** The caller sent an interrupt: the coming `result` ends the turn as `cancelled`. */
  markInterrupted(): void {
    this.interruptRequested = true;
  }

  /** Is anything of the turn still open (blocks, tool calls)? */
  get turnOpen(): boolean {
    return this.blocks.size > 0 || this.tools.size > 0 || this.pending !== undefined;
  }

  /** One decoded stdout line (any JSON value). */
  translate(value: unknown): ClaudeItem[] {
    const parsed = parseStreamLine(value);
    // keep_alive and line types of newer versions: nothing to show.
    if (parsed.kind === 'unknown') return [];
    if (parsed.kind === 'malformed') {
      const items: ClaudeItem[] = [{ kind: 'malformed', type: parsed.type, detail: parsed.detail }];
      // The CLI waits for an answer to every control request: a request we cannot read is
      // answered as unsupported (a refusal, for a permission ask), never left hanging.
      const id = parsed.type === 'control_request' ? RequestId.safeParse(value) : undefined;
      if (id?.success) items.push({ kind: 'control_request', request_id: id.data.request_id, subtype: 'unreadable' });
      return items;
    }
    const line = parsed.line;
    const out: ClaudeItem[] = [];
    if (this.pending && !this.continuesPending(line)) this.flushTools(out);
    switch (line.type) {
      case 'system':
        this.system(line, out);
        break;
      case 'stream_event':
        this.streamEvent(line, out);
        break;
      case 'assistant':
        this.assistant(line, out);
        break;
      case 'user':
        this.user(line, out);
        break;
      case 'result':
        this.result(line, out);
        break;
      case 'control_request':
        this.controlRequest(line, out);
        break;
      case 'control_response':
        this.controlResponse(line, out);
        break;
      case 'control_cancel_request':
        out.push({ kind: 'control_cancel', request_id: line.request_id });
        break;
    }
    return out;
  }

  /**
   * The process died (or the capture ended) mid-turn: close what is open — tool calls as
   * cancelled (subagents ended first), then thinking and text blocks.
   */
  abortTurn(cancelled: boolean): AgentEvent[] {
    const out: ClaudeItem[] = [];
    if (this.pending) this.flushTools(out);
    this.closeOpen(out, cancelled);
    this.resetTurn();
    return out.flatMap((i) => (i.kind === 'event' ? [i.event] : []));
  }

  // ---- line kinds ---------------------------------------------------------------------------

  /** The workspace as we name it and as the CLI does (its cwd: symlinks resolved). */
  private workspaceNames(): string[] {
    const w = this.options.workspacePath;
    return [...(w ? [w] : []), ...(this.agentCwd && this.agentCwd !== w ? [this.agentCwd] : [])];
  }

  private system(line: SystemLine, out: ClaudeItem[]): void {
    switch (line.subtype) {
      case 'init': {
        if (line.session_id) this.agentSessionId = line.session_id;
        this.model = line.model ?? this.model;
        if (line.cwd) this.agentCwd = line.cwd;
        out.push({
          kind: 'init',
          init: {
            agent_session_id: line.session_id ?? '',
            model: line.model,
            toolNames: line.tools,
            tools: catalogFor(line.tools),
            slash_commands: line.slash_commands,
            permissionMode: line.permissionMode,
            version: line.claude_code_version,
          },
        });
        return;
      }
      case 'api_retry': {
        const status = line.error_status;
        this.event(out, {
          type: 'agent.error',
          payload: {
            error_code: 'API_RETRY',
            message: `Model API error${status ? ` ${status}` : ''}${line.error ? ` (${line.error})` : ''}; retry ${line.attempt ?? '?'} of ${line.max_retries ?? '?'}`,
            severity: 'warning',
            recoverable: true,
            details: { module: 'claude-code' },
          },
        });
        return;
      }
      case 'compact_boundary':
        this.compaction.boundary(line.compact_metadata);
        return;
      case 'status':
        if (line.compact_result !== 'failed') return;
        this.compaction.failed();
        this.event(out, {
          type: 'agent.error',
          payload: { error_code: 'COMPACT_FAILED', message: `Compaction failed: ${line.compact_error ?? 'unknown reason'}`, severity: 'warning', recoverable: true, details: { module: 'claude-code' } },
        });
        return;
      case 'task_progress':
      case 'task_started': {
        // A running subagent reports what it does: relay as progress of its invocation (§10.4, §13.5).
        const id = line.tool_use_id;
        const open = id ? this.tools.get(id) : undefined;
        if (id && open?.subagent && line.description && line.subtype === 'task_progress') {
          this.event(out, { type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: open.name, stream_type: 'progress', chunk: line.description, sequence: open.streamSeq++ } }, open.metadata);
        }
        return;
      }
      default:
        return;
    }
  }

  private streamEvent(line: StreamEventLine, out: ClaudeItem[]): void {
    const ev = line.event;
    const parent = line.parent_tool_use_id ?? null;
    const pkey = parent ?? '';
    const metadata = this.contextOf(parent);
    switch (ev.type) {
      case 'message_start': {
        const id = ev.message.id ?? `anon-${this.streamedMessages.size}`;
        this.streamedMessages.add(id);
        this.streamingMessage.set(pkey, id);
        if (parent === null) this.usage.noteMessage(ev.message.usage);
        break;
      }
      case 'content_block_start': {
        const cb = ev.content_block;
        const key = this.blockKey(pkey, ev.index);
        if (cb.type === 'text' || cb.type === 'thinking') {
          this.blocks.start(key, cb.type, metadata);
          const initial = cb.type === 'text' ? cb.text : cb.thinking;
          if (initial) this.delta(out, key, initial);
        } else if (cb.type === 'redacted_thinking') {
          this.push(out, this.blocks.startRedacted(key, metadata));
        }
        break;
      }
      case 'content_block_delta': {
        const d = ev.delta;
        const key = this.blockKey(pkey, ev.index);
        if (d.type === 'text_delta' && d.text) this.delta(out, key, d.text);
        else if (d.type === 'thinking_delta' && d.thinking) this.delta(out, key, d.thinking);
        break;
      }
      case 'content_block_stop':
        this.push(out, this.blocks.close(this.blockKey(pkey, ev.index), false));
        break;
      default:
        break;
    }
  }

  private assistant(line: AssistantLine, out: ClaudeItem[]): void {
    const msg = line.message;
    const parent = line.parent_tool_use_id ?? null;
    const metadata = this.contextOf(parent);
    const messageId = msg.id ?? '';
    const streamed = this.streamedMessages.has(messageId);
    if (parent === null && !streamed) this.usage.noteMessage(msg.usage);
    // The CLI's own notices come as "<synthetic>" messages. An API error is reported by the
    // `result` as agent.error, so its notice would only say the same twice.
    const synthetic = msg.model === '<synthetic>';
    // "Not logged in · Please run /login": the `result` reports it once, as AUTH_REQUIRED with the
    // next step (decision 381); `/login` itself does not exist in -p mode.
    if (synthetic && line.error === 'authentication_failed') {
      this.authFailed = true;
      return;
    }
    for (const c of typeof msg.content === 'string' ? [] : msg.content) {
      if (c.type === 'tool_use') {
        const key = `${parent ?? ''}|${messageId}`;
        if (this.pending && this.pending.key !== key) this.flushTools(out);
        this.pending ??= { key, messageId, parent, uses: [] };
        this.pending.uses.push(c);
      } else if ((c.type === 'text' || c.type === 'thinking') && !streamed) {
        const text = c.type === 'text' ? c.text : c.thinking;
        if (!text || (synthetic && /^API Error/i.test(text))) continue;
        this.wholeBlock(out, c.type, text, metadata);
      }
    }
  }

  private user(line: UserLine, out: ClaudeItem[]): void {
    const content = line.message.content;
    const parent = line.parent_tool_use_id ?? null;
    const metadata = this.contextOf(parent);
    const results = typeof content === 'string' ? [] : content.flatMap((c) => (c.type === 'tool_result' ? [c] : []));
    for (const block of results) {
      const id = block.tool_use_id;
      const open = this.tools.get(id);
      if (!open) continue; // a result of a call we never saw (e.g. history of a resumed session)
      const structured = results.length === 1 ? line.tool_use_result : undefined;
      const outcome = toolOutcome(open.name, block, structured, this.workspaceNames(), open.subagent !== undefined);
      for (const s of outcome.streams) {
        this.event(out, { type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: open.name, stream_type: s.stream_type, chunk: s.chunk, sequence: open.streamSeq++ } }, metadata ?? open.metadata);
      }
      this.finishTool(out, id, open, outcome.status, outcome.output, outcome.output_type, { duration_ms: outcome.duration_ms, truncated: outcome.truncated });
    }
    if (results.length === 0 && this.compaction.waitingForSummary) {
      const compacted = this.compaction.summaryMessage(contentText(content));
      if (compacted) {
        this.usage.noteCompacted(compacted.current_token_count);
        this.event(out, { type: 'session.compacted', payload: compacted });
      }
    }
  }

  private result(line: ResultLine, out: ClaudeItem[]): void {
    const end = turnEnd(line, this.interruptRequested, this.authFailed);
    this.closeOpen(out, end.stop_reason === 'cancelled');
    if (end.error) this.event(out, end.error);
    const outcome: TurnOutcome = { stop_reason: end.stop_reason };
    const usage = this.usage.turnUsage(line);
    if (usage) outcome.usage = usage;
    // §11: what the model handed over (the engine validates it): the accepted object, else its
    // last attempt (a result of error_max_structured_output_retries has none of its own).
    const structured = line.structured_output ?? this.structuredAttempt;
    if (structured) outcome.structured_data = structured;
    const sid = line.session_id ?? this.agentSessionId;
    if (sid) {
      this.agentSessionId = sid;
      outcome.agent_session_id = sid;
    }
    this.resetTurn();
    out.push({ kind: 'result', outcome, is_error: end.is_error, message: end.message, model_turns: line.num_turns ?? 1 });
  }

  private controlRequest(line: ControlRequestLine, out: ClaudeItem[]): void {
    const req = line.request;
    if (req.subtype === 'can_use_tool') {
      const open = req.tool_use_id ? this.tools.get(req.tool_use_id) : undefined;
      out.push({ kind: 'permission', ask: permissionAskOf(line.request_id, req, open?.metadata, this.workspaceNames()) });
      return;
    }
    out.push({ kind: 'control_request', request_id: line.request_id, subtype: req.native });
  }

  private controlResponse(line: Extract<StreamLine, { type: 'control_response' }>, out: ClaudeItem[]): void {
    const r = line.response;
    const ok = r.subtype === 'success';
    const response = r.response ?? {};
    out.push({ kind: 'control_response', request_id: r.request_id, ok, response, ...(r.error ? { error: r.error } : {}) });
    const commands = ok ? commandsFromInitialize(response) : undefined;
    if (commands) out.push({ kind: 'commands', commands });
  }

  // ---- pieces -------------------------------------------------------------------------------

  private continuesPending(line: StreamLine): boolean {
    if (line.type === 'assistant') return `${line.parent_tool_use_id ?? ''}|${line.message.id ?? ''}` === this.pending?.key;
    if (line.type === 'stream_event') {
      const t = line.event.type;
      return t !== 'message_delta' && t !== 'message_stop' && t !== 'message_start';
    }
    return false;
  }

  /** Emit the buffered tool uses of one message: one parallel group when there are several (§13.4). */
  private flushTools(out: ClaudeItem[]): void {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    const group = p.uses.length > 1 ? `pg_${p.messageId || p.uses.map((u) => u.id).join('_')}` : undefined;
    for (const use of p.uses) this.toolRequest(out, use, p.parent, group);
  }

  private toolRequest(out: ClaudeItem[], use: ToolUseBlock, parent: string | null, group: string | undefined): void {
    const { id, name, input } = use;
    if (this.tools.has(id)) return;
    const metadata = this.contextOf(parent);
    const open: OpenTool = { name, streamSeq: 0, ...(metadata ? { metadata } : {}) };
    // §9.1: the plan of ExitPlanMode is a plan document, shown as such before the call.
    if (name === 'ExitPlanMode' && typeof input.plan === 'string' && input.plan) {
      this.wholeBlock(out, 'text', input.plan, { ...(metadata ?? {}), content_role: 'plan', plan_id: id });
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
      this.tools.set(id, open);
      this.event(out, { type: 'tool.invoke.request', payload }, metadata);
      this.event(out, { type: 'agent.subagent.started', payload: { parent_invocation_id: id, agent_type, depth, ...(description ? { description } : {}) } }, metadata);
      return;
    }
    this.tools.set(id, open);
    if (name === STRUCTURED_OUTPUT_TOOL && !metadata?.subagent_context) this.structuredAttempt = input;
    this.event(out, { type: 'tool.invoke.request', payload }, metadata);
  }

  private finishTool(
    out: ClaudeItem[],
    id: string,
    open: OpenTool,
    status: 'success' | 'error' | 'cancelled',
    output: unknown,
    output_type: Extract<AgentEvent, { type: 'tool.invoke.result' }>['payload']['output_type'],
    extra: { duration_ms?: number; truncated?: boolean } = {},
  ): void {
    this.tools.delete(id);
    if (open.subagent) {
      // §10.3.2: ended right before the agent_result.
      const ended: Extract<AgentEvent, { type: 'agent.subagent.ended' }>['payload'] = {
        parent_invocation_id: id,
        status: status === 'success' ? 'completed' : status === 'cancelled' ? 'cancelled' : 'failed',
      };
      if (extra.duration_ms !== undefined) ended.duration_ms = extra.duration_ms;
      this.event(out, { type: 'agent.subagent.ended', payload: ended }, open.metadata);
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
    this.event(out, { type: 'tool.invoke.result', payload }, open.metadata);
  }

  /** Close open tools (innermost first) and blocks, e.g. at the end of an interrupted turn. */
  private closeOpen(out: ClaudeItem[], cancelled: boolean): void {
    if (this.pending) this.flushTools(out);
    for (const id of [...this.tools.keys()].reverse()) {
      const open = this.tools.get(id)!;
      this.finishTool(out, id, open, 'cancelled', cancelled ? 'Cancelled' : 'The turn ended before the tool reported a result', 'text');
    }
    this.push(out, ...this.blocks.closeAll(cancelled));
  }

  private delta(out: ClaudeItem[], key: string, text: string): void {
    this.push(out, this.blocks.delta(key, text));
  }

  private wholeBlock(out: ClaudeItem[], kind: 'text' | 'thinking', text: string, metadata: Metadata | undefined): void {
    this.push(out, ...this.blocks.whole(kind, text, metadata));
  }

  /** §10.2: the subagent context of a line with `parent_tool_use_id`. */
  private contextOf(parent: string | null): Metadata | undefined {
    if (!parent) return undefined;
    const sub = this.subagentDepth.get(parent);
    return { subagent_context: { parent_invocation_id: parent, depth: sub?.depth ?? 1, ...(sub?.agent_type ? { agent_type: sub.agent_type } : {}) } };
  }

  private blockKey(parentKey: string, index: number): string {
    return `${parentKey}|${this.streamingMessage.get(parentKey) ?? ''}|${index}`;
  }

  private event(out: ClaudeItem[], event: AgentEvent, metadata?: Metadata): void {
    out.push({ kind: 'event', event: metadata ? { ...event, metadata } : event });
  }

  private push(out: ClaudeItem[], ...events: Array<AgentEvent | undefined>): void {
    for (const event of events) if (event) out.push({ kind: 'event', event });
  }

  private resetTurn(): void {
    this.blocks.reset();
    this.streamedMessages.clear();
    this.streamingMessage.clear();
    this.interruptRequested = false;
    this.structuredAttempt = undefined;
    this.authFailed = false;
  }
}
