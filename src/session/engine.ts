// AgentSession: the DPS session engine for one agent. It owns the policy every adapter gets for
// free — the §13.1 opening, one turn at a time (§17.3.2), turns and usage (§7.5, §7.3),
// cancellation (§6.1.2), modes (§6.3.2), compaction (§6.3.1), interactions (§4.3, §17.3.1),
// rename/delete (§7.6, §7.7) and the §7.5.3 clean-up order — and writes every frame it makes to
// one sink (the hub). It never throws across the protocol boundary: bad requests become
// non-fatal `session.error` frames.
import type { PromptAdmission } from './admission';
import type { AgentAdapter, AgentEvent, AgentHost, AgentPrompt, InteractionAnswer, TurnOutcome } from './agentAdapter';
import { noContextFiles, type ContextFileSource, type FileTransferPayload, type OutgoingFile } from './contextFiles';
import { FrameFactory, newId } from '../protocol/build';
import type { AgentModeName } from '../protocol/common';
import type { Metadata } from '../protocol/envelope';
import { TURN_CONTENT_TYPES, type Frame, type FrameType, type PayloadOf } from '../protocol/frameTypes';
import { haltTurn, stopReasonOf, type ActiveTurn, type StopReason } from './activeTurn';
import { screenAdapterEvent } from './adapterEvents';
import { clientCapabilities } from './capabilities';
import type { ConnectionKind } from './connection';
import type { AttachmentSupport } from './attachments';
import type { AgentSessionOptions, DeletedBy, DeleteReason, RenamedBy } from './engineOptions';
import { FileSearches } from './fileSearches';
import { AgentCatalog } from './agentCatalog';
import { disposeWithin } from './boundedDispose';
import { ToolRecheck } from './toolRecheck';
import { askDuringTurn, type TurnQuestionsSession } from './turnQuestions';
import type { HubSessionSource } from './hub';
import { InteractionBook } from './interactions';
import { routePeerFrame, type PeerFrameHandlers } from './peerFrames';
import { PermissionBroker } from './permissions/broker';
import { silentLogger, systemTimers, type Clock, type Logger, type Timers } from './ports';
import { monotonicClock } from './monotonicClock';
import { TurnStream } from './turnStream';
import { UsageLedger } from './usage';
import { BetweenTurns } from './betweenTurns';
import { maxTurnsError } from './stepLimit';
import { agentPromptFor, prepareTurnPrompt } from './turnPrompt';
import { callAdapter, runTurnHook } from './turnRun';

export type { AgentSessionOptions, DeleteReason, DeletedBy, RenamedBy } from './engineOptions';

export class AgentSession implements HubSessionSource {
  readonly session_id: string;
  readonly created_at: string;
  private _name: string;
  private state = 'x-rawp.starting';
  private ready = false;
  private ending = false;
  private ended = false;
  private endPromise?: Promise<void>;
  private turn?: ActiveTurn;
  private lastTurnId?: string;
  private turnIndex = 0;
  /** Mode switches and compactions, each alone between turns. */
  private readonly betweenTurns: BetweenTurns;
  /** What the agent declared about itself: capabilities, tools, commands. */
  private readonly declared = new AgentCatalog();
  private readonly factory: FrameFactory;
  readonly clock: Clock;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly interactions: InteractionBook;
  private readonly permissions: PermissionBroker;
  private readonly usage = new UsageLedger();
  private readonly searches: FileSearches;
  private readonly peerHandlers: PeerFrameHandlers;
  private readonly host: AgentHost;
  private readonly toolRecheck: ToolRecheck;
  private readonly questions: TurnQuestionsSession;

  constructor(private readonly options: AgentSessionOptions) {
    this.session_id = options.session_id ?? newId();
    // Strictly increasing stamps: §2.3 replays history by timestamp then (random) message_id.
    this.clock = options.clock ?? monotonicClock();
    this.turnIndex = Math.max(0, Math.floor(options.firstTurnIndex ?? 0));
    this.timers = options.timers ?? systemTimers;
    this.logger = options.logger ?? silentLogger;
    this.factory = new FrameFactory(this.session_id, this.clock);
    this.interactions = new InteractionBook(this.timers);
    this.permissions = options.permissions ?? new PermissionBroker();
    this.created_at = options.created_at ?? this.clock.now().toISOString();
    this._name = options.name ?? options.adapter.info.displayName;
    this.betweenTurns = new BetweenTurns({
      adapter: options.adapter,
      features: () => this.declared.capabilities.features,
      runningTurnId: () => this.turn?.id,
      ending: () => this.ending,
      state: () => this.state,
      usage: this.usage,
      ...(options.autoCompactConsider ? { autoCompactConsider: options.autoCompactConsider } : {}),
      emit: (type, payload, ctx) => this.emit(type, payload, ctx),
      error: (code, message, parent_id) => this.error(code, message, parent_id),
    });
    this.questions = {
      currentTurn: () => this.turn,
      ending: () => this.ending,
      interactions: this.interactions,
      state: () => this.state,
      setState: (next, reason) => this.setState(next, reason),
      emitRequest: (request, metadata) => this.emit('agent.interaction.request', request, { metadata }),
      logger: this.logger,
    };
    this.host = this.makeHost(options.workspacePath ?? '');
    this.toolRecheck = new ToolRecheck({
      refresh: options.adapter.refreshTools?.bind(options.adapter),
      everyMs: options.toolRecheckMs ?? 10_000,
      idle: () => !this.turn && !this.betweenTurns.busy,
      timers: this.timers,
      logger: this.logger,
    });
    this.searches = new FileSearches(options.fileSearch, {
      candidates: (result, parent_id) => this.emit('session.file.candidates', result, { parent_id }),
      error: (code, message, parent_id) => this.error(code, message, parent_id),
      ending: () => this.ending,
    });
    this.peerHandlers = {
      prompt: (payload, parent_id) => this.prompt(payload, parent_id),
      cancel: (target, reason, parent_id) => this.cancel(target, reason, parent_id),
      compact: (trigger, instruction, ratio, parent_id) => this.compact(trigger, instruction, ratio, parent_id),
      switchMode: (mode, parent_id) => this.switchMode(mode, parent_id),
      rename: (name, by) => this.rename(name, by),
      end: (reason, by) => this.end(reason, by),
      fileAnnounced: (payload, parent_id) => this.fileAnnounced(payload, parent_id),
      error: (code, message, parent_id) => this.error(code, message, parent_id),
      interactions: this.interactions,
      searches: this.searches,
      logger: this.logger,
    };
  }

  get name(): string {
    return this._name;
  }
  get mode(): AgentModeName {
    return this.betweenTurns.mode;
  }
  get agent(): AgentAdapter['info'] {
    return this.options.adapter.info;
  }
  get isReady(): boolean {
    return this.ready && !this.ending;
  }
  get isEnded(): boolean {
    return this.ended;
  }
  get turnActive(): boolean {
    return this.turn !== undefined;
  }
  get currentTurnId(): string | undefined {
    return this.turn?.id;
  }
  get admission(): PromptAdmission | undefined {
    return this.options.admission;
  }
  /** §6.1.1: the context files the agent said it takes (none before it started or when it declared none). */
  get attachments(): AttachmentSupport | undefined {
    return this.declared.capabilities.attachments;
  }
  /** Where this session's context files are read (admission checks them before the turn). */
  get contextFiles(): ContextFileSource {
    return this.options.contextFiles ?? noContextFiles;
  }

  // ---- HubSessionSource -------------------------------------------------------------------

  capabilities(): PayloadOf<'session.capabilities'> {
    return clientCapabilities(this.options.adapter.info, this.declared.capabilities, {
      max_frame_size: this.options.maxFrameSize ?? 4 * 1024 * 1024,
      file_search_fuzzy: this.options.fileSearch !== undefined,
      structured_output: this.options.schemaValidator !== undefined,
    });
  }
  catalog(): PayloadOf<'tool.catalog.publish'> {
    return this.declared.catalog();
  }
  commands(): PayloadOf<'agent.commands.publish'> {
    return this.declared.commands();
  }
  agentState(): string {
    return this.state;
  }

  /** §13.1: start the agent, then announce capabilities, tools, commands, and idle. */
  async start(): Promise<void> {
    try {
      const started = await this.options.adapter.start(this.host);
      this.declared.adopt(started);
    } catch (e) {
      this.logger.error('agent failed to start', { error: String(e) });
      await this.fail('AGENT_START_FAILED', `the agent could not start: ${errorMessage(e)}`);
      throw e;
    }
    if (this.ending) return;
    this.emit('session.capabilities', this.capabilities());
    this.emit('tool.catalog.publish', this.catalog());
    this.emit('agent.commands.publish', this.commands());
    this.ready = true;
    this.setState('idle', 'initialized');
    this.toolRecheck.start();
  }

  /** An accepted frame from a peer. Never throws. */
  handle(frame: Frame, from: { connection_id: string; kind: ConnectionKind }): void {
    try {
      routePeerFrame(frame, from.kind, this.peerHandlers);
    } catch (e) {
      this.logger.error('failed to handle frame', { type: frame.type, error: String(e) });
      this.error('INTERNAL_ERROR', `could not handle ${frame.type}: ${errorMessage(e)}`, frame.message_id);
    }
  }

  // ---- §4.5.1 file transfers ---------------------------------------------------------------

  /**
   * Offer a file to every connection (direction `download`): the host stores it, then the frame
   * goes out like an adapter's (stamped with the running turn, if any). Adapters, tools and the
   * host itself (SessionHost.publishFile) use it.
   */
  async publishFile(file: OutgoingFile): Promise<FileTransferPayload> {
    const files = this.options.files;
    if (!files) throw new Error('this host has no file store (§4.5.1 transfers are not served)');
    if (this.ending) throw new Error('the session is ending');
    const payload = await files.store(file);
    this.fromAdapter({ type: 'agent.file.transfer', payload });
    return payload;
  }

  /** A master announced a file (§4.5.1 direction `upload`): the host checks it against its store. */
  private fileAnnounced(payload: FileTransferPayload, parent_id: string): void {
    if (payload.direction !== 'upload') return this.error('INVALID_FILE_TRANSFER', 'a master announces only uploads (direction "upload"); downloads are the client\'s (§4.5.1)', parent_id);
    if (!this.options.files) return this.error('FEATURE_NOT_SUPPORTED', 'this host stores no files; the announced upload cannot be used (§4.5.1)', parent_id);
    const problem = this.options.files.announced(payload);
    if (problem) this.error('INVALID_FILE_TRANSFER', problem, parent_id);
  }

  // ---- turns -----------------------------------------------------------------------------

  /** Start a turn for a prompt; refused with PROMPT_IN_PROGRESS while one runs (§17.3.2). */
  prompt(payload: PayloadOf<'control.prompt.request'>, parent_id?: string): void {
    if (this.ending) return this.error('SESSION_ENDED', 'the session is ending', parent_id);
    if (!this.ready) return this.error('SESSION_NOT_READY', 'the session is still starting (§13.1)', parent_id);
    if (this.turn) return this.error('PROMPT_IN_PROGRESS', `turn ${this.turn.id} is still running; the prompt was refused (§17.3.2)`, parent_id);
    const busy = this.betweenTurns.busy;
    if (busy) return this.error('PROMPT_IN_PROGRESS', `a ${busy.replace('_', ' ')} is in progress; the prompt was refused`, parent_id);

    const prepared = prepareTurnPrompt(payload, this.declared.capabilities, this.options);
    if (!prepared.ok) return this.error(prepared.error_code, prepared.message, parent_id);
    const overrides = prepared.overrides;

    const id = newId();
    const turn: ActiveTurn = {
      id,
      overrides,
      index: this.turnIndex++,
      controller: new AbortController(),
      allowed_tools: overrides.allowedTools(payload.config_overrides?.allowed_tools),
      denied_tools: payload.config_overrides?.denied_tools,
      stream: new TurnStream({
        emit: (type, p, metadata) => this.emit(type, p, { metadata }),
        policy: () => this.declared.policy(this.betweenTurns.mode, this.turn),
        subagentContext: this.capabilities().features?.subagent_context === true,
        clock: this.clock,
        logger: this.logger,
        toolsRunning: (count) => this.toolsRunning(count),
      }),
    };
    this.turn = turn;
    this.usage.countMessage();
    const start: PayloadOf<'session.turn.start'> = { turn_id: id, turn_index: turn.index };
    // §6.3.2-5: the first turn after any switch carries the mode, even when plan → default
    // brought it back to where the previous turn stood.
    const announced = this.betweenTurns.takeModeAnnouncement();
    if (announced !== undefined) start.mode = announced;
    this.emit('session.turn.start', start, parent_id ? { parent_id } : {});
    this.setState('thinking', 'prompt');

    void this.runTurn(turn, agentPromptFor(payload, prepared, turn, this.betweenTurns.mode));
  }

  private async runTurn(turn: ActiveTurn, prompt: AgentPrompt): Promise<void> {
    const info = { session_id: this.session_id, turn_id: turn.id, turn_index: turn.index };
    const { outcome, failure } = await callAdapter(turn, prompt, info, this.options.adapter, this.options.turnHooks, this.timers, this.logger);
    if (this.turn !== turn || this.ending) return; // session end closes the turn itself (§7.5.3)
    if (failure !== undefined && !turn.stream.cancelling) {
      this.emit('agent.error', { error_code: 'ADAPTER_ERROR', message: errorMessage(failure), severity: 'error', recoverable: true });
    }
    const stop_reason = stopReasonOf(turn, failure, outcome);
    if (this.options.turnHooks?.after) {
      await runTurnHook('after', () => this.options.turnHooks?.after?.({ ...info, stop_reason }), this.logger);
      if (this.turn !== turn || this.ending) return;
    }
    this.finishTurn(turn, stop_reason, outcome);
    this.betweenTurns.maybeAutoCompact();
  }

  /** Close what is open, then turn.end followed immediately by session.usage (§7.5.2). */
  private finishTurn(turn: ActiveTurn, stop_reason: StopReason, outcome: TurnOutcome | undefined): void {
    turn.stream.closeAll(stop_reason === 'cancelled' || stop_reason === 'error', stop_reason === 'cancelled' || turn.cancelRequested === true);
    this.interactions.cancelAll();
    const end: PayloadOf<'session.turn.end'> = { turn_id: turn.id, stop_reason, tool_invocation_count: turn.stream.toolCount };
    // §11.1: with a schema the engine's own verdict (decision 320); without one, what the agent said.
    const verdict = turn.overrides.turnEnd(outcome);
    if (verdict?.warning) this.emit('agent.error', verdict.warning);
    if (verdict) end.structured_output = verdict.structured_output;
    else if (outcome?.structured_output) end.structured_output = outcome.structured_output;
    this.emit('session.turn.end', end);
    this.emit('session.usage', this.usage.forTurn(turn.id, outcome?.usage));
    this.turn = undefined;
    this.lastTurnId = turn.id;
    if (!this.ending) this.setState('idle', stop_reason);
  }

  /** §6.1.2: stop the turn: abort the adapter, discard open questions, end it as cancelled. */
  cancel(target_turn_id: string, reason?: string, parent_id?: string): void {
    const turn = this.turn;
    if (!turn || turn.id !== target_turn_id) {
      if (target_turn_id === this.lastTurnId) {
        this.logger.info('cancel for a turn that already ended ignored', { target_turn_id });
        return;
      }
      return this.error('TURN_NOT_FOUND', `no running turn ${target_turn_id}`, parent_id);
    }
    if (turn.stream.cancelling) return;
    turn.cancelRequested = true;
    haltTurn(turn, reason ?? 'user_cancelled', this.timers, this.cancelGraceMs());
    this.interactions.cancelAll();
  }

  /**
   * §6.1.1 max_turns, the engine's own cap (decision 321): the agent began a step beyond it. Stop
   * it like a cancel (late frames dropped, the adapter aborted), but the turn ends as `error` with
   * one `agent.error` MAX_TURNS saying why.
   */
  private stopAtLimit(turn: ActiveTurn): void {
    if (turn.limitHit || turn.stream.cancelling) return;
    turn.limitHit = true;
    this.emit('agent.error', maxTurnsError(turn.overrides.maxTurns ?? 0));
    haltTurn(turn, 'max_turns', this.timers, this.cancelGraceMs());
    this.interactions.cancelAll();
  }

  /** After a stop, how long the adapter gets before the turn ends anyway (the policy's grace + 1 s). */
  private cancelGraceMs(): number {
    return this.options.cancelGraceMs ?? this.permissions.policy.cancelGraceMs + 1000;
  }

  // ---- modes, compaction, rename ---------------------------------------------------------

  /** §6.3.2 (betweenTurns.ts) */
  switchMode(mode: AgentModeName, parent_id?: string): Promise<void> {
    return this.betweenTurns.switchMode(mode, parent_id);
  }

  /** §6.3.1: compact on request (`requested`/`manual`) or by utilization (`auto`) (betweenTurns.ts). */
  compact(trigger: PayloadOf<'session.compacted'>['trigger'], instruction?: string, target_token_ratio?: number, parent_id?: string): Promise<void> {
    return this.betweenTurns.compact(trigger, instruction, target_token_ratio, parent_id);
  }

  /** §7.6: rename and tell every connection. */
  rename(name: string, renamed_by: RenamedBy = 'client'): void {
    if (this.ending || name === this._name) return;
    const previous_name = this._name;
    this._name = name;
    this.emit('session.renamed', { session_id: this.session_id, name, previous_name, renamed_by });
  }

  // ---- ending ----------------------------------------------------------------------------

  /** A fatal session error (§7.4.1): report it, then end the session (§7.5.3). */
  async fail(error_code: string, message: string): Promise<void> {
    if (this.ending) return this.endPromise;
    this.emit('session.error', { error_code, message, fatal: true });
    return this.end('error', 'client');
  }

  /**
   * End the session (§7.5.3, §7.7, §17.2.3): stop the agent, then cancelled results for open tool
   * calls, turn.end (error) + usage, session.deleted — and only then close the connections.
   */
  end(reason: DeleteReason = 'user_request', deleted_by: DeletedBy = 'client'): Promise<void> {
    if (!this.endPromise) this.endPromise = this.runEnd(reason, deleted_by);
    return this.endPromise;
  }

  private async runEnd(reason: DeleteReason, deleted_by: DeletedBy): Promise<void> {
    this.ending = true;
    this.toolRecheck.stop();
    const turn = this.turn;
    if (turn) {
      turn.stream.cancelling = true;
      turn.controller.abort('session ended');
    }
    this.interactions.cancelAll();
    this.searches.cancelAll();
    await disposeWithin(() => this.options.adapter.dispose(), this.options.disposeTimeoutMs ?? 10_000, this.timers, this.logger);
    if (turn && this.turn === turn) this.finishTurn(turn, 'error', undefined);
    this.emit('session.deleted', { session_id: this.session_id, reason, deleted_by });
    this.ended = true;
    try {
      this.permissions.rules.forgetSession(this.session_id);
      this.options.onEnded?.({ reason, deleted_by });
    } catch (e) {
      this.logger.error('onEnded failed', { error: String(e) });
    }
  }

  // ---- the adapter's side ----------------------------------------------------------------

  private makeHost(workspacePath: string): AgentHost {
    const self = this; // `mode` is a live getter on the host object
    return {
      session_id: this.session_id,
      workspacePath,
      get mode() {
        return self.betweenTurns.mode;
      },
      emit: (event) => this.fromAdapter(event),
      ...(this.options.localCopy ? { localCopy: this.options.localCopy } : {}),
      checkTool: (tool_name, input, context) => {
        const verdict = this.turn ? this.turn.stream.check(tool_name, input, context?.parent_invocation_id) : undefined;
        const v = verdict ?? { allowed: false as const, message: 'No turn is running' };
        return v.allowed ? { allowed: true } : { allowed: false, message: v.message };
      },
      requestInteraction: (request, options) => this.askUser(request, options?.metadata),
      askPermission: (question, options) =>
        this.permissions.ask(question, {
          session_id: this.session_id,
          agent_id: this.options.adapter.info.id,
          requestInteraction: (request, o) => this.askUser(request, o?.metadata),
          newId,
          ...(options?.metadata ? { metadata: options.metadata } : {}),
        }),
      policy: this.permissions.policy,
      reportMode: (mode) => this.betweenTurns.adoptAgentMode(mode),
      contextFiles: this.options.contextFiles ?? noContextFiles,
      publishFile: (file) => this.publishFile(file),
    };
  }

  /** Every frame an adapter emits passes here: validated, then policy, then out. */
  private fromAdapter(event: AgentEvent): void {
    try {
      if (this.ending) return this.logger.debug(`adapter frame ${event.type} after session end dropped`);
      const screened = screenAdapterEvent(event, this.declared.tools, this.logger);
      if (!screened) return;
      event = screened;
      if (!this.ready) {
        // §13.1: nothing may precede session.capabilities. A catalog or command list the agent sends
        // while starting is folded into the opening frames; anything else is dropped.
        if (event.type === 'tool.catalog.publish') this.declared.setTools(event.payload);
        else if (event.type === 'agent.commands.publish') this.declared.setCommands(event.payload);
        else this.logger.warn(`adapter emitted ${event.type} before the session was ready; dropped`);
        return;
      }
      // §6.1.1 max_turns for agents without their own cap: a step too many stops the turn.
      if (this.turn && !this.turn.stream.cancelling && !this.turn.overrides.admit(event)) return this.stopAtLimit(this.turn);
      if (TURN_CONTENT_TYPES.has(event.type)) {
        if (!this.turn) return this.logger.warn(`adapter emitted ${event.type} outside a turn; dropped`);
        return this.turn.stream.accept(event);
      }
      switch (event.type) {
        case 'tool.catalog.publish':
          this.declared.setTools(event.payload);
          return this.emit(event.type, event.payload, { metadata: event.metadata });
        case 'agent.commands.publish':
          this.declared.setCommands(event.payload);
          return this.emit(event.type, event.payload, { metadata: event.metadata });
        case 'agent.state.changed':
          return this.setState(event.payload.current_state, event.payload.reason);
        case 'agent.error':
          this.emit(event.type, event.payload, { metadata: event.metadata });
          if (event.payload.severity === 'fatal') void this.end('error', 'client'); // §4.4.1
          return;
        case 'session.compacted':
          this.emit(event.type, event.payload, { metadata: event.metadata });
          this.usage.compacted(event.payload.current_token_count);
          return;
        case 'session.error':
          if (event.payload.fatal) return void this.fail(event.payload.error_code, event.payload.message);
          return this.emit(event.type, event.payload, { metadata: event.metadata });
        default:
          // Inside a turn the turn's stream fills in subagent_context (§10.5 subagent usage).
          if (this.turn) return this.turn.stream.accept(event);
          return this.emit(event.type, event.payload as never, { metadata: event.metadata });
      }
    } catch (e) {
      this.logger.error('failed to process an adapter frame', { type: event.type, error: String(e) });
    }
  }

  private askUser(request: PayloadOf<'agent.interaction.request'>, metadata: Metadata | undefined): Promise<InteractionAnswer> {
    return askDuringTurn(this.questions, request, metadata);
  }

  // ---- helpers ---------------------------------------------------------------------------

  /** §4.6.1: `tool_calling` while a tool call runs, `thinking` again when the last one is answered. */
  private toolsRunning(count: number): void {
    if (!this.turn || this.ending || this.turn.stream.cancelling) return;
    if (count > 0 && this.state === 'thinking') this.setState('tool_calling', 'tool_call');
    else if (count === 0 && this.state === 'tool_calling') this.setState('thinking', 'tool_result');
  }

  private setState(next: string, reason?: string): void {
    if (next === this.state) return;
    const payload: PayloadOf<'agent.state.changed'> = { previous_state: this.state, current_state: next };
    if (reason !== undefined) payload.reason = reason;
    this.state = next;
    this.emit('agent.state.changed', payload);
  }

  /** A non-fatal `session.error`, answering the frame `parent_id` when there is one. */
  private error(error_code: string, message: string, parent_id?: string): void {
    this.logger.info(`session.error ${error_code}: ${message}`);
    this.emit('session.error', { error_code, message, fatal: false }, parent_id ? { parent_id } : {});
  }

  /** Stamp the envelope (turn_id while a turn runs) and hand the frame to the sink. */
  private emit<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx: { parent_id?: string; metadata?: Metadata } = {}): void {
    if (this.ended) return;
    this.turn?.overrides.observe(type, payload, ctx.metadata);
    const frame = this.factory.make(type, payload, {
      turn_id: this.turn?.id,
      parent_id: ctx.parent_id,
      metadata: ctx.metadata,
    });
    try {
      this.options.out(frame as Frame);
    } catch (e) {
      this.logger.error('frame sink failed', { type, error: String(e) });
    }
  }
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
