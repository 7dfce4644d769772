// One turn's stream of adapter events, made protocol-correct before it reaches the wire:
//  - every tool.invoke.request is checked (§15.1 whitelist, §5.4.1, §6.3.2 mode, §15.2 scope);
//    a refused one is answered at once with an error result and its later frames are dropped;
//  - a subagent call gets `agent.subagent.started` right after its request and
//    `agent.subagent.ended` right before its `agent_result` (§10.3), depth filled in (§10.2);
//  - results get their §5.3.3 output_type and a duration;
//  - after a cancel, late frames are dropped or marked cancelled (§6.1.2);
//  - whatever is still open when the turn ends is closed: cancelled tool results, then
//    thinking.done, then text.done (is_cancelled when cancelled) — innermost first.
import type { AgentEvent, CatalogTool } from './agentAdapter';
import type { Metadata } from '../protocol/envelope';
import type { FrameType, PayloadOf } from '../protocol/frameTypes';
import { allowedOutputTypes, decideOutputType } from '../protocol/outputType';
import type { OutputTypeName } from '../protocol/common';
import type { Clock, Logger } from './ports';
import { checkTool, subagentAllowedTools, toolsInReach, type ToolPolicyInput, type ToolVerdict } from './toolPolicy';

export interface TurnStreamDeps {
  emit<T extends FrameType>(type: T, payload: PayloadOf<T>, metadata?: Metadata): void;
  /** The policy of the moment (catalog, mode, prompt overrides), without subagent scope. */
  policy(): ToolPolicyInput;
  /** Did the agent announce `subagent_context` (§10.6)? If not, it is stripped (§10.7). */
  subagentContext: boolean;
  clock: Clock;
  logger: Logger;
  /** How many tool calls are running now, after each change (§4.6.1 `tool_calling` while > 0). */
  toolsRunning?(count: number): void;
}

interface OpenTool {
  tool_name: string;
  startedAt: number;
  metadata?: Metadata;
  subagent?: { depth: number; agent_type?: string; scope: string[]; ended: boolean; endedPayload?: PayloadOf<'agent.subagent.ended'> };
}

interface OpenBlock {
  content_index: number;
  metadata?: Metadata;
}

export class TurnStream {
  private readonly tools = new Map<string, OpenTool>();
  private readonly seenInvocations = new Set<string>();
  private readonly text = new Map<string, OpenBlock>();
  private readonly thinking = new Map<string, OpenBlock>();
  cancelling = false;
  toolCount = 0;
  /** An `agent.text.done` with `is_cancelled: true` went out in this turn (§6.1.2-1). */
  private cancelledTextDone = false;
  /** The next unused content_index of the main agent (text and thinking share the count). */
  private nextContentIndex = 0;

  constructor(private readonly deps: TurnStreamDeps) {}

  /** The verdict for a call, with the calling subagent's scope applied. */
  check(tool_name: string, input: Record<string, unknown>, parent_invocation_id?: string): ToolVerdict {
    return checkTool(this.policyFor(parent_invocation_id), tool_name, input);
  }

  accept(event: AgentEvent): void {
    const metadata = this.normalizeMetadata(event.metadata);
    if (metadata?.subagent_context === undefined && 'content_index' in event.payload && typeof event.payload.content_index === 'number') {
      this.nextContentIndex = Math.max(this.nextContentIndex, event.payload.content_index + 1);
    }
    switch (event.type) {
      case 'agent.text.delta':
        if (this.cancelling) return this.drop(event.type, 'turn is being cancelled');
        this.text.set(blockKey(metadata, event.payload.content_index), { content_index: event.payload.content_index, metadata });
        return this.deps.emit(event.type, event.payload, metadata);
      case 'agent.text.done': {
        const key = blockKey(metadata, event.payload.content_index);
        if (this.cancelling && !this.text.has(key)) return this.drop(event.type, 'block already closed');
        this.text.delete(key);
        const payload = this.cancelling ? { ...event.payload, is_cancelled: true } : event.payload;
        if (payload.is_cancelled === true && metadata?.subagent_context === undefined) this.cancelledTextDone = true;
        return this.deps.emit(event.type, payload, metadata);
      }
      case 'agent.thinking.delta':
        if (this.cancelling) return this.drop(event.type, 'turn is being cancelled');
        this.thinking.set(blockKey(metadata, event.payload.content_index), { content_index: event.payload.content_index, metadata });
        return this.deps.emit(event.type, event.payload, metadata); // `redacted` passes as is (§15.3)
      case 'agent.thinking.done': {
        const key = blockKey(metadata, event.payload.content_index);
        if (this.cancelling && !this.thinking.has(key)) return this.drop(event.type, 'block already closed');
        this.thinking.delete(key);
        return this.deps.emit(event.type, event.payload, metadata);
      }
      case 'tool.invoke.request':
        return this.request(event.payload, metadata);
      case 'tool.invoke.stream':
        if (!this.tools.has(event.payload.invocation_id)) return this.drop(event.type, `no open invocation ${event.payload.invocation_id}`);
        if (this.cancelling) return this.drop(event.type, 'turn is being cancelled');
        return this.deps.emit(event.type, event.payload, metadata);
      case 'agent.subagent.started':
        // The engine sends it right after the request (§10.3.1); the adapter's own copy is redundant.
        return this.drop(event.type, 'sent by the engine after the subagent request');
      case 'agent.subagent.ended': {
        // §10.3.2-1: `ended` goes out right before the result, never earlier: an adapter's own
        // `ended` is kept (its status and duration) and sent when the result comes.
        const open = this.tools.get(event.payload.parent_invocation_id);
        if (!open?.subagent || open.subagent.ended || open.subagent.endedPayload) return this.drop(event.type, 'no open subagent');
        open.subagent.endedPayload = event.payload;
        return;
      }
      case 'tool.invoke.result':
        return this.result(event.payload, metadata);
      default:
        return this.deps.emit(event.type, event.payload as never, metadata);
    }
  }

  /**
   * Close everything still open: innermost tools first, then thinking, then text. A cancelled
   * turn always ends with an `agent.text.done` (is_cancelled: true) (§6.1.2-1), even when no text
   * block was open (a command was running): then it closes a new, empty block.
   */
  closeAll(cancelled: boolean, announceCancel = cancelled): void {
    for (const id of [...this.tools.keys()].reverse()) {
      const open = this.tools.get(id);
      if (!open) continue;
      this.result(
        {
          invocation_id: id,
          tool_name: open.tool_name,
          status: 'cancelled',
          output: cancelled ? 'Cancelled' : 'The tool reported no result before the turn ended',
          output_type: 'text',
        },
        open.metadata,
        true,
      );
    }
    for (const [key, b] of this.thinking) {
      this.thinking.delete(key);
      this.deps.emit('agent.thinking.done', { content_index: b.content_index }, b.metadata);
    }
    for (const [key, b] of this.text) {
      this.text.delete(key);
      if (cancelled && b.metadata?.subagent_context === undefined) this.cancelledTextDone = true;
      this.deps.emit('agent.text.done', cancelled ? { content_index: b.content_index, is_cancelled: true } : { content_index: b.content_index }, b.metadata);
    }
    if (announceCancel && !this.cancelledTextDone) {
      this.cancelledTextDone = true;
      this.deps.emit('agent.text.done', { content_index: this.nextContentIndex++, is_cancelled: true });
    }
  }

  get openToolCount(): number {
    return this.tools.size;
  }

  /** The tool of the most recent call still running, if any. */
  latestOpenTool(): string | undefined {
    return [...this.tools.values()].at(-1)?.tool_name;
  }

  private request(payload: PayloadOf<'tool.invoke.request'>, metadata: Metadata | undefined): void {
    if (this.cancelling) return this.drop('tool.invoke.request', 'turn is being cancelled');
    const id = payload.invocation_id;
    if (this.seenInvocations.has(id)) return this.drop('tool.invoke.request', `duplicate invocation ${id}`);
    this.seenInvocations.add(id);
    this.toolCount++;
    const parent = metadata?.subagent_context?.parent_invocation_id;
    const verdict = this.check(payload.tool_name, payload.input, parent);
    if (!verdict.allowed && payload.subagent) {
      // §10.3.1-1: a request with `subagent` is followed by agent.subagent.started. A refused one
      // starts no subagent, so it goes out as the plain call it became (docs/decisions/201-refused-subagent-call.md).
      const { subagent: _never, ...plain } = payload;
      void _never;
      payload = plain;
    }
    // §4.6.1: the state turns tool_calling as the call goes out — before its request, so nothing
    // but the subagent's own frames stands between a subagent's started and ended.
    if (verdict.allowed) this.deps.toolsRunning?.(this.tools.size + 1);
    this.deps.emit('tool.invoke.request', payload, metadata);
    const open: OpenTool = { tool_name: payload.tool_name, startedAt: this.deps.clock.now().getTime(), metadata };
    this.tools.set(id, open);
    if (!verdict.allowed) {
      // Its code too (as our tools give theirs), so views say why and a headless run counts it as a denial.
      this.result({ invocation_id: id, tool_name: payload.tool_name, status: 'error', output: verdict.message, output_type: 'text', error_code: verdict.code }, metadata, true);
      if (verdict.sessionError) this.deps.emit('session.error', { error_code: verdict.code, message: verdict.message, fatal: false });
      return;
    }
    if (payload.subagent) {
      const depth = (metadata?.subagent_context?.depth ?? 0) + 1;
      const reach = toolsInReach(this.policyFor(parent));
      const asked = subagentAllowedTools(payload.input);
      open.subagent = { depth, agent_type: payload.subagent.agent_type, scope: asked ? asked.filter((t) => reach.includes(t)) : reach, ended: false };
      const started: PayloadOf<'agent.subagent.started'> = { parent_invocation_id: id, depth };
      if (payload.subagent.agent_type !== undefined) started.agent_type = payload.subagent.agent_type;
      const description = payload.subagent.description ?? (typeof payload.input.description === 'string' ? payload.input.description : undefined);
      if (description !== undefined) started.description = description;
      this.deps.emit('agent.subagent.started', started, metadata);
    }
  }

  private result(payload: PayloadOf<'tool.invoke.result'>, metadata: Metadata | undefined, synthesized = false): void {
    const id = payload.invocation_id;
    const open = this.tools.get(id);
    if (!open) return this.drop('tool.invoke.result', `no open invocation ${id}`);
    this.tools.delete(id);
    const status = this.cancelling ? 'cancelled' : payload.status;
    if (open.subagent && !open.subagent.ended) {
      open.subagent.ended = true;
      const own = open.subagent.endedPayload;
      const ended: PayloadOf<'agent.subagent.ended'> = {
        parent_invocation_id: id,
        status: status === 'cancelled' ? 'cancelled' : (own?.status ?? (status === 'success' ? 'completed' : 'failed')),
        duration_ms: own?.duration_ms ?? this.elapsed(open),
      };
      this.deps.emit('agent.subagent.ended', ended, open.metadata);
    }
    const fixed: PayloadOf<'tool.invoke.result'> = {
      ...payload,
      status,
      output: payload.output === undefined ? null : payload.output,
      output_type: this.outputType(open, payload.output_type, synthesized),
      duration_ms: payload.duration_ms ?? this.elapsed(open),
    };
    this.deps.emit('tool.invoke.result', fixed, synthesized ? open.metadata : (metadata ?? open.metadata));
    this.deps.toolsRunning?.(this.tools.size);
  }

  /** §5.3.3: catalog declaration first; a subagent's result is agent_result (§10.4); else the adapter's or the category default. */
  private outputType(open: OpenTool, given: OutputTypeName | undefined, synthesized: boolean): OutputTypeName {
    if (open.subagent) return 'agent_result';
    // A result we made (refused, cancelled, never reported) carries our message, not the tool's
    // output: the tool never ran, so its declared `diff` or `file_content` would be untrue
    // (§5.3.3-1 describes the tool's output; docs/decisions/202-synthesized-result-output-type.md).
    if (synthesized) return 'text';
    const tools = this.deps.policy().tools;
    const declared = tools.find((t: CatalogTool) => t.name === open.tool_name)?.output_type;
    if (declared) return declared;
    // The adapter's own value chooses only among what §5.3.3-1 allows for the tool (diff or empty
    // for a write, text or file_list for a search); otherwise the category default decides.
    const entry = tools.find((t: CatalogTool) => t.name === open.tool_name);
    // A tool the table says nothing about (no category) keeps the adapter's value (it knows the tool).
    const allowed = allowedOutputTypes(open.tool_name, entry);
    if (given && isOutputType(given) && (allowed.basis === 'fallback' || allowed.types.includes(given))) return given;
    return decideOutputType(open.tool_name, tools);
  }

  private policyFor(parent_invocation_id: string | undefined): ToolPolicyInput {
    const base = this.deps.policy();
    const scope = parent_invocation_id ? this.tools.get(parent_invocation_id)?.subagent?.scope : undefined;
    return scope ? { ...base, scope } : base;
  }

  /** §10.2: fill in depth/agent_type of a known subagent; strip the context if not announced (§10.7). */
  private normalizeMetadata(metadata: Metadata | undefined): Metadata | undefined {
    const ctx = metadata?.subagent_context;
    if (!metadata || ctx === undefined) return metadata;
    if (ctx === null || !this.deps.subagentContext) {
      const { subagent_context: _drop, ...rest } = metadata;
      void _drop;
      return Object.keys(rest).length > 0 ? rest : undefined;
    }
    const sub = this.tools.get(ctx.parent_invocation_id)?.subagent;
    if (!sub) return metadata;
    const filled = { ...ctx, depth: sub.depth };
    if (filled.agent_type === undefined && sub.agent_type !== undefined) filled.agent_type = sub.agent_type;
    return { ...metadata, subagent_context: filled };
  }

  private elapsed(open: OpenTool): number {
    return Math.max(0, this.deps.clock.now().getTime() - open.startedAt);
  }

  private drop(type: string, why: string): void {
    this.deps.logger.debug(`adapter frame ${type} dropped: ${why}`);
  }
}

const OUTPUT_TYPES = new Set<string>(['text', 'structured', 'file_content', 'file_list', 'diff', 'web_content', 'empty', 'binary_ref', 'agent_result']);
function isOutputType(v: unknown): v is OutputTypeName {
  return typeof v === 'string' && OUTPUT_TYPES.has(v);
}

function blockKey(metadata: Metadata | undefined, content_index: number): string {
  return `${metadata?.subagent_context?.parent_invocation_id ?? ''}#${content_index}`;
}

