// AgentSession: the DPS session engine for one agent. It owns the policy every adapter gets for
// free — the §13.1 opening, one turn at a time (§17.3.2), turns and usage (§7.5, §7.3),
// cancellation (§6.1.2), modes (§6.3.2), compaction (§6.3.1), interactions (§4.3, §17.3.1),
// rename/delete (§7.6, §7.7) and the §7.5.3 clean-up order — and writes every frame it makes to
// one sink (the hub). It never throws across the protocol boundary: bad requests become
// non-fatal `session.error` frames. The turns themselves run in turnLifecycle.ts, the adapter's
// host object and the route of its frames in adapterSide.ts, the between-turns work in
// betweenTurns.ts; this file wires them and owns the session's own state and its end.
import type { PromptAdmission } from './admission';
import type { AgentAdapter, AgentHost } from './agentAdapter';
import { noContextFiles, type ContextFileSource, type FileTransferPayload, type OutgoingFile } from './contextFiles';
import { FrameFactory, newId } from '../protocol/build';
import type { AgentModeName } from '../protocol/common';
import type { Metadata } from '../protocol/envelope';
import type { Frame, FrameType, PayloadOf } from '../protocol/frameTypes';
import { agentHostFor, routeAdapterEvent, type AdapterSideSession } from './adapterSide';
import { agentSessionReporter } from './agentSessionReport';
import { clientCapabilities } from './capabilities';
import type { ConnectionKind } from './connection';
import type { AttachmentSupport } from './attachments';
import type { AgentSessionOptions, DeletedBy, DeleteReason, RenamedBy } from './engineOptions';
import { errorMessage } from './errorMessage';
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
import { UsageLedger } from './usage';
import { BetweenTurns } from './betweenTurns';
import { TurnLifecycle } from './turnLifecycle';
import { cleanSessionName } from '../protocol/sessionName';
import { AgentTitles } from './agentTitles';

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
  /** The one turn at a time: opened, run, cancelled, closed (turnLifecycle.ts). */
  private readonly turns: TurnLifecycle;
  /** The adapter's host object and the route of what it emits (adapterSide.ts). */
  private readonly adapterSide: AdapterSideSession;
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
  private readonly titles: AgentTitles; // the agent's own titles, never over a person's name

  constructor(private readonly options: AgentSessionOptions) {
    this.session_id = options.session_id ?? newId();
    // Strictly increasing stamps: §2.3 replays history by timestamp then (random) message_id.
    this.clock = options.clock ?? monotonicClock();
    this.timers = options.timers ?? systemTimers;
    this.logger = options.logger ?? silentLogger;
    this.factory = new FrameFactory(this.session_id, this.clock);
    this.interactions = new InteractionBook(this.timers);
    this.permissions = options.permissions ?? new PermissionBroker();
    this.created_at = options.created_at ?? this.clock.now().toISOString();
    this._name = cleanSessionName(options.name ?? '') || cleanSessionName(options.adapter.info.displayName) || 'Session';
    this.titles = new AgentTitles({ name: () => this._name, apply: (name) => this.rename(name, 'edge', false), ready: () => this.ready, ending: () => this.ending, timers: this.timers }, options.nameByPerson ?? cleanSessionName(options.name ?? '') !== '');
    this.betweenTurns = new BetweenTurns({
      adapter: options.adapter,
      features: () => this.declared.capabilities.features,
      runningTurnId: () => this.turns.current?.id,
      ending: () => this.ending,
      state: () => this.state,
      usage: this.usage,
      ...(options.autoCompactConsider ? { autoCompactConsider: options.autoCompactConsider } : {}),
      emit: (type, payload, ctx) => this.emit(type, payload, ctx),
      error: (code, message, parent_id) => this.error(code, message, parent_id),
    });
    this.questions = {
      currentTurn: () => this.turns.current,
      ending: () => this.ending,
      interactions: this.interactions,
      state: () => this.state,
      setState: (next, reason) => this.setState(next, reason),
      emitRequest: (request, metadata) => this.emit('agent.interaction.request', request, { metadata }),
      logger: this.logger,
    };
    const agentSession = agentSessionReporter(options.onAgentSession);
    this.turns = new TurnLifecycle({
      session_id: this.session_id,
      options,
      adapter: options.adapter,
      declared: this.declared,
      betweenTurns: this.betweenTurns,
      usage: this.usage,
      interactions: this.interactions,
      permissions: this.permissions,
      clock: this.clock,
      timers: this.timers,
      logger: this.logger,
      ready: () => this.ready,
      ending: () => this.ending,
      state: () => this.state,
      setState: (next, reason) => this.setState(next, reason),
      subagentContext: () => this.capabilities().features?.subagent_context === true,
      emit: (type, payload, ctx) => this.emit(type, payload, ctx),
      error: (code, message, parent_id) => this.error(code, message, parent_id),
      agentSession,
    });
    this.adapterSide = {
      session_id: this.session_id,
      agent_id: options.adapter.info.id,
      workspacePath: options.workspacePath ?? '',
      declared: this.declared,
      betweenTurns: this.betweenTurns,
      usage: this.usage,
      permissions: this.permissions,
      contextFiles: this.contextFiles,
      ...(options.localCopy ? { localCopy: options.localCopy } : {}),
      logger: this.logger,
      ready: () => this.ready,
      ending: () => this.ending,
      turn: () => this.turns.current,
      stopAtLimit: (turn) => this.turns.stopAtLimit(turn),
      askUser: (request, metadata) => askDuringTurn(this.questions, request, metadata),
      publishFile: (file) => this.publishFile(file),
      setState: (next, reason) => this.setState(next, reason),
      emit: (type, payload, ctx) => this.emit(type, payload, ctx),
      endOnFatal: () => void this.end('error', 'client'),
      fail: (code, message) => void this.fail(code, message),
      agentSession,
      agentTitle: (title) => this.titles.offer(title),
    };
    this.host = agentHostFor(this.adapterSide);
    this.toolRecheck = new ToolRecheck({
      refresh: options.adapter.refreshTools?.bind(options.adapter),
      everyMs: options.toolRecheckMs ?? 10_000,
      idle: () => !this.turns.current && !this.betweenTurns.busy,
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
  get nameByPerson(): boolean {
    return this.titles.byPerson; // no agent title replaces a person's name (725), after a restart either (728)
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
    return this.turns.current !== undefined;
  }
  get currentTurnId(): string | undefined {
    return this.turns.current?.id;
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
      structured_output: this.options.schemaValidator !== undefined && this.options.adapter.info.grammarOnly !== true,
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
      routePeerFrame(frame, from, this.peerHandlers);
    } catch (e) {
      this.logger.error('failed to handle frame', { type: frame.type, error: String(e) });
      this.error('INTERNAL_ERROR', `could not handle ${frame.type}: ${errorMessage(e)}`, frame.message_id);
    }
  }

  /** A connection left the hub (closed, dropped, kicked): the file searches it started stop (§16.1.3). */
  detached(connection_id: string): void {
    this.searches.ownerLeft(connection_id);
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
    routeAdapterEvent(this.adapterSide, { type: 'agent.file.transfer', payload });
    return payload;
  }

  /** A master announced a file (§4.5.1 direction `upload`): the host checks it against its store. */
  private fileAnnounced(payload: FileTransferPayload, parent_id: string): void {
    if (payload.direction !== 'upload') return this.error('INVALID_FILE_TRANSFER', 'a master announces only uploads (direction "upload"); downloads are the client\'s (§4.5.1)', parent_id);
    if (!this.options.files) return this.error('FEATURE_NOT_SUPPORTED', 'this host stores no files; the announced upload cannot be used (§4.5.1)', parent_id);
    const problem = this.options.files.announced(payload);
    if (problem) this.error('INVALID_FILE_TRANSFER', problem, parent_id);
  }

  // ---- turns (turnLifecycle.ts) ----------------------------------------------------------

  /** Start a turn for a prompt; refused with PROMPT_IN_PROGRESS while one runs (§17.3.2). */
  prompt(payload: PayloadOf<'control.prompt.request'>, parent_id?: string): void {
    this.turns.start(payload, parent_id);
  }

  /** §6.1.2: stop the turn: abort the adapter, discard open questions, end it as cancelled. */
  cancel(target_turn_id: string, reason?: string, parent_id?: string): void {
    this.turns.cancel(target_turn_id, reason, parent_id);
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

  /** §7.6: rename, tell every connection; false when `name` has nothing visible (566). A `person`'s name ends the agent's titles (725). */
  rename(raw: string, renamed_by: RenamedBy = 'client', person = true): boolean {
    const name = cleanSessionName(raw);
    if (!name) return false;
    if (person) this.titles.namedByPerson();
    if (this.ending || name === this._name) return true;
    const previous_name = this._name;
    this._name = name;
    this.emit('session.renamed', { session_id: this.session_id, name, previous_name, renamed_by });
    return true;
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
    this.titles.dispose();
    const turn = this.turns.current;
    if (turn) {
      turn.stream.cancelling = true;
      turn.controller.abort('session ended');
    }
    this.interactions.cancelAll();
    this.searches.cancelAll();
    await disposeWithin(() => this.options.adapter.dispose(), this.options.disposeTimeoutMs ?? 10_000, this.timers, this.logger);
    if (turn && this.turns.current === turn) this.turns.finish(turn, 'error', undefined);
    this.emit('session.deleted', { session_id: this.session_id, reason, deleted_by });
    this.ended = true;
    try {
      this.permissions.rules.forgetSession(this.session_id);
      this.options.onEnded?.({ reason, deleted_by });
    } catch (e) {
      this.logger.error('onEnded failed', { error: String(e) });
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

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
    const turn = this.turns.current;
    turn?.overrides.observe(type, payload, ctx.metadata);
    const frame = this.factory.make(type, payload, {
      turn_id: turn?.id,
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
