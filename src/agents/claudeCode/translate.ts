// Claude Code stream-json -> DPS frame content. Pure translation with a little state (open
// blocks, open tool calls, subagent depths, the session id): the live adapter feeds it the
// process's stdout, `rawp convert --from claude-code` feeds it a captured transcript.
//
// What it returns are *items*: frame content for the engine (`event`), and things only the caller
// can act on — the session's init (catalog), the initialize response (commands), permission asks
// to answer, and the turn's end (`result`).
import type { AgentEvent, CatalogTool, CommandEntry, TurnOutcome, TurnUsage } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import { commandsFromInitialize } from './commands';
import { arr, contentText, isObj, num, obj, str, usageOf, type Json } from './native';
import { catalogFor, SUBAGENT_TOOLS } from './tools';
import { displayPath, toolOutcome } from './toolOutput';

export interface ClaudeInit {
  agent_session_id: string;
  model?: string;
  toolNames: string[];
  tools: CatalogTool[];
  slash_commands: string[];
  permissionMode?: string;
  version?: string;
}

export interface PermissionAsk {
  request_id: string;
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
  /** What the CLI says the call does ("a.txt", "print hello"). */
  description?: string;
  /** `permission_suggestions`: rules the user may accept for the rest of the session. */
  suggestions: unknown[];
  decision_reason?: string;
  /** Files the call touches (workspace-relative where possible). */
  affected_paths: string[];
  /** The subagent context of the call, when a subagent makes it. */
  metadata?: Metadata;
}

export type ClaudeItem =
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'init'; init: ClaudeInit }
  | { kind: 'commands'; commands: CommandEntry[] }
  | { kind: 'control_response'; request_id: string; ok: boolean; response: Json; error?: string }
  | { kind: 'control_request'; request_id: string; subtype: string; request: Json }
  | { kind: 'permission'; ask: PermissionAsk }
  | { kind: 'control_cancel'; request_id: string }
  /** `model_turns`: model calls in the turn (0 for a local command such as a failed /compact). */
  | { kind: 'result'; outcome: TurnOutcome; is_error: boolean; message: string; model_turns: number };

interface OpenBlock {
  content_index: number;
  kind: 'text' | 'thinking';
  text: string;
  metadata?: Metadata;
}

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
  uses: Json[];
}

export interface TranslatorOptions {
  /** For workspace-relative paths in diffs and permission asks. */
  workspacePath?: string;
}

export class ClaudeTranslator {
  agentSessionId: string | undefined;
  model: string | undefined;
  private contentIndex = 0;
  private readonly blocks = new Map<string, OpenBlock>();
  private readonly streamedMessages = new Set<string>();
  /** The message a parent context is streaming (stream events carry no message id but in message_start). */
  private readonly streamingMessage = new Map<string, string>();
  private readonly tools = new Map<string, OpenTool>();
  /** Depth of every subagent ever started, so late lines still get their context. */
  private readonly subagentDepth = new Map<string, { depth: number; agent_type?: string }>();
  private pending: PendingTools | undefined;
  private interruptRequested = false;
  private lastTotalCost = 0;
  private contextUsed: number | undefined;
  private contextWindow: number | undefined;
  private pendingCompaction: { trigger: 'auto' | 'manual'; pre: number; post: number } | undefined;
  /** Override of the next compaction's trigger (`requested` when the master asked, §6.3.1). */
  compactionTrigger: 'requested' | undefined;

  constructor(private readonly options: TranslatorOptions = {}) {}

  /** The caller sent an interrupt: the coming `result` ends the turn as `cancelled`. */
  markInterrupted(): void {
    this.interruptRequested = true;
  }

  /** Is anything of the turn still open (blocks, tool calls)? */
  get turnOpen(): boolean {
    return this.blocks.size > 0 || this.tools.size > 0 || this.pending !== undefined;
  }

  translate(line: unknown): ClaudeItem[] {
    const out: ClaudeItem[] = [];
    if (!isObj(line)) return out;
    const type = str(line.type);
    if (this.pending && !this.continuesPending(line)) this.flushTools(out);
    switch (type) {
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
        if (str(line.request_id)) out.push({ kind: 'control_cancel', request_id: str(line.request_id)! });
        break;
      default:
        // keep_alive and line types of newer versions: nothing to show.
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

  private system(line: Json, out: ClaudeItem[]): void {
    const subtype = str(line.subtype);
    if (subtype === 'init') {
      const toolNames = arr(line.tools).filter((t): t is string => typeof t === 'string');
      const sid = str(line.session_id);
      if (sid) this.agentSessionId = sid;
      this.model = str(line.model) ?? this.model;
      out.push({
        kind: 'init',
        init: {
          agent_session_id: sid ?? '',
          model: str(line.model),
          toolNames,
          tools: catalogFor(toolNames),
          slash_commands: arr(line.slash_commands).filter((c): c is string => typeof c === 'string'),
          permissionMode: str(line.permissionMode),
          version: str(line.claude_code_version),
        },
      });
    } else if (subtype === 'api_retry') {
      const status = num(line.error_status);
      this.event(out, {
        type: 'agent.error',
        payload: {
          error_code: 'API_RETRY',
          message: `Model API error${status ? ` ${status}` : ''}${str(line.error) ? ` (${str(line.error)})` : ''}; retry ${num(line.attempt) ?? '?'} of ${num(line.max_retries) ?? '?'}`,
          severity: 'warning',
          recoverable: true,
          details: { module: 'claude-code' },
        },
      });
    } else if (subtype === 'compact_boundary') {
      const meta = obj(line.compact_metadata);
      this.pendingCompaction = { trigger: meta.trigger === 'auto' ? 'auto' : 'manual', pre: num(meta.pre_tokens) ?? 0, post: num(meta.post_tokens) ?? 0 };
    } else if (subtype === 'status' && line.compact_result === 'failed') {
      this.compactionTrigger = undefined;
      this.event(out, {
        type: 'agent.error',
        payload: { error_code: 'COMPACT_FAILED', message: `Compaction failed: ${str(line.compact_error) ?? 'unknown reason'}`, severity: 'warning', recoverable: true, details: { module: 'claude-code' } },
      });
    } else if (subtype === 'task_progress' || subtype === 'task_started') {
      // A running subagent reports what it does: relay as progress of its invocation (§10.4, §13.5).
      const id = str(line.tool_use_id);
      const open = id ? this.tools.get(id) : undefined;
      const text = str(line.description);
      if (id && open?.subagent && text && subtype === 'task_progress') {
        this.event(out, { type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: open.name, stream_type: 'progress', chunk: text, sequence: open.streamSeq++ } }, open.metadata);
      }
    }
  }

  private streamEvent(line: Json, out: ClaudeItem[]): void {
    const ev = obj(line.event);
    const parent = str(line.parent_tool_use_id) ?? null;
    const pkey = parent ?? '';
    const metadata = this.contextOf(parent);
    switch (str(ev.type)) {
      case 'message_start': {
        const msg = obj(ev.message);
        const id = str(msg.id) ?? `anon-${this.streamedMessages.size}`;
        this.streamedMessages.add(id);
        this.streamingMessage.set(pkey, id);
        if (parent === null) this.noteContext(usageOf(msg.usage));
        break;
      }
      case 'content_block_start': {
        const cb = obj(ev.content_block);
        const key = this.blockKey(pkey, num(ev.index) ?? 0);
        if (cb.type === 'text' || cb.type === 'thinking') {
          this.blocks.set(key, { content_index: this.contentIndex++, kind: cb.type, text: '', metadata });
          const initial = str(cb.type === 'text' ? cb.text : cb.thinking);
          if (initial) this.delta(out, key, initial);
        } else if (cb.type === 'redacted_thinking') {
          const b: OpenBlock = { content_index: this.contentIndex++, kind: 'thinking', text: '', metadata };
          this.blocks.set(key, b);
          // §15.3: the content is encrypted; say that there was thinking, never show it.
          this.event(out, { type: 'agent.thinking.delta', payload: { content_index: b.content_index, text: '', redacted: true } }, metadata);
        }
        break;
      }
      case 'content_block_delta': {
        const d = obj(ev.delta);
        const key = this.blockKey(pkey, num(ev.index) ?? 0);
        if (d.type === 'text_delta' && str(d.text)) this.delta(out, key, str(d.text)!);
        else if (d.type === 'thinking_delta' && str(d.thinking)) this.delta(out, key, str(d.thinking)!);
        break;
      }
      case 'content_block_stop':
        this.closeBlock(out, this.blockKey(pkey, num(ev.index) ?? 0), false);
        break;
      default:
        break;
    }
  }

  private assistant(line: Json, out: ClaudeItem[]): void {
    const msg = obj(line.message);
    const parent = str(line.parent_tool_use_id) ?? null;
    const metadata = this.contextOf(parent);
    const messageId = str(msg.id) ?? '';
    const streamed = this.streamedMessages.has(messageId);
    if (parent === null && !streamed) this.noteContext(usageOf(msg.usage));
    // The CLI's own notices come as "<synthetic>" messages. An API error is reported by the
    // `result` as agent.error, so its notice would only say the same twice.
    const synthetic = msg.model === '<synthetic>';
    for (const c of arr(msg.content)) {
      if (!isObj(c)) continue;
      if (c.type === 'tool_use') {
        const key = `${parent ?? ''}|${messageId}`;
        if (this.pending && this.pending.key !== key) this.flushTools(out);
        this.pending ??= { key, messageId, parent, uses: [] };
        this.pending.uses.push(c);
      } else if ((c.type === 'text' || c.type === 'thinking') && !streamed) {
        const text = str(c.type === 'text' ? c.text : c.thinking) ?? '';
        if (!text || (synthetic && /^API Error/i.test(text))) continue;
        this.wholeBlock(out, c.type, text, metadata);
      }
    }
  }

  private user(line: Json, out: ClaudeItem[]): void {
    const msg = obj(line.message);
    const parent = str(line.parent_tool_use_id) ?? null;
    const metadata = this.contextOf(parent);
    const content = msg.content;
    const results = arr(content).filter((c): c is Json => isObj(c) && c.type === 'tool_result');
    for (const block of results) {
      const id = str(block.tool_use_id);
      const open = id ? this.tools.get(id) : undefined;
      if (!id || !open) continue; // a result of a call we never saw (e.g. history of a resumed session)
      const structured = results.length === 1 ? line.tool_use_result : undefined;
      const outcome = toolOutcome(open.name, block, structured, this.options.workspacePath, open.subagent !== undefined);
      for (const s of outcome.streams) {
        this.event(out, { type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: open.name, stream_type: s.stream_type, chunk: s.chunk, sequence: open.streamSeq++ } }, metadata ?? open.metadata);
      }
      this.finishTool(out, id, open, outcome.status, outcome.output, outcome.output_type, { duration_ms: outcome.duration_ms, truncated: outcome.truncated });
    }
    if (results.length === 0 && this.pendingCompaction) {
      const text = contentText(content);
      if (/continued from a previous conversation/i.test(text)) this.compacted(out, text);
    }
  }

  private result(line: Json, out: ClaudeItem[]): void {
    const interrupted = this.interruptRequested || (line.subtype === 'error_during_execution' && num(line.api_error_status) === undefined);
    const isError = line.is_error === true && !interrupted;
    this.closeOpen(out, interrupted);
    const message = str(line.result) ?? arr(line.errors).filter((e) => typeof e === 'string').join('; ');
    let stop_reason: TurnOutcome['stop_reason'] = 'end_turn';
    if (interrupted) stop_reason = 'cancelled';
    else if (isError) {
      stop_reason = 'error';
      const status = num(line.api_error_status);
      const code = status !== undefined ? 'API_ERROR' : line.subtype === 'error_max_turns' ? 'MAX_TURNS' : 'AGENT_ERROR';
      this.event(out, {
        type: 'agent.error',
        payload: {
          error_code: code,
          message: message || `Claude Code ended the turn with ${str(line.subtype) ?? 'an error'}`,
          severity: 'error',
          recoverable: true,
          details: { module: 'claude-code', ...(status !== undefined ? { api_error_status: status } : {}), ...(str(line.subtype) ? { subtype: str(line.subtype) } : {}) },
        },
      });
    } else if (line.stop_reason === 'max_tokens') stop_reason = 'max_tokens';

    const outcome: TurnOutcome = { stop_reason };
    const usage = this.turnUsage(line);
    if (usage) outcome.usage = usage;
    const sid = str(line.session_id) ?? this.agentSessionId;
    if (sid) {
      this.agentSessionId = sid;
      outcome.agent_session_id = sid;
    }
    this.resetTurn();
    out.push({ kind: 'result', outcome, is_error: isError, message, model_turns: num(line.num_turns) ?? 1 });
  }

  private controlRequest(line: Json, out: ClaudeItem[]): void {
    const request_id = str(line.request_id);
    const req = obj(line.request);
    if (!request_id) return;
    if (req.subtype === 'can_use_tool') {
      const tool_use_id = str(req.tool_use_id);
      const open = tool_use_id ? this.tools.get(tool_use_id) : undefined;
      const input = isObj(req.input) ? req.input : {};
      const ask: PermissionAsk = {
        request_id,
        tool_name: str(req.tool_name) ?? open?.name ?? 'unknown',
        input,
        suggestions: arr(req.permission_suggestions),
        affected_paths: affectedPaths(input, this.options.workspacePath),
      };
      if (tool_use_id) ask.tool_use_id = tool_use_id;
      if (str(req.description)) ask.description = str(req.description);
      if (str(req.decision_reason)) ask.decision_reason = str(req.decision_reason);
      if (open?.metadata) ask.metadata = open.metadata;
      out.push({ kind: 'permission', ask });
      return;
    }
    out.push({ kind: 'control_request', request_id, subtype: str(req.subtype) ?? 'unknown', request: req });
  }

  private controlResponse(line: Json, out: ClaudeItem[]): void {
    const r = obj(line.response);
    const request_id = str(r.request_id) ?? '';
    const ok = r.subtype === 'success';
    const response = obj(r.response);
    out.push({ kind: 'control_response', request_id, ok, response, ...(str(r.error) ? { error: str(r.error) } : {}) });
    const commands = ok ? commandsFromInitialize(response) : undefined;
    if (commands) out.push({ kind: 'commands', commands });
  }

  // ---- pieces -------------------------------------------------------------------------------

  private continuesPending(line: Json): boolean {
    if (line.type === 'assistant') {
      const key = `${str(line.parent_tool_use_id) ?? ''}|${str(obj(line.message).id) ?? ''}`;
      return key === this.pending?.key;
    }
    if (line.type === 'stream_event') {
      const t = str(obj(line.event).type);
      return t !== 'message_delta' && t !== 'message_stop' && t !== 'message_start';
    }
    return false;
  }

  /** Emit the buffered tool uses of one message: one parallel group when there are several (§13.4). */
  private flushTools(out: ClaudeItem[]): void {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    const group = p.uses.length > 1 ? `pg_${p.messageId || p.uses.map((u) => str(u.id)).join('_')}` : undefined;
    for (const use of p.uses) this.toolRequest(out, use, p.parent, group);
  }

  private toolRequest(out: ClaudeItem[], use: Json, parent: string | null, group: string | undefined): void {
    const id = str(use.id);
    const name = str(use.name);
    if (!id || !name || this.tools.has(id)) return;
    const input = isObj(use.input) ? use.input : {};
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
      const agent_type = str(input.subagent_type) ?? 'general-purpose';
      const description = str(input.description);
      open.subagent = { depth, agent_type };
      this.subagentDepth.set(id, { depth, agent_type });
      payload.subagent = { agent_type, ...(description ? { description } : {}) };
      this.tools.set(id, open);
      this.event(out, { type: 'tool.invoke.request', payload }, metadata);
      this.event(out, { type: 'agent.subagent.started', payload: { parent_invocation_id: id, agent_type, depth, ...(description ? { description } : {}) } }, metadata);
      return;
    }
    this.tools.set(id, open);
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
    for (const key of [...this.blocks.keys()]) this.closeBlock(out, key, cancelled);
  }

  private delta(out: ClaudeItem[], key: string, text: string): void {
    const b = this.blocks.get(key);
    if (!b) return;
    b.text += text;
    if (b.kind === 'text') this.event(out, { type: 'agent.text.delta', payload: { content_index: b.content_index, text } }, b.metadata);
    else this.event(out, { type: 'agent.thinking.delta', payload: { content_index: b.content_index, text } }, b.metadata);
  }

  private closeBlock(out: ClaudeItem[], key: string, cancelled: boolean): void {
    const b = this.blocks.get(key);
    if (!b) return;
    this.blocks.delete(key);
    if (b.kind === 'text') {
      const payload: Extract<AgentEvent, { type: 'agent.text.done' }>['payload'] = { content_index: b.content_index, full_text: b.text };
      if (cancelled) payload.is_cancelled = true;
      this.event(out, { type: 'agent.text.done', payload }, b.metadata);
    } else {
      this.event(out, { type: 'agent.thinking.done', payload: { content_index: b.content_index } }, b.metadata);
    }
  }

  /** A block that arrives whole (no partial messages, or a subagent's message): delta + done. */
  private wholeBlock(out: ClaudeItem[], kind: 'text' | 'thinking', text: string, metadata: Metadata | undefined): void {
    const key = `whole#${this.contentIndex}`;
    this.blocks.set(key, { content_index: this.contentIndex++, kind, text: '', metadata });
    this.delta(out, key, text);
    this.closeBlock(out, key, false);
  }

  private compacted(out: ClaudeItem[], text: string): void {
    const c = this.pendingCompaction!;
    this.pendingCompaction = undefined;
    const m = /Summary:\s*\n([\s\S]*?)(?:\n\nIf you need specific details|\n\nContinue the conversation|$)/.exec(text);
    const summary = (m ? m[1] : text).trim();
    const trigger = this.compactionTrigger ?? c.trigger;
    this.compactionTrigger = undefined;
    this.contextUsed = c.post;
    this.event(out, { type: 'session.compacted', payload: { summary, previous_token_count: c.pre, current_token_count: c.post, trigger } });
  }

  private turnUsage(line: Json): TurnUsage | undefined {
    const u = usageOf(line.usage);
    if (!u) return undefined;
    const usage: TurnUsage = {
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_read_tokens: u.cache_read_input_tokens,
      cache_write_tokens: u.cache_creation_input_tokens,
    };
    // `total_cost_usd` is the session's running total; the engine wants this turn's share.
    const total = num(line.total_cost_usd);
    if (total !== undefined) {
      usage.cost_usd = Math.max(0, total - this.lastTotalCost);
      this.lastTotalCost = Math.max(this.lastTotalCost, total);
    }
    for (const m of Object.values(obj(line.modelUsage))) {
      const w = num(obj(m).contextWindow);
      if (w) this.contextWindow = Math.max(this.contextWindow ?? 0, w);
    }
    if (this.contextWindow) usage.context_capacity = this.contextWindow;
    if (this.contextUsed !== undefined) usage.context_used = this.contextUsed;
    return usage;
  }

  private noteContext(u: ReturnType<typeof usageOf>): void {
    if (u) this.contextUsed = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
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
    out.push({ kind: 'event', event: metadata ? ({ ...event, metadata } as AgentEvent) : event });
  }

  private resetTurn(): void {
    this.contentIndex = 0;
    this.blocks.clear();
    this.streamedMessages.clear();
    this.streamingMessage.clear();
    this.interruptRequested = false;
  }
}

/** Files a tool call touches, for `context.affected_paths` (§4.3.1). */
export function affectedPaths(input: Record<string, unknown>, workspacePath: string | undefined): string[] {
  const out: string[] = [];
  for (const k of ['file_path', 'notebook_path', 'path']) {
    const v = input[k];
    if (typeof v === 'string' && v) out.push(displayPath(v, workspacePath));
  }
  for (const e of arr(input.edits)) {
    const p = isObj(e) ? str(e.file_path) : undefined;
    if (p) out.push(displayPath(p, workspacePath));
  }
  return [...new Set(out)];
}
