// ACP `session/update` notifications -> DPS frame content. One translator per session: the catalog
// and the command list live as long as the session; blocks, tool calls and usage are per turn.
// Pure apart from `emit`, so `rawp convert --from acp` replays captured traffic through it too.
// Updates are read through the schemas of updateSchemas.ts: an update that does not fit is a
// warning frame (ACP_MALFORMED_UPDATE), an update kind we do not translate is skipped. Notices are
// bounded per turn (notices.ts, decision 719).
import { createTwoFilesPatch } from 'diff';
import { newId } from '../../protocol/build';
import type { PayloadOf } from '../../protocol/frameTypes';
import { describeIssues } from '../../protocol/parse';
import { cutAt } from '../../protocol/cutText';
import type { AgentEvent, CatalogTool, CommandEntry, TurnUsage } from '../../session/agentAdapter';
import { ACP_TODOS, baseAcpCatalog, catalogEntryFor, kindOf, toolNameOf, type AcpToolKind } from './toolNames';
import { displayPath } from '../../tools/paths';
import { NoticeBudget } from './notices';
import { UnaskedWarnings } from './unasked';
import { AcpSessionUpdate, AcpToolCall, type AcpContentBlock, type AcpToolCallContent, type AvailableCommand } from './updateSchemas';

type Json = Record<string, unknown>;
type ResultStatus = PayloadOf<'tool.invoke.result'>['status'];

export interface AcpTranslatorOptions {
  emit(event: AgentEvent): void;
  /** Workspace roots, to show paths relative in diffs. */
  roots: readonly string[];
  /** Our session id (for session.renamed). */
  session_id: string;
  /** Stream in-progress tool output as tool.invoke.stream (only when announced, §12.2.1). */
  toolStreaming: boolean;
  /** Tools announced so far; shared with the adapter, grown and re-published when needed. */
  catalog?: CatalogTool[];
  /**
   * A call completed that the agent never asked permission for: it ran on the agent's own say-so,
   * so the engine's policy could not stop it (the adapter tells the user if the policy forbids it).
   * Not for a `failed` one: that may never have run (gemini's plan mode fails an Edit unasked).
   */
  ranUnasked?(call: { invocation_id: string; tool_name: string; input: Json; warnings: UnaskedWarnings }): void;
}

interface OpenCall {
  invocation_id: string;
  tool_name: string;
  kind: AcpToolKind;
  started: number;
  /** Text of the call's content already streamed (to send only what is new). */
  streamed: string;
  sequence: number;
  content: AcpToolCallContent[];
  locations: string[];
  /** Its tool.invoke.request is out. Held back while the agent has not yet said the input. */
  announced: boolean;
  input: Json;
  /** The agent asked permission for it (session/request_permission). */
  asked: boolean;
}

interface OpenBlock {
  kind: 'text' | 'thinking';
  index: number;
  text: string;
}

export class AcpUpdateTranslator {
  readonly catalog: CatalogTool[];
  commands: CommandEntry[] = [];
  /** The agent's current mode id (from session/new and current_mode_update). */
  modeId: string | undefined;
  private inTurn = false;
  /** Until the engine has announced the session (§13.1), command and mode changes are only kept. */
  private live = false;
  private announcedCommands = '[]';
  private blockIndex = 0;
  private block: OpenBlock | undefined;
  private readonly calls = new Map<string, OpenCall>();
  /** Engine refusals by invocation id, for the calls' results. */
  private readonly refusals = new Map<string, string>();
  private usage: { used?: number; size?: number; cost?: number } = {};
  toolCount = 0;
  /** Notices shown and counted since the last turn began or ended (notices.ts). */
  private readonly notices = new NoticeBudget();
  /** The turn's TOOL_RAN_UNASKED warnings, bounded (unasked.ts, decision 725). */
  private readonly unasked = new UnaskedWarnings();

  constructor(private readonly opts: AcpTranslatorOptions) {
    this.catalog = opts.catalog ?? baseAcpCatalog();
  }

  /** The session's opening frames are out: from now on changes are published as they come. */
  goLive(announcedCommands: CommandEntry[]): void {
    this.announcedCommands = JSON.stringify(announcedCommands);
    this.live = true;
    if (JSON.stringify(this.commands) !== this.announcedCommands) this.publishCommands();
  }

  beginTurn(): void {
    if (!this.live) this.goLive([]);
    for (const e of this.notices.drain(true)) this.opts.emit(e); // those held back while idle
    this.inTurn = true;
    this.blockIndex = 0;
    this.block = undefined;
    this.calls.clear();
    this.refusals.clear();
    this.usage = {};
    this.toolCount = 0;
  }

  /**
   * End the turn: close an open block (`is_cancelled` when the turn was cancelled, §6.1.2) and
   * answer every open call (§7.5.3 order: results before the turn ends).
   */
  endTurn(how: 'ended' | 'cancelled' | 'error'): void {
    this.closeBlock(how === 'cancelled');
    this.announceHeld();
    for (const [id, call] of this.calls) {
      this.calls.delete(id);
      this.result(call, 'cancelled', how === 'cancelled' ? 'Cancelled' : 'The agent ended the turn before the tool finished');
    }
    for (const e of [...this.notices.drain(false), ...this.unasked.drain()]) this.opts.emit(e);
    this.inTurn = false;
  }

  /** Usage seen in this turn's usage_update notifications. */
  turnUsage(): Pick<TurnUsage, 'context_used' | 'context_capacity' | 'cost_usd'> {
    return {
      ...(this.usage.used !== undefined ? { context_used: this.usage.used } : {}),
      ...(this.usage.size !== undefined ? { context_capacity: this.usage.size } : {}),
      ...(this.usage.cost !== undefined ? { cost_usd: this.usage.cost } : {}),
    };
  }

  /**
   * One `session/update` params.update. Kinds we do not translate are skipped (the protocol
   * grows); one that does not fit its schema is reported as a warning and skipped.
   */
  update(value: unknown): void {
    const parsed = AcpSessionUpdate.safeParse(value);
    if (!parsed.success) {
      const kind = typeof value === 'object' && value !== null ? String((value as { sessionUpdate?: unknown }).sessionUpdate ?? '(none)') : '(none)';
      this.malformed(`session/update ${kind}`, describeIssues(parsed.error));
      return;
    }
    const u = parsed.data;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const text = textOf(u.content);
        if (!text || !this.inTurn) return;
        this.announceHeld();
        this.chunk(u.sessionUpdate === 'agent_message_chunk' ? 'text' : 'thinking', text);
        return;
      }
      case 'tool_call':
      case 'tool_call_update':
        if (this.inTurn) this.toolCall(u);
        return;
      case 'plan':
        this.announceHeld();
        if (this.inTurn) this.plan(u.entries);
        return;
      case 'available_commands_update':
        this.commands = commandsOf(u.availableCommands);
        if (this.live) this.publishCommands();
        return;
      case 'current_mode_update': {
        if (u.currentModeId === this.modeId) return;
        const state = this.inTurn ? 'thinking' : 'idle';
        this.modeId = u.currentModeId;
        if (this.live) this.opts.emit({ type: 'agent.state.changed', payload: { previous_state: state, current_state: state, reason: 'mode_switch', agent_mode: u.currentModeId } });
        return;
      }
      case 'usage_update':
        this.usage = { used: nonNeg(u.used), size: nonNeg(u.size), cost: u.cost?.amount ?? this.usage.cost };
        return;
      case 'session_info_update':
        // Not a frame for the client: the engine names the session by it, or not (decision 725).
        if (u.title) this.opts.emit({ type: 'session.renamed', payload: { session_id: this.opts.session_id, name: u.title, renamed_by: 'client' } });
        return;
      case 'notice': {
        // The first of each severity shown, cut; the rest counted for the turn's end (decision 719).
        const event = this.notices.notice(u);
        if (event) this.opts.emit(event);
        return;
      }
      default:
        // user_message_chunk (our own prompt echoed, or history replayed), config options, …
        return;
    }
  }

  /**
   * A permission request names a tool call the agent may not have announced yet (gemini asks
   * before it reports the call): make sure its request frame is out, and tell the caller its name.
   */
  callForPermission(value: unknown): { invocation_id: string; tool_name: string; input: Json; paths: string[]; title: string | undefined } {
    const parsed = AcpToolCall.safeParse(value);
    if (!parsed.success) this.malformed('session/request_permission toolCall', describeIssues(parsed.error));
    const toolCall: AcpToolCall = parsed.success ? parsed.data : { toolCallId: '' };
    const call = this.ensureCall(toolCall);
    call.asked = true;
    this.merge(call, toolCall);
    this.announce(call);
    return { invocation_id: call.invocation_id, tool_name: call.tool_name, input: call.input, paths: call.locations, title: toolCall.title ?? undefined };
  }

  private malformed(what: string, detail: string): void {
    // Both name what the agent chose (its update kind, its keys in the issues' paths): cut (716).
    const cut = (s: string) => (s.length > 200 ? `${cutAt(s, 200)}…` : s);
    this.opts.emit({ type: 'agent.error', payload: { error_code: 'ACP_MALFORMED_UPDATE', message: `The agent sent a ${cut(what)} this client cannot read (${cut(detail)}); it was skipped`, severity: 'warning', recoverable: true, details: { module: 'acp' } } });
  }

  private publishCommands(): void {
    this.announcedCommands = JSON.stringify(this.commands);
    this.opts.emit({ type: 'agent.commands.publish', payload: { commands: this.commands } });
  }

  private chunk(kind: 'text' | 'thinking', text: string): void {
    if (this.block && this.block.kind !== kind) this.closeBlock(false);
    if (!this.block) this.block = { kind, index: this.blockIndex++, text: '' };
    this.block.text += text;
    const content_index = this.block.index;
    this.opts.emit(kind === 'text' ? { type: 'agent.text.delta', payload: { content_index, text } } : { type: 'agent.thinking.delta', payload: { content_index, text } });
  }

  private closeBlock(cancelled: boolean): void {
    const b = this.block;
    if (!b) return;
    this.block = undefined;
    if (b.kind === 'text') this.opts.emit({ type: 'agent.text.done', payload: { content_index: b.index, full_text: b.text, ...(cancelled ? { is_cancelled: true } : {}) } });
    else this.opts.emit({ type: 'agent.thinking.done', payload: { content_index: b.index } });
  }

  private ensureCall(u: AcpToolCall): OpenCall {
    const id = u.toolCallId;
    const existing = this.calls.get(id);
    if (existing) return existing;
    this.closeBlock(false);
    const call: OpenCall = { invocation_id: newId(), tool_name: toolNameOf(u), kind: kindOf(u.kind), started: Date.now(), streamed: '', sequence: 0, content: [], locations: locationsOf(u.locations ?? []), announced: false, input: inputOf(u), asked: false };
    this.calls.set(id, call);
    this.toolCount++;
    return call;
  }

  /** Take what an update adds: the real input (Claude sends `{}` first), content, paths. */
  private merge(call: OpenCall, u: AcpToolCall): void {
    if (isRecord(u.rawInput) && Object.keys(u.rawInput).length > 0) call.input = u.rawInput;
    else if (Object.keys(call.input).length === 0) call.input = inputOf(u);
    if (u.content) call.content = u.content;
    if (u.locations) call.locations = locationsOf(u.locations);
  }

  private announce(call: OpenCall): void {
    if (call.announced) return;
    call.announced = true;
    if (!this.catalog.some((t) => t.name === call.tool_name)) {
      this.catalog.push(catalogEntryFor(call.tool_name, call.kind));
      this.opts.emit({ type: 'tool.catalog.publish', payload: { tools: this.catalog.map((t) => ({ ...t })) } });
    }
    this.opts.emit({ type: 'tool.invoke.request', payload: { invocation_id: call.invocation_id, tool_name: call.tool_name, input: call.input } });
  }

  /** Anything else the agent says next means it has said all it will about held-back calls. */
  private announceHeld(): void {
    for (const call of this.calls.values()) this.announce(call);
  }

  private toolCall(u: AcpToolCall): void {
    // An update for a call never announced announces it, so its result always has a request.
    const call = this.ensureCall(u);
    this.merge(call, u);
    const pendingWithoutInput = (u.status === undefined || u.status === null || u.status === 'pending') && Object.keys(call.input).length === 0 && call.content.length === 0;
    if (!pendingWithoutInput) this.announce(call);
    if (u.status === 'completed' || u.status === 'failed') {
      this.announce(call);
      this.calls.delete(u.toolCallId);
      const output = this.outputOf(call, u.rawOutput);
      this.result(call, u.status === 'completed' ? 'success' : 'error', output);
      if (!call.asked && u.status === 'completed') this.opts.ranUnasked?.({ invocation_id: call.invocation_id, tool_name: call.tool_name, input: call.input, warnings: this.unasked });
      return;
    }
    if (this.opts.toolStreaming && u.status === 'in_progress') {
      const text = contentText(call.content);
      if (text.length > call.streamed.length && text.startsWith(call.streamed)) {
        const chunk = text.slice(call.streamed.length);
        call.streamed = text;
        this.opts.emit({ type: 'tool.invoke.stream', payload: { invocation_id: call.invocation_id, tool_name: call.tool_name, stream_type: 'stdout', chunk, sequence: call.sequence++ } });
      }
    }
  }

  private outputOf(call: OpenCall, rawOutput: unknown): string {
    const diffs = call.content.flatMap((c) => (c.type === 'diff' ? [c] : []));
    if (diffs.length > 0) {
      return diffs
        .map((d) => {
          const rel = displayPath(this.opts.roots, d.path);
          const old = d.oldText ?? undefined;
          return createTwoFilesPatch(old === undefined ? '/dev/null' : `a/${rel}`, `b/${rel}`, old ?? '', d.newText);
        })
        .join('');
    }
    const text = contentText(call.content);
    if (text) return text;
    if (typeof rawOutput === 'string') return rawOutput;
    if (isRecord(rawOutput)) {
      // The first non-empty text: a PTY run may leave `stdout` empty and put it all in the aggregate.
      for (const key of ['output', 'aggregated_output', 'formatted_output', 'stdout', 'content', 'result']) if (typeof rawOutput[key] === 'string' && rawOutput[key]) return rawOutput[key] as string;
      return JSON.stringify(rawOutput);
    }
    return '';
  }

  private result(call: OpenCall, status: ResultStatus, output: string): void {
    // A call the engine refused (§6.3.2) ends with the engine's message, whatever the agent says.
    const refusal = this.refusals.get(call.invocation_id);
    if (refusal !== undefined) {
      this.refusals.delete(call.invocation_id);
      this.opts.emit({ type: 'tool.invoke.result', payload: { invocation_id: call.invocation_id, tool_name: call.tool_name, status: 'error', output: refusal, output_type: 'text', duration_ms: Date.now() - call.started } });
      return;
    }
    const output_type = this.catalog.find((t) => t.name === call.tool_name)?.output_type ?? 'text';
    this.opts.emit({ type: 'tool.invoke.result', payload: { invocation_id: call.invocation_id, tool_name: call.tool_name, status, output, output_type, duration_ms: Date.now() - call.started } });
  }

  /**
   * The engine refused this call before anyone was asked (mode, whitelist, §6.3.2): the agent only
   * hears "rejected", so its own result text would hide why; the result says the engine's reason.
   */
  refused(invocation_id: string, message: string): void {
    this.refusals.set(invocation_id, message);
  }

  private plan(entries: ReadonlyArray<{ content: string; status?: string; priority?: string }>): void {
    this.closeBlock(false);
    const todos = entries.map((e, i) => ({
      id: `plan-${i + 1}`,
      content: e.content,
      status: e.status === 'in_progress' || e.status === 'completed' ? e.status : ('pending' as const),
      ...(e.priority === 'high' || e.priority === 'medium' || e.priority === 'low' ? { priority: e.priority } : {}),
    }));
    const invocation_id = newId();
    this.toolCount++;
    this.opts.emit({ type: 'tool.invoke.request', payload: { invocation_id, tool_name: ACP_TODOS, input: { todos } } });
    this.opts.emit({ type: 'tool.invoke.result', payload: { invocation_id, tool_name: ACP_TODOS, status: 'success', output: { success: true, count: todos.length, todos }, output_type: 'structured' } });
  }
}

export function commandsOf(list: readonly AvailableCommand[]): CommandEntry[] {
  return list.flatMap((c) => {
    if (!c.name) return [];
    const hint = c.input?.hint;
    return [
      {
        name: c.name,
        description: c.description ?? '',
        ...(typeof hint === 'string' ? { parameters: [{ name: 'input', type: 'string' as const, required: false, description: hint }] } : {}),
      },
    ];
  });
}

function inputOf(u: AcpToolCall): Json {
  if (isRecord(u.rawInput)) return u.rawInput;
  const paths = locationsOf(u.locations ?? []);
  return { ...(u.title ? { title: u.title } : {}), ...(paths.length ? { paths } : {}) };
}

function locationsOf(v: ReadonlyArray<{ path: string }>): string[] {
  return v.map((l) => l.path).filter(Boolean);
}

function textOf(content: AcpContentBlock): string | undefined {
  if (content.type === 'text') return content.text;
  if (content.type === 'resource_link') return content.uri;
  return undefined;
}

function contentText(content: readonly AcpToolCallContent[]): string {
  return content
    .map((c) => (c.type === 'content' ? (textOf(c.content) ?? '') : c.type === 'terminal' ? `[terminal ${c.terminalId}]` : ''))
    .filter(Boolean)
    .join('\n');
}

function nonNeg(v: number | undefined): number | undefined {
  return typeof v === 'number' && v >= 0 ? Math.floor(v) : undefined;
}

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
