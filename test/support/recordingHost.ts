// A stand-in for the session engine in adapter tests: it stamps every event the adapter emits
// into a full frame (with the master's own frames where a real session has them: capabilities,
// prompts, interaction answers, cancels), frames each turn with session.turn.start / end + usage,
// answers interactions by a test-supplied policy, and checks the whole stream with the same
// validator `rawp validate` uses. A test may also set `toolPolicy`: then tool calls are judged by
// the engine's own policy function (src/session/toolPolicy.ts), as a real session judges them.
import { randomUUID } from 'node:crypto';
import type { AgentAdapter, AgentEvent, AgentHost, InteractionAnswer, TurnOutcome } from '../../src/session/agentAdapter';
import type { AgentModeName } from '../../src/protocol/common';
import type { Metadata } from '../../src/protocol/envelope';
import { PermissionBroker, type PermissionQuestion, type PermissionVerdict } from '../../src/session/permissions';
import { buildFrame } from '../../src/protocol/build';
import type { Frame, FrameType, PayloadOf } from '../../src/protocol/frameTypes';
import { parseFrame } from '../../src/protocol/parse';
import { MODE_BLOCKED_MESSAGE, modeAllows } from '../../src/protocol/modePolicy';
import { checkTool, type ToolVerdict } from '../../src/session/toolPolicy';
import { formatText, validateText, type ValidationResult } from '../../src/protocol/conformance';

export type InteractionPolicy = (request: PayloadOf<'agent.interaction.request'>) => InteractionAnswer | Promise<InteractionAnswer>;

export interface TurnOptions {
  mode?: AgentModeName;
  /** Abort the turn once this returns true for a frame the adapter emitted. */
  cancelWhen?(frame: Frame): boolean;
  /** Called for every frame the adapter emits (e.g. to SIGKILL the agent mid-turn). */
  onFrame?(frame: Frame): void;
  /** Cancel the turn when this settles (e.g. once the mock model has the request). */
  cancelAfter?: Promise<unknown>;
  /** §16.4 metadata of the `<@file:…>` tokens in the prompt text. */
  file_references?: PayloadOf<'control.prompt.request'>['file_references'];
}

/** A prompt's tool lists (§6.1.1 `config_overrides.allowed_tools` / `denied_tools`), as a master sets them. */
export interface ToolLists {
  allowed_tools?: string[];
  denied_tools?: string[];
}

export interface TurnRecord {
  turn_id: string;
  outcome: TurnOutcome;
  /** The frames of this turn, session.turn.start … session.usage. */
  frames: Frame[];
}

export class RecordingHost implements AgentHost {
  readonly session_id = randomUUID();
  readonly frames: Frame[] = [];
  mode: AgentModeName = 'default';
  private turnId: string | undefined;
  private turnIndex = 0;
  private listener: ((f: Frame) => void) | undefined;
  /** Frames the adapter emitted that failed their schema (they are not added to `frames`). */
  readonly invalid: string[] = [];
  /**
   * Unset (the default): checkTool allows every call and only the mode refusal below applies on the
   * wire. Set: the engine's own `checkTool` (catalog, diagnostics, the turn's mode, these lists)
   * judges the adapter's checkTool questions and every tool.invoke.request, as the engine does, and
   * each prompt carries the lists in its config_overrides (the engine hands them to the adapter).
   */
  toolPolicy: ToolLists | undefined;
  /** Every checkTool question the adapter asked, with the answer it got. */
  readonly checks: Array<{ tool_name: string; verdict: ToolVerdict | { allowed: true } }> = [];

  constructor(
    readonly workspacePath: string,
    private readonly answer: InteractionPolicy = () => ({ kind: 'timeout' }),
  ) {}

  emit(event: AgentEvent): void {
    if (!this.opened) {
      // As the engine does (§13.1-2): nothing precedes the capabilities; a catalog or command list
      // the agent sends while starting is folded into the opening frames.
      if (event.type === 'tool.catalog.publish') this.startCatalog = event.payload;
      else if (event.type === 'agent.commands.publish') this.startCommands = event.payload.commands;
      return;
    }
    if (event.type === 'tool.invoke.result' && this.refused.delete(event.payload.invocation_id)) return; // answered at the request
    if (event.type === 'tool.invoke.stream' && this.refused.has(event.payload.invocation_id)) return;
    const frame = this.stamp(event.type, event.payload as PayloadOf<typeof event.type>, event.metadata);
    this.listener?.(frame);
    if (event.type === 'tool.invoke.request') {
      if (this.toolPolicy) this.refuseByPolicy(event.payload, event.metadata);
      else this.refuseInMode(event.payload, event.metadata);
    }
  }

  /** The engine's verdict for a call now (src/session/toolPolicy.ts), with the test's lists. */
  verdictFor(tool_name: string, input: Record<string, unknown>): ToolVerdict {
    const lists = this.toolPolicy ?? {};
    return checkTool({ tools: this.catalog?.tools ?? [], diagnostics: this.catalog?.diagnostics ?? [], mode: this.mode, ...lists }, tool_name, input);
  }

  /**
   * As the engine's turn stream does with `toolPolicy` set: a refused request is answered at once
   * with an error result carrying the verdict's message and code, and the agent's own frames for it
   * are dropped.
   */
  private refuseByPolicy(request: PayloadOf<'tool.invoke.request'>, metadata: AgentEvent['metadata']): void {
    const verdict = this.verdictFor(request.tool_name, request.input);
    if (verdict.allowed) return;
    this.refused.add(request.invocation_id);
    this.stamp('tool.invoke.result', { invocation_id: request.invocation_id, tool_name: request.tool_name, status: 'error', output: verdict.message, output_type: 'text', error_code: verdict.code }, metadata);
  }

  /**
   * As the engine does (§6.3.2-1): in plan/review mode a shell or file-writing call is answered at
   * once with the error "Tool not allowed in current mode", and the agent's own result is dropped.
   */
  private refuseInMode(request: PayloadOf<'tool.invoke.request'>, metadata: AgentEvent['metadata']): void {
    if (this.mode === 'default') return;
    const entry = this.catalog?.tools.find((t) => t.name === request.tool_name);
    if (!entry || modeAllows(this.mode, entry.category, entry.name)) return;
    this.refused.add(request.invocation_id);
    this.stamp('tool.invoke.result', { invocation_id: request.invocation_id, tool_name: request.tool_name, status: 'error', output: MODE_BLOCKED_MESSAGE, output_type: 'text' }, metadata);
  }

  checkTool(tool_name: string, input: Record<string, unknown>): ToolVerdict | { allowed: true } {
    const verdict = this.toolPolicy ? this.verdictFor(tool_name, input) : { allowed: true as const };
    this.checks.push({ tool_name, verdict });
    return verdict;
  }

  async requestInteraction(request: PayloadOf<'agent.interaction.request'>): Promise<InteractionAnswer> {
    this.stamp('agent.interaction.request', request);
    const answer = await this.answer(request);
    if (answer.kind === 'response') {
      this.stamp('control.interaction.response', { interaction_id: request.interaction_id, selected_value: answer.selected_value, ...(answer.text_input !== undefined ? { text_input: answer.text_input } : {}) });
    } else if (answer.kind === 'timeout') {
      this.stamp('control.interaction.timeout', { interaction_id: request.interaction_id });
    }
    return answer;
  }

  /** The one policy and rules store of the engine, as a host would configure it. */
  readonly permissions = new PermissionBroker();
  readonly policy = this.permissions.policy;

  /** Every permission question the adapter asked, in order. */
  readonly questions: PermissionQuestion[] = [];

  askPermission(question: PermissionQuestion, options?: { metadata?: Metadata }): Promise<PermissionVerdict> {
    this.questions.push(question);
    return this.permissions.ask(question, { session_id: this.session_id, agent_id: 'test', requestInteraction: (r) => this.requestInteraction(r), newId: randomUUID, ...(options?.metadata ? { metadata: options.metadata } : {}) });
  }

  private opened = false;
  private startCatalog: PayloadOf<'tool.catalog.publish'> | undefined;
  private startCommands: PayloadOf<'agent.commands.publish'>['commands'] | undefined;
  private catalog: PayloadOf<'tool.catalog.publish'> | undefined;
  private readonly refused = new Set<string>();

  /** §13.1: capabilities both ways, catalog, commands, idle. */
  async open(adapter: AgentAdapter): Promise<Awaited<ReturnType<AgentAdapter['start']>>> {
    const started = await adapter.start(this);
    if (this.startCatalog) {
      started.tools = this.startCatalog.tools;
      if (this.startCatalog.diagnostics) started.diagnostics = this.startCatalog.diagnostics;
    }
    if (this.startCommands) started.commands = this.startCommands;
    this.stamp('session.capabilities', {
      protocol_version: 'rawp-dps-1.0',
      supported_namespaces: ['agent', 'tool', 'session', 'control'],
      features: started.capabilities.features,
      ...(started.capabilities.extensions ? { extensions: started.capabilities.extensions } : {}),
    });
    this.stamp('session.capabilities', {
      protocol_version: 'rawp-dps-1.0',
      supported_namespaces: ['agent', 'tool', 'session', 'control'],
      features: { thinking_stream: true, tool_streaming: true, plan_mode: true, subagent: true, subagent_context: true },
    });
    this.stamp('tool.catalog.publish', { tools: started.tools, ...(started.diagnostics ? { diagnostics: started.diagnostics } : {}) });
    this.stamp('agent.commands.publish', { commands: started.commands });
    this.stamp('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'ready' });
    this.opened = true;
    return started;
  }

  /** One prompt: control.prompt.request, turn.start, the adapter's frames, turn.end, usage. */
  async turn(adapter: AgentAdapter, text: string, opts: TurnOptions = {}): Promise<TurnRecord> {
    const turn_id = randomUUID();
    const mode = opts.mode ?? this.mode;
    this.mode = mode;
    const first = this.frames.length;
    const lists = this.toolPolicy;
    const overrides = lists && (lists.allowed_tools || lists.denied_tools) ? { config_overrides: { ...lists } } : {};
    this.stamp('control.prompt.request', { prompt_text: text, ...(opts.file_references ? { file_references: opts.file_references } : {}), ...overrides });
    this.turnId = turn_id;
    this.stamp('session.turn.start', { turn_id, turn_index: this.turnIndex++, mode });
    const abort = new AbortController();
    const cancel = () => {
      if (abort.signal.aborted || this.turnId !== turn_id) return;
      this.stamp('control.prompt.cancel', { target_turn_id: turn_id, reason: 'user_cancelled' });
      abort.abort();
    };
    this.listener = (f) => {
      opts.onFrame?.(f);
      if (opts.cancelWhen?.(f)) cancel();
    };
    void opts.cancelAfter?.then(cancel, cancel);
    let outcome: TurnOutcome;
    try {
      outcome = await adapter.prompt(
        { turn_id, turn_index: this.turnIndex - 1, text, input_type: 'text', mode, file_references: opts.file_references ?? [], context_files: [], ...(lists?.allowed_tools ? { allowed_tools: lists.allowed_tools } : {}), ...(lists?.denied_tools ? { denied_tools: lists.denied_tools } : {}) },
        abort.signal,
      );
    } finally {
      this.listener = undefined;
    }
    if (abort.signal.aborted) this.closeCancelled(first);
    this.stamp('session.turn.end', { turn_id, stop_reason: outcome.stop_reason });
    const u = outcome.usage;
    this.stamp('session.usage', {
      turn_id,
      token_usage: {
        input_tokens: u?.input_tokens ?? 0,
        output_tokens: u?.output_tokens ?? 0,
        ...(u?.cache_read_tokens !== undefined ? { cache_read_tokens: u.cache_read_tokens } : {}),
        ...(u?.thinking_tokens !== undefined ? { thinking_tokens: u.thinking_tokens } : {}),
      },
      cost_usage: { limit: -1, used: u?.cost_usd ?? 0, unit: 'USD' },
      message_usage: { limit: -1, used: this.turnIndex, unit: 'COUNT' },
      time_to_reset: 'PT0S',
    });
    this.turnId = undefined;
    return { turn_id, outcome, frames: this.frames.slice(first) };
  }

  /** The stream as `rawp validate` reads it. */
  jsonLines(): string {
    return this.frames.map((f) => JSON.stringify(f)).join('\n') + '\n';
  }

  validate(): ValidationResult {
    return validateText(this.jsonLines());
  }

  /** A readable report for assertion messages. */
  problems(): string {
    const invalid = this.invalid.length ? `invalid frames:\n${this.invalid.join('\n')}\n` : '';
    return invalid + formatText(this.validate());
  }

  ofType<T extends FrameType>(type: T, frames: Frame[] = this.frames): Extract<Frame, { type: T }>[] {
    return frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);
  }

  /**
   * What the engine does for a cancelled turn (§6.1.2-1, docs/decisions/200): calls still open are
   * answered `cancelled`, and an agent.text.done with is_cancelled: true closes the turn's text
   * when the adapter sent none.
   */
  private closeCancelled(first: number): void {
    const frames = this.frames.slice(first);
    const answered = new Set(frames.flatMap((f) => (f.type === 'tool.invoke.result' ? [f.payload.invocation_id] : [])));
    for (const f of frames) {
      if (f.type === 'tool.invoke.request' && !answered.has(f.payload.invocation_id)) {
        this.stamp('tool.invoke.result', { invocation_id: f.payload.invocation_id, tool_name: f.payload.tool_name, status: 'cancelled', output: 'Cancelled', output_type: 'text' }, f.metadata);
      }
    }
    if (frames.some((f) => f.type === 'agent.text.done' && f.payload.is_cancelled === true)) return;
    const indices = frames.flatMap((f) => ('content_index' in f.payload && typeof f.payload.content_index === 'number' && !f.metadata?.subagent_context ? [f.payload.content_index] : []));
    this.stamp('agent.text.done', { content_index: indices.length ? Math.max(...indices) + 1 : 0, is_cancelled: true });
  }

  private stamp<T extends FrameType>(type: T, payload: PayloadOf<T>, metadata?: AgentEvent['metadata']): Frame {
    const raw = buildFrame(type, payload, { session_id: this.session_id, ...(this.turnId ? { turn_id: this.turnId } : {}), ...(metadata ? { metadata } : {}) });
    const parsed = parseFrame(JSON.parse(JSON.stringify(raw)));
    if (parsed.kind !== 'accepted' || parsed.vendor) {
      this.invalid.push(`${type}: ${parsed.kind === 'error' ? parsed.error.message : parsed.kind}`);
      return raw as Frame;
    }
    this.frames.push(parsed.frame);
    if (parsed.frame.type === 'tool.catalog.publish') this.catalog = parsed.frame.payload;
    return parsed.frame;
  }
}
