// Claude Code stream-json -> DPS frame content. Pure translation with a little state (open
// blocks, open tool calls, subagent depths, the session id): the live adapter feeds it the
// process's stdout, `rawp convert --from claude-code` feeds it a captured transcript.
//
// What it returns are *items* (items.ts). Lines are read through the schemas of streamJson.ts;
// usage/cost accounting, compaction detection, permission asks, the turn's end, the content
// blocks and the tool calls with their subagents are their own units (usageMeter.ts,
// compaction.ts, permissionAsk.ts, turnEnd.ts, contentBlocks.ts, toolCalls.ts); this file keeps
// the order of things: which line feeds which unit, and when a turn opens and closes.
import type { AgentEvent, TurnOutcome } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import { commandsFromInitialize } from './commands';
import { CompactionWatch } from './compaction';
import { HookFolders, permissionAskOf } from './permissionAsk';
import { contentText, parseStreamLine, PRE_TOOL_HOOK_ID, RequestId, type AssistantLine, type ControlRequestLine, type ResultLine, type StreamEventLine, type StreamLine, type SystemLine, type UserLine } from './streamJson';
import { catalogFor } from './tools';
import { ToolCalls } from './toolCalls';
import { toolOutcome } from './toolOutput';
import { turnEnd } from './turnEnd';
import { UsageMeter } from './usageMeter';
import { SubagentUsage } from './subagentUsage';
import { scopedUsage } from '../../session/usage';
import { ContentBlocks } from './contentBlocks';
import { pushEvent, type ClaudeItem } from './items';
import { cutWarningText } from '../process/warningBudget';

export type { PermissionAsk } from './permissionAsk';
export { affectedPaths } from './permissionAsk';

export type { ClaudeInit, ClaudeItem } from './items';

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
  /** Open and buffered tool calls, subagents among them (toolCalls.ts). */
  private readonly tools = new ToolCalls(
    (out, text, metadata) => this.wholeBlock(out, 'text', text, metadata),
    (out, id) => this.subagentUsage(out, id),
  );
  /** The shell's folder of each call, from our PreToolUse hook, for its permission ask. */
  private readonly hookFolders = new HookFolders();
  /** §10.5: each subagent's own model calls, reported when it ends (subagentUsage.ts). */
  private readonly subagents = new SubagentUsage();
  private interruptRequested = false;
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
    return this.blocks.size > 0 || this.tools.busy;
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
    // A `result` with fields that do not fit still ends the turn (decision 715): said first.
    const out: ClaudeItem[] = parsed.unreadable ? [{ kind: 'malformed', type: line.type, detail: parsed.unreadable, kept: true }] : [];
    this.tools.beforeLine(line, out);
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
        pushEvent(out, {
          type: 'agent.error',
          payload: {
            error_code: 'API_RETRY',
            message: `Model API error${status ? ` ${status}` : ''}${line.error ? ` (${cutWarningText(line.error)})` : ''}; retry ${line.attempt ?? '?'} of ${line.max_retries ?? '?'}`,
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
        pushEvent(out, {
          type: 'agent.error',
          payload: { error_code: 'COMPACT_FAILED', message: `Compaction failed: ${cutWarningText(line.compact_error ?? 'unknown reason')}`, severity: 'warning', recoverable: true, details: { module: 'claude-code' } },
        });
        return;
      case 'task_progress':
      case 'task_started': {
        // A running subagent reports what it does: relay as progress of its invocation (§10.4, §13.5).
        const id = line.tool_use_id;
        const open = id ? this.tools.get(id) : undefined;
        if (id && open?.subagent && line.description && line.subtype === 'task_progress') this.tools.stream(out, id, open, 'progress', line.description, open.metadata);
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
    const metadata = this.tools.contextOf(parent);
    switch (ev.type) {
      case 'message_start': {
        const id = ev.message.id ?? `anon-${this.streamedMessages.size}`;
        this.streamedMessages.add(id);
        this.streamingMessage.set(pkey, id);
        if (parent === null) this.usage.noteMessage(ev.message.usage);
        else this.subagents.noteCall(parent, id, ev.message.usage, false);
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
    const metadata = this.tools.contextOf(parent);
    const messageId = msg.id ?? '';
    const streamed = this.streamedMessages.has(messageId);
    if (parent === null && !streamed) this.usage.noteMessage(msg.usage);
    // A subagent's model call is its own (§10.5), never the main agent's context.
    if (parent !== null) this.subagents.noteCall(parent, msg.id, msg.usage, typeof msg.content !== 'string' && msg.content.some((c) => c.type === 'tool_use'));
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
        this.tools.buffer(out, c, parent, messageId);
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
    const metadata = this.tools.contextOf(parent);
    const results = typeof content === 'string' ? [] : content.flatMap((c) => (c.type === 'tool_result' ? [c] : []));
    for (const block of results) {
      const id = block.tool_use_id;
      const open = this.tools.get(id);
      if (!open) continue; // a result of a call we never saw (e.g. history of a resumed session)
      const structured = results.length === 1 ? line.tool_use_result : undefined;
      if (open.subagent) this.subagents.noteAnswer(id, structured);
      const outcome = toolOutcome(open.name, block, structured, this.workspaceNames(), open.subagent !== undefined);
      for (const s of outcome.streams) this.tools.stream(out, id, open, s.stream_type, s.chunk, metadata ?? open.metadata);
      this.tools.finish(out, id, open, outcome.status, outcome.output, outcome.output_type, { duration_ms: outcome.duration_ms, truncated: outcome.truncated });
    }
    if (results.length === 0 && this.compaction.waitingForSummary) {
      const compacted = this.compaction.summaryMessage(contentText(content));
      if (compacted) {
        this.usage.noteCompacted(compacted.current_token_count);
        pushEvent(out, { type: 'session.compacted', payload: compacted });
      }
    }
  }

  private result(line: ResultLine, out: ClaudeItem[]): void {
    const end = turnEnd(line, this.interruptRequested, this.authFailed);
    this.closeOpen(out, end.stop_reason === 'cancelled');
    if (end.error) pushEvent(out, end.error);
    const outcome: TurnOutcome = { stop_reason: end.stop_reason };
    const usage = this.usage.turnUsage(line);
    if (usage) outcome.usage = usage;
    // §11: what the model handed over (the engine validates it): the accepted object, else its
    // last attempt (a result of error_max_structured_output_retries has none of its own).
    const structured = line.structured_output ?? this.tools.structuredAttempt;
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
      out.push({ kind: 'permission', ask: permissionAskOf(line.request_id, req, open?.metadata, this.workspaceNames(), this.hookFolders.take(req.tool_use_id)) });
      return;
    }
    if (req.subtype === 'hook_callback' && req.callback_id === PRE_TOOL_HOOK_ID && req.input.hook_event_name === 'PreToolUse' && req.input.tool_name) {
      const tool_use_id = req.input.tool_use_id ?? req.tool_use_id;
      if (tool_use_id && req.input.cwd) this.hookFolders.saw(tool_use_id, req.input.cwd);
      const metadata = tool_use_id ? this.tools.metadataOf(tool_use_id) : undefined;
      const input = typeof req.input.tool_input === 'object' && req.input.tool_input !== null && !Array.isArray(req.input.tool_input) ? (req.input.tool_input as Record<string, unknown>) : {};
      out.push({ kind: 'pre_tool', request_id: line.request_id, tool_name: req.input.tool_name, input, ...(metadata ? { metadata } : {}) });
      return;
    }
    out.push({ kind: 'control_request', request_id: line.request_id, subtype: req.subtype === 'hook_callback' ? `hook_callback ${req.callback_id}` : req.native });
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

  /** Close open tools (innermost first) and blocks, e.g. at the end of an interrupted turn. */
  private closeOpen(out: ClaudeItem[], cancelled: boolean): void {
    this.tools.closeAll(out, cancelled);
    this.push(out, ...this.blocks.closeAll(cancelled));
  }

  /**
   * §10.5: a subagent that ends reports its own usage, with its context (the frames inside it carry
   * `parent_invocation_id` = its call). Its tokens only: the engine adds the session's counters.
   */
  private subagentUsage(out: ClaudeItem[], id: string): void {
    const used = this.subagents.end(id);
    if (!used) return;
    pushEvent(out, { type: 'session.usage', payload: scopedUsage(used.token_usage, { used: used.context_used }) }, this.tools.contextOf(id));
  }

  private delta(out: ClaudeItem[], key: string, text: string): void {
    this.push(out, this.blocks.delta(key, text));
  }

  private wholeBlock(out: ClaudeItem[], kind: 'text' | 'thinking', text: string, metadata: Metadata | undefined): void {
    this.push(out, ...this.blocks.whole(kind, text, metadata));
  }

  private blockKey(parentKey: string, index: number): string {
    return `${parentKey}|${this.streamingMessage.get(parentKey) ?? ''}|${index}`;
  }

  private push(out: ClaudeItem[], ...events: Array<AgentEvent | undefined>): void {
    for (const event of events) if (event) out.push({ kind: 'event', event });
  }

  private resetTurn(): void {
    this.blocks.reset();
    this.streamedMessages.clear();
    this.streamingMessage.clear();
    this.interruptRequested = false;
    this.tools.structuredAttempt = undefined;
    this.subagents.reset();
    this.authFailed = false;
  }
}
