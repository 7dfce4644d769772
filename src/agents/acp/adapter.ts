// The ACP adapter: any Agent Client Protocol agent as a long-lived child process (JSON-RPC over
// stdio, @agentclientprotocol/sdk). We advertise fs.readTextFile/fs.writeTextFile and serve them
// through the FsBackend and the read-before-write policy; permission asks become PERMISSION
// interactions; session/update notifications become frames; cancel is `session/cancel`;
// `loadSessionId` restores a session with `session/load`.
import { client, type ClientConnection, type RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { AgentModeName } from '../../protocol/common';
import type { AgentAdapter, AgentCapabilities, AgentHost, AgentInfo, AgentPrompt, CatalogDiagnostic, CatalogTool, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import { AgentProcess, mapExit } from '../process';
import type { ExitInfo } from '../process';
import type { FsBackend } from '../../workspace/fsBackend';
import { FsEvents } from '../../tools/fsEvents';
import { attachObservationPolicy } from '../../tools/ledger/policy';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import { AcpFsBridge, engineWriteCheck } from './fsBridge';
import { outcomeFor, permissionQuestion, rejectOption, type AcpPermissionOption, type AcpPermissionOutcome } from './permission';
import type { PermissionVerdict } from '../../session/permissions';
import { SESSION_UPDATE_VIA, type TraceDirection } from './stream';
import { AcpUpdateTranslator } from './updates';
import { usageFromPromptResponse } from './usage';
import { acpAttachments } from './attachments';
import { promptBlocks } from './promptBlocks';
import { rpcErrorData, rpcErrorText } from './rpcErrors';
import { untilAnswered } from './startRequest';
import { ACP_AUTH_REQUIRED_CODE, authRequiredError, isAcpAuthRequired } from '../authRequired';
import { envVarAuthMethod } from './envAuth';
import { agentLines, type AgentLines } from './agentLines';
import { reportUnaskedCall } from './unasked';

export interface AcpAdapterOptions {
  /** Agent id ('acp:gemini', …) and name for the UI. */
  id: string;
  displayName: string;
  command: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  /**
   * Serve fs/* through these (share them with the session's other tools). Absent: a NodeFsBackend
   * on the workspace with its own read-before-write ledger. 'none': the agent touches files itself.
   */
  fs?: { backend: FsBackend; events: FsEvents } | 'none';
  /** Restore this agent session with session/load instead of starting a new one. */
  loadSessionId?: string;
  /** How long initialize / session/new may take. */
  startTimeoutMs?: number;
  /** §17.2.3 grace period between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Every JSON-RPC message, both ways (for `rawp convert --from acp` captures and debugging). */
  trace?(direction: TraceDirection, message: unknown): void;
}

const STOP_REASONS: Record<string, TurnOutcome['stop_reason']> = {
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  max_turn_requests: 'max_tokens',
  refusal: 'end_turn',
  cancelled: 'cancelled',
};

/** DPS modes -> the ACP mode ids agents commonly use for them. */
const MODE_IDS: Record<AgentModeName, string[]> = { default: ['default'], plan: ['plan'], review: ['plan', 'review'] };

type AcpModes = { availableModes?: Array<{ id: string }>; currentModeId?: string } | null;

interface TurnState {
  cancelled: boolean;
  /** Resolves pending permission asks as cancelled once the turn is cancelled. */
  onCancel: Array<() => void>;
}

export class AcpAdapter implements AgentAdapter {
  readonly info: AgentInfo;
  private host: AgentHost | undefined;
  private proc: AgentProcess | undefined;
  private conn: ClientConnection | undefined;
  private translator: AcpUpdateTranslator | undefined;
  private lines: AgentLines | undefined;
  private sessionId: string | undefined;
  private availableModes: string[] = [];
  /** The agent's own starting mode: what DPS `default` returns to when it has no 'default' mode. */
  private initialModeId: string | undefined;
  private turn: TurnState | undefined;
  private exit: ExitInfo | undefined;
  private disposing = false;
  /** Commands returned by start(); changes before the first prompt are published then. */
  private startCommands: CommandEntry[] = [];
  private live = false;
  /** What the agent said when it refused session/new for want of credentials. */
  private authTrace: string | undefined;
  /** initialize's `authMethods`, and whether we already authenticated with an env_var one. */
  private authMethods: unknown;
  private authTried = false;
  /** Workspace roots (and their other names, rootAliases.ts): permission asks see paths relative to them. */
  private roots: Pick<FsBackend, 'roots' | 'rootAliases'> = { roots: [] };

  constructor(private readonly options: AcpAdapterOptions) {
    this.info = { id: options.id, displayName: options.displayName, adapter_type: 'process' };
  }

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; diagnostics?: CatalogDiagnostic[]; commands: CommandEntry[] }> {
    this.host = host;
    const fs = this.options.fs === 'none' ? undefined : (this.options.fs ?? defaultFs(host.workspacePath));
    this.roots = fs?.backend ?? { roots: [host.workspacePath] };
    // The pipe exists before the process so no early line can miss it; the translator's warnings share its budget (716).
    const lines = agentLines({ agent: this.info, send: (m) => this.proc?.send(m) ?? false, emit: (e) => host.emit(e), trace: this.options.trace });
    this.lines = lines;
    const translator = new AcpUpdateTranslator({
      emit: (e) => lines.emit(e),
      roots: this.roots.roots,
      session_id: host.session_id,
      toolStreaming: true,
      ranUnasked: (call) => reportUnaskedCall(host, this.info.displayName, call),
    });
    this.translator = translator;
    const pipe = lines.pipe;
    const proc = AgentProcess.spawn({
      command: this.options.command,
      args: this.options.args ?? [],
      session_id: host.session_id,
      workspacePath: host.workspacePath,
      env: this.options.env,
      killGraceMs: this.options.killGraceMs,
      // A line not read (too long, not JSON, not a message) is shown; it fails our request whose
      // answer it visibly was (decision 551), or the agent gets a JSON-RPC error back (556).
      onMessage: lines.onMessage,
      onBadLine: lines.onBadLine,
    });
    this.proc = proc;
    void proc.exited.then((exit) => {
      this.exit = exit;
      pipe.close();
      // Died between turns: say so now (§17.2.2), not only when the next prompt fails.
      if (!this.turn && !this.disposing && this.live) for (const e of mapExit({ exit, agent: this.info.id, singleTurn: false }).events) host.emit(e);
    });

    const bridge = fs ? new AcpFsBridge({ fs: fs.backend, fsEvents: fs.events, actor: host.session_id, cwd: host.workspacePath, mayWrite: engineWriteCheck(host) }) : undefined;
    let app = client({ name: 'rawp' })
      // session/update arrives under our method, unparsed by the SDK (stream.ts): the translator reads it.
      .onNotification(SESSION_UPDATE_VIA, (params: unknown) => params, ({ params }) =>
        lines.sessionUpdate(params, (id, update) => {
          if (id === this.sessionId || this.sessionId === undefined) translator.update(update);
        }),
      )
      .onRequest('session/request_permission', ({ params }) => this.permission(params));
    if (bridge) {
      app = app.onRequest('fs/read_text_file', ({ params }) => bridge.readTextFile(params)).onRequest('fs/write_text_file', ({ params }) => bridge.writeTextFile(params));
    }
    const conn = app.connect(pipe.stream);
    this.conn = conn;

    const init = await this.withStartTimeout(
      conn.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: !!bridge, writeTextFile: !!bridge }, terminal: false },
        clientInfo: { name: 'rawp', title: 'RAWP Agent Client', version: '0.1.0' },
      }),
      'initialize',
    );
    const canLoad = init.agentCapabilities?.loadSession === true;
    this.authMethods = init.authMethods;
    let modes: AcpModes | undefined;
    const diagnostics: CatalogDiagnostic[] = [];
    let restored = false;
    if (this.options.loadSessionId && canLoad) {
      this.sessionId = this.options.loadSessionId;
      // History is replayed as session/update notifications outside any turn: the translator
      // ignores replayed messages (they belong to turns already reported) but keeps commands/modes.
      try {
        const loaded = await this.withStartTimeout(conn.agent.request('session/load', { sessionId: this.options.loadSessionId, cwd: host.workspacePath, mcpServers: [] }), 'session/load', false);
        modes = (loaded as { modes?: AcpModes } | undefined)?.modes;
        restored = true;
      } catch (e) {
        if (this.exit) throw e;
        // The agent could not restore it: go on with a fresh session and say so.
        this.sessionId = undefined;
        diagnostics.push({ severity: 'warning', code: 'SESSION_NOT_RESTORED', message: `${this.info.displayName} could not load session ${this.options.loadSessionId}: ${rpcErrorText(e)}; a new session was started` });
      }
    } else if (this.options.loadSessionId) {
      diagnostics.push({ severity: 'warning', code: 'SESSION_NOT_RESTORED', message: `${this.info.displayName} cannot load sessions (no loadSession capability); a new session was started` });
    }
    if (!this.sessionId) {
      // No credentials: gemini and codex-acp refuse session/new with ACP's auth_required. The
      // process stays up; the first prompt asks again (the user may have logged in meanwhile) and
      // otherwise ends with the login card (decision 440).
      const created = await this.newSession();
      if (created) modes = created.modes;
    }
    this.startCommands = translator.commands;
    this.useModes(modes);
    const planMode = this.availableModes.some((m) => MODE_IDS.plan.includes(m));
    const agentInfo = (init as { agentInfo?: { name?: string; version?: string } }).agentInfo;
    return {
      capabilities: {
        features: { adapter_type: 'process', thinking_stream: true, tool_streaming: true, plan_mode: planMode, context_compaction: false, subagent: false, structured_output: false, file_reference: true },
        extensions: {
          agent_session_id: this.sessionId,
          acp: { agent: agentInfo?.name, version: agentInfo?.version, load_session: canLoad, modes: this.availableModes, restored },
        },
        // §6.1.1: what the agent's promptCapabilities allow, and nothing more (decision 313).
        attachments: acpAttachments(init.agentCapabilities?.promptCapabilities),
      },
      tools: translator.catalog.map((t) => ({ ...t })),
      ...(diagnostics.length ? { diagnostics } : {}),
      commands: this.startCommands,
    };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const { host, conn, translator, proc } = this;
    if (!host || !conn || !translator || !proc) throw new Error('AcpAdapter.prompt before start');
    if (this.exit) return this.exited(this.exit);
    if (!this.sessionId) {
      let created;
      try {
        created = await this.newSession();
      } catch (e) {
        if (this.exit) return this.exited(this.exit);
        throw e;
      }
      if (!created) {
        host.emit(authRequiredError(this.info.id, this.info.displayName, { trace: this.authTrace, details: { rpc_code: ACP_AUTH_REQUIRED_CODE } }));
        return { stop_reason: 'error' };
      }
      this.useModes(created.modes);
    }
    const sessionId = this.sessionId;
    if (!sessionId) throw new Error('AcpAdapter.prompt without a session');
    if (!this.live) {
      this.live = true;
      translator.goLive(this.startCommands);
    }
    await this.applyMode(prompt.mode);

    const turn: TurnState = { cancelled: false, onCancel: [] };
    this.turn = turn;
    translator.beginTurn();
    let guard: NodeJS.Timeout | undefined;
    const onAbort = () => {
      if (turn.cancelled) return;
      turn.cancelled = true;
      void conn.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
      for (const f of turn.onCancel.splice(0)) f();
      // An agent that ignores the cancel is stopped (and the turn ends as cancelled).
      guard = setTimeout(() => void proc.stop(), host.policy.cancelGraceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    try {
      const request = conn.agent.request('session/prompt', { sessionId, prompt: await promptBlocks(prompt, host) });
      const outcome = await Promise.race([request.then((r) => ({ kind: 'response' as const, r })), proc.exited.then((exit) => ({ kind: 'exit' as const, exit }))]).catch((e: unknown) => ({ kind: 'failed' as const, e }));
      if (outcome.kind === 'response') {
        const stop = turn.cancelled ? 'cancelled' : (STOP_REASONS[outcome.r.stopReason] ?? 'end_turn');
        translator.endTurn(stop === 'cancelled' ? 'cancelled' : 'ended');
        return { stop_reason: stop, usage: { ...(usageFromPromptResponse(outcome.r) ?? { input_tokens: 0, output_tokens: 0 }), ...translator.turnUsage() }, agent_session_id: sessionId };
      }
      const exit = outcome.kind === 'exit' ? outcome.exit : this.exit ?? (await Promise.race([proc.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]));
      if (exit) {
        if (turn.cancelled) {
          // We stopped an agent that ignored session/cancel: a cancelled turn, then a dead session.
          translator.endTurn('cancelled');
          return { stop_reason: 'cancelled', agent_session_id: sessionId };
        }
        // §17.2.2-1: exit 0 is a normal end — the turn ends end_turn, no fatal error. The process
        // is gone, so the next prompt finds it exited (a fatal error then ends the session).
        if (exit.spawnError === undefined && exit.code === 0) {
          translator.endTurn('ended');
          return { stop_reason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0, ...translator.turnUsage() }, agent_session_id: sessionId };
        }
        translator.endTurn('error');
        return this.exited(exit);
      }
      // The agent answered the prompt with a JSON-RPC error (an API failure, a refused request…).
      translator.endTurn(turn.cancelled ? 'cancelled' : 'error');
      if (turn.cancelled) return { stop_reason: 'cancelled', agent_session_id: sessionId };
      const e = (outcome as { e: unknown }).e;
      // claude-agent-acp without credentials refuses the prompt with ACP's auth_required.
      if (isAcpAuthRequired(e)) {
        host.emit(authRequiredError(this.info.id, this.info.displayName, { trace: `${rpcErrorText(e)}`, details: rpcErrorData(e) }));
        return { stop_reason: 'error', agent_session_id: sessionId };
      }
      host.emit({ type: 'agent.error', payload: { error_code: 'ACP_PROMPT_FAILED', message: `${rpcErrorText(e)}`, severity: 'error', recoverable: true, details: { module: this.info.id, ...rpcErrorData(e) } } });
      return { stop_reason: 'error', agent_session_id: sessionId };
    } finally {
      this.lines?.endTurn(); // the warnings this turn held back, counted (decision 716)
      if (guard) clearTimeout(guard);
      signal.removeEventListener('abort', onAbort);
      this.turn = undefined;
    }
  }

  async setMode(mode: AgentModeName): Promise<void> {
    await this.applyMode(mode);
  }

  async dispose(): Promise<void> {
    this.disposing = true;
    this.conn?.close();
    await this.proc?.stop();
  }

  /** The process ended: §17.2.2 frames (stderr in details), the turn ends in error. */
  private exited(exit: ExitInfo): TurnOutcome {
    const mapping = mapExit({ exit, agent: this.info.id, singleTurn: false, stopRequested: this.disposing });
    for (const e of mapping.events) this.host?.emit(e);
    if (mapping.events.length === 0) {
      this.host?.emit({ type: 'agent.error', payload: { error_code: 'AGENT_EXITED', message: `${this.info.displayName} exited during the turn`, severity: 'fatal', recoverable: false, details: { module: this.info.id } } });
    }
    return { stop_reason: 'error', ...(this.sessionId ? { agent_session_id: this.sessionId } : {}) };
  }

  private async applyMode(mode: AgentModeName): Promise<void> {
    const ids = mode === 'default' && this.initialModeId && !MODE_IDS.plan.includes(this.initialModeId) ? [...MODE_IDS.default, this.initialModeId] : MODE_IDS[mode];
    const wanted = ids.find((id) => this.availableModes.includes(id));
    if (!wanted || !this.conn || !this.sessionId || this.translator?.modeId === wanted) return;
    await this.conn.agent.request('session/set_mode', { sessionId: this.sessionId, modeId: wanted });
    this.translator?.update({ sessionUpdate: 'current_mode_update', currentModeId: wanted });
  }

  private async permission(params: RequestPermissionRequest): Promise<{ outcome: AcpPermissionOutcome }> {
    const options: AcpPermissionOption[] = params.options;
    const turn = this.turn;
    const host = this.host;
    if (!turn || !host || !this.translator) return { outcome: reject(options) };
    if (turn.cancelled) return { outcome: { outcome: 'cancelled' } };
    const call = this.translator.callForPermission(params.toolCall);
    // Mode, whitelist and catalog status first (§6.3.2): a call the engine forbids is refused
    // without asking anyone.
    const check = host.checkTool(call.tool_name, call.input);
    if (!check.allowed) {
      this.translator.refused(call.invocation_id, check.message);
      return { outcome: reject(options) };
    }
    const cancelled = new Promise<PermissionVerdict>((resolve) => turn.onCancel.push(() => resolve({ allowed: false, lifetime: 'once', via: 'cancelled', message: 'the turn was cancelled' })));
    const verdict = await Promise.race([host.askPermission(permissionQuestion(call, options, this.roots.roots, this.roots.rootAliases)), cancelled]);
    return { outcome: outcomeFor(verdict, options) };
  }

  /**
   * `session/new`; undefined when the agent answers ACP's auth_required (its words are kept for
   * the login card). Any other failure stops the agent and rejects.
   */
  private async newSession(): Promise<{ modes?: AcpModes } | undefined> {
    const conn = this.conn!;
    try {
      const created = await this.withStartTimeout(conn.agent.request('session/new', { cwd: this.host!.workspacePath, mcpServers: [] }), 'session/new', false);
      this.sessionId = created.sessionId;
      this.authTrace = undefined;
      return { modes: created.modes };
    } catch (e) {
      if (isAcpAuthRequired(e) && !this.exit) {
        this.authTrace = `${rpcErrorText(e)}`;
        // A key we were given for this agent answers an env_var method it offers: use it once.
        const method = this.authTried ? undefined : envVarAuthMethod(this.authMethods, this.agentEnv());
        if (!method) return undefined;
        this.authTried = true;
        await this.withStartTimeout(conn.agent.request('authenticate', { methodId: method.id }), 'authenticate', false).catch(() => undefined);
        if (this.exit) throw e;
        return this.newSession();
      }
      await this.proc?.stop();
      throw e;
    }
  }

  /** The environment the agent process got (ours, then its own variables). */
  private agentEnv(): Record<string, string | undefined> {
    return { ...process.env, ...this.options.env };
  }

  private useModes(modes: AcpModes | undefined): void {
    this.availableModes = (modes?.availableModes ?? []).map((m) => m.id);
    if (this.translator) this.translator.modeId = modes?.currentModeId;
    this.initialModeId = modes?.currentModeId;
  }

  /** Waits for a start-up request (startRequest.ts); a failure stops the agent unless `stopOnError` is false. */
  private async withStartTimeout<T>(p: Promise<T>, what: string, stopOnError = true): Promise<T> {
    const proc = this.proc!;
    try {
      return await untilAnswered(p, proc, what, this.info.displayName, this.options.startTimeoutMs ?? 60000);
    } catch (e) {
      if (stopOnError || this.exit) await proc.stop();
      throw e;
    }
  }
}

/** The workspace on disk with a read-before-write ledger of its own. */
function defaultFs(workspacePath: string): { backend: FsBackend; events: FsEvents } {
  const events = new FsEvents();
  attachObservationPolicy(events);
  return { backend: new NodeFsBackend([workspacePath]), events };
}

function reject(options: readonly AcpPermissionOption[]): AcpPermissionOutcome {
  const r = rejectOption(options);
  return r ? { outcome: 'selected', optionId: r.optionId } : { outcome: 'cancelled' };
}
