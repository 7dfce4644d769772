// Claude Code as one long-lived process: `claude -p --input-format stream-json --output-format
// stream-json --verbose --include-partial-messages --permission-prompt-tool stdio`. Prompts are
// user messages on stdin, permissions are `can_use_tool` control requests, cancel is an
// `interrupt`. The translation is in translate.ts; this file only runs the process.
import type { AgentAdapter, AgentCapabilities, AgentHost, AgentPrompt, CatalogTool, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import type { AgentModeName } from '../../protocol/common';
import type { PayloadOf } from '../../protocol/frameTypes';
import { newId } from '../../protocol/build';
import { AgentProcess, mapExit, type ExitInfo } from '../process';
import { BAD_LINE_HEAD_CHARS } from '../process/jsonLines';
import { claudeEnv, longLivedArgs, permissionModeFor, resolveClaudeCommand, sameTurnFlags, turnFlagsOf, type TurnFlags } from './args';
import { CLAUDE_CODE_INFO, claudeCapabilities } from './capabilities';
import { claudeBlocks, type ClaudeContentBlock } from './attachments';
import { contextFilesOf } from '../attachments';
import { commandsFromInitialize } from './commands';
import { decidePermission, engineVerdict } from './permission';
import { DEFAULT_CANCEL_GRACE_MS } from '../../session/permissions';
import { CLAUDE_MENTIONS, promptText } from '../promptText';
import { defaultCatalog } from './tools';
import { ClaudeTranslator, type ClaudeItem, type PermissionAsk } from './translate';
import { malformedLineWarning } from './items';
import { PRE_TOOL_HOOK_ID } from './streamJson';
import { TurnOutput } from './turnOutput';
import { cutWarningText } from '../process/warningBudget';
import { CONVERSATION_GONE, lostConversationWarning } from '../lostConversation';

export interface ClaudeCodeOptions {
  /** Path of `claude` (default: RAWP_CLAUDE_PATH, the npm package, then PATH). */
  command?: string;
  extraArgs?: string[];
  /** Extra environment (API base URL, keys, …); undefined deletes a variable. */
  env?: Record<string, string | undefined>;
  model?: string;
  /** Start by resuming this Claude session (its id from an earlier run). */
  resumeSessionId?: string;
  /** §17.2.3 SIGTERM -> SIGKILL grace (5 s). */
  killGraceMs?: number;
  /** How long the CLI may take to answer a control request (initialize, mode switch). */
  controlTimeoutMs?: number;
}

interface PendingTurn {
  kind: 'prompt' | 'compact';
  resolve(outcome: TurnOutcome): void;
  compacted?: PayloadOf<'session.compacted'>;
  message?: string;
}

export class ClaudeCodeAdapter implements AgentAdapter {
  readonly info = CLAUDE_CODE_INFO;
  private host: AgentHost | undefined;
  private proc: AgentProcess | undefined;
  private translator: ClaudeTranslator;
  private turn: PendingTurn | undefined;
  private mode: AgentModeName = 'default';
  private readonly controls = new Map<string, { resolve(r: { ok: boolean; response: Record<string, unknown>; error?: string }): void }>();
  private catalogJson = '';
  private stopping = false;
  /** During the initialize handshake an exit is start()'s failure, not a frame. */
  private starting = false;
  private agentSessionId: string | undefined;
  /** The conversation a restored session asked to resume was gone: said in the next turn. */
  private lostConversation: string | undefined;
  /** The running process's --json-schema / --max-turns (§6.1.1): a prompt with others restarts it. */
  private flags: TurnFlags = {};
  /** Output outside our turns dropped, and warnings bounded per turn (decision 715). */
  private readonly output = new TurnOutput();

  constructor(private readonly options: ClaudeCodeOptions = {}) {
    this.translator = new ClaudeTranslator();
    this.agentSessionId = options.resumeSessionId;
  }

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; commands: CommandEntry[] }> {
    this.host = host;
    this.mode = host.mode;
    this.translator = new ClaudeTranslator({ workspacePath: host.workspacePath });
    let commands: CommandEntry[] | undefined;
    try {
      commands = await this.spawn();
    } catch (e) {
      // `--resume` of a conversation Claude Code no longer has exits before the handshake: start a new one.
      const gone = this.agentSessionId;
      if (!gone || !CONVERSATION_GONE.test(String(e))) throw e;
      this.agentSessionId = undefined;
      this.lostConversation = gone;
      commands = await this.spawn();
    }
    // `system/init` (the real tool list) only comes with the first prompt; until then the catalog
    // is every tool Claude Code has, and the init republishes the exact list (§5.4.1).
    const tools = defaultCatalog();
    this.catalogJson = JSON.stringify(tools);
    return { capabilities: claudeCapabilities(this.agentSessionId), tools, commands: commands ?? [] };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    if (this.lostConversation !== undefined && this.host) {
      this.host.emit(lostConversationWarning(this.info.displayName, this.lostConversation));
      this.lostConversation = undefined;
    }
    // §16.3: Claude Code reads files itself; a picked file becomes its own `@path` mention.
    const text = this.host ? await promptText(prompt, this.host, CLAUDE_MENTIONS) : prompt.text;
    const flags = turnFlagsOf(prompt);
    // §6.1.1: attachments become content blocks of the same user message (decision 311).
    const content = claudeBlocks(text, await contextFilesOf(prompt, this.host));
    if (!this.proc?.running) {
      // The process ended between turns (exit 0): respawn, resuming the conversation (§18.3).
      this.flags = flags;
      await this.spawn();
    } else if (!sameTurnFlags(flags, this.flags)) {
      // Claude Code takes --json-schema and --max-turns only as flags: a prompt asking for other
      // ones gets a process started with them, resuming the same conversation (§18.3).
      this.flags = flags;
      await this.restart();
    }
    return new Promise<TurnOutcome>((resolve) => {
      let interruptTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        this.translator.markInterrupted();
        this.control({ subtype: 'interrupt' });
        // The CLI answers an interrupt with a `result`; if it does not, stop it (respawned next turn).
        interruptTimer = setTimeout(() => void this.proc?.stop(this.options.killGraceMs), this.host?.policy.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS);
      };
      this.beginTurn({
        kind: 'prompt',
        resolve: (o) => {
          clearTimeout(interruptTimer);
          signal.removeEventListener('abort', onAbort);
          this.endTurn(o.stop_reason === 'cancelled');
          resolve(o);
        },
      });
      if (signal.aborted) return this.turn!.resolve({ stop_reason: 'cancelled' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.sendUser(content);
    });
  }

  async setMode(mode: AgentModeName): Promise<void> {
    const before = permissionModeFor(this.mode);
    this.mode = mode;
    if (permissionModeFor(mode) === before || !this.proc?.running) return;
    const r = await this.control({ subtype: 'set_permission_mode', mode: permissionModeFor(mode) });
    if (r.ok) return;
    // An older CLI without the control request: restart in the new mode, resuming the session.
    await this.restart();
  }

  async compact(instruction: string | undefined): Promise<PayloadOf<'session.compacted'>> {
    if (!this.proc?.running) await this.spawn();
    this.translator.compaction.requested = true;
    const pending: PendingTurn = { kind: 'compact', resolve: () => {} };
    await new Promise<TurnOutcome>((resolve) => {
      pending.resolve = (o) => {
        this.endTurn(false);
        resolve(o);
      };
      this.beginTurn(pending);
      this.sendUser([{ type: 'text', text: `/compact${instruction ? ` ${instruction}` : ''}` }]);
    });
    if (!pending.compacted) throw new Error(pending.message || 'Claude Code did not compact the conversation');
    return pending.compacted;
  }

  async dispose(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc) return;
    proc.endInput();
    await proc.stop(this.options.killGraceMs);
  }

  // ---- the process ----------------------------------------------------------------------------

  /** Spawn `claude` and run the initialize handshake; resolves with the slash commands. */
  private async spawn(): Promise<CommandEntry[] | undefined> {
    const host = this.host!;
    this.stopping = false;
    const proc = AgentProcess.spawn({
      command: resolveClaudeCommand(this.options.command),
      args: longLivedArgs({ mode: this.mode, resumeSessionId: this.agentSessionId, model: this.options.model, extraArgs: this.options.extraArgs, overrides: this.flags }),
      session_id: host.session_id,
      workspacePath: host.workspacePath,
      env: claudeEnv(this.options.env),
      killGraceMs: this.options.killGraceMs,
      onMessage: (v) => this.onLine(v),
      onBadLine: (line, reason) => this.onBadLine(line, reason),
    });
    this.proc = proc;
    void proc.exited.then((exit) => this.onExit(proc, exit));
    this.starting = true;
    // Our PreToolUse hook sees every tool call before it runs (streamJson.ts HookCallback).
    const init = await this.control({ subtype: 'initialize', hooks: { PreToolUse: [{ hookCallbackIds: [PRE_TOOL_HOOK_ID] }] } });
    this.starting = false;
    if (!init.ok) {
      // Not started is the caller's error to report (start() rejects); stderr says why.
      this.stopping = true;
      const exit = await proc.stop(this.options.killGraceMs);
      const why = exit.spawnError ? `cannot run ${proc.command}: ${exit.spawnError}` : (init.error ?? 'no answer to initialize');
      const stderr = exit.stderr.trim();
      throw new Error(`Claude Code did not start: ${why}${stderr ? `\n${stderr}` : ''}`);
    }
    return commandsFromInitialize(init.response);
  }

  private async restart(): Promise<void> {
    const old = this.proc;
    this.stopping = true;
    if (old) {
      old.endInput();
      await old.stop(this.options.killGraceMs);
    }
    await this.spawn();
  }

  /** Send a control request; resolves with its control response (never rejects). */
  private control(request: Record<string, unknown>): Promise<{ ok: boolean; response: Record<string, unknown>; error?: string }> {
    const request_id = newId();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.controls.delete(request_id);
        resolve({ ok: false, response: {}, error: `no answer to ${String(request.subtype)} within ${this.options.controlTimeoutMs ?? 30_000} ms` });
      }, this.options.controlTimeoutMs ?? 30_000);
      this.controls.set(request_id, {
        resolve: (r) => {
          clearTimeout(timer);
          this.controls.delete(request_id);
          resolve(r);
        },
      });
      if (!this.proc?.send({ type: 'control_request', request_id, request })) {
        this.controls.get(request_id)?.resolve({ ok: false, response: {}, error: 'the Claude Code process is not running' });
      }
    });
  }

  /**
   * A turn of ours begins. What the CLI left open after the last one (output we dropped, decision
   * 715) is forgotten, so this turn's blocks and calls start clean; warnings counted between turns
   * are summed up first.
   */
  private beginTurn(turn: PendingTurn): void {
    this.translator.abortTurn(true);
    for (const e of this.output.summary()) this.host?.emit(e);
    this.output.begin();
    this.turn = turn;
  }

  /** The turn ends: the warnings it did not show are summed up before its end. */
  private endTurn(cancelled: boolean): void {
    for (const e of this.output.summary()) this.host?.emit(e);
    this.output.end(cancelled);
    this.turn = undefined;
  }

  private sendUser(content: ClaudeContentBlock[]): void {
    this.proc?.send({ type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: this.agentSessionId ?? '' });
  }

  private onLine(value: unknown): void {
    for (const item of this.translator.translate(value)) this.onItem(item);
  }

  private onItem(item: ClaudeItem): void {
    const host = this.host;
    if (!host) return;
    switch (item.kind) {
      case 'event':
        if (item.event.type === 'session.compacted' && this.turn?.kind === 'compact') {
          // The engine announces what compact() returns; emitting it here would say it twice.
          this.turn.compacted = item.event.payload;
          return;
        }
        // After the turn's `result` the engine may not have closed it yet: output then would land in
        // an ended turn. Only what a running turn of ours gets is the turn's (decision 715).
        for (const e of this.output.pass(item.event, this.turn !== undefined)) host.emit(e);
        return;
      case 'init': {
        this.agentSessionId = item.init.agent_session_id || this.agentSessionId;
        if (item.init.agent_session_id) host.reportAgentSession?.(item.init.agent_session_id);
        const json = JSON.stringify(item.init.tools);
        if (json !== this.catalogJson) {
          this.catalogJson = json;
          host.emit({ type: 'tool.catalog.publish', payload: { tools: item.init.tools } });
        }
        return;
      }
      case 'control_response':
        this.controls.get(item.request_id)?.resolve({ ok: item.ok, response: item.response, ...(item.error ? { error: item.error } : {}) });
        return;
      case 'commands':
        return;
      case 'permission':
        void this.answerPermission(item.ask);
        return;
      case 'pre_tool':
        this.answerPreTool(item);
        return;
      case 'control_request':
        // MCP messages, hooks not ours…: we registered none, so say so rather than leave the CLI waiting.
        this.proc?.send({ type: 'control_response', response: { subtype: 'error', request_id: item.request_id, error: `unsupported control request ${item.subtype}` } });
        return;
      case 'control_cancel':
        return;
      case 'malformed':
        // A line of a known type whose fields do not fit (a CLI version we have not seen): shown
        // once as a warning (so many a turn, then counted), the session goes on.
        if (this.output.admit('MALFORMED_NATIVE_LINE')) host.emit(malformedLineWarning(item));
        return;
      case 'result': {
        const turn = this.turn;
        if (!turn) return;
        if (item.outcome.agent_session_id) this.agentSessionId = item.outcome.agent_session_id;
        turn.message = item.message;
        turn.resolve(item.outcome);
        return;
      }
    }
  }

  /**
   * §6.3.2 §15: the engine's tool policy (mode, the prompt's tool lists, a subagent's scope) at the
   * source. Claude Code runs Read, Grep and whatever its own rules or acceptEdits allow without a
   * `can_use_tool`; the engine could only relabel such a call refused after it ran (decision 623).
   */
  private answerPreTool(item: Extract<ClaudeItem, { kind: 'pre_tool' }>): void {
    const check = engineVerdict(this.host!, item.tool_name, item.input, item.metadata);
    const response = check.allowed ? {} : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: check.message } };
    this.proc?.send({ type: 'control_response', response: { subtype: 'success', request_id: item.request_id, response } });
  }

  private async answerPermission(ask: PermissionAsk): Promise<void> {
    const host = this.host!;
    let decision;
    try {
      decision = await decidePermission(host, ask);
    } catch (e) {
      decision = { behavior: 'deny' as const, message: `Permission check failed: ${(e as Error).message}` };
    }
    this.proc?.send({ type: 'control_response', response: { subtype: 'success', request_id: ask.request_id, response: decision } });
  }

  private onBadLine(line: string, reason: string): void {
    // A stray line is not fatal; say so as a warning the user can see, once per line up to the
    // turn's bound, then only counted (a flood of them buried the answer, decision 715).
    if (!this.output.admit('UNPARSEABLE_OUTPUT')) return;
    this.host?.emit({ type: 'agent.error', payload: { error_code: 'UNPARSEABLE_OUTPUT', message: `Claude Code wrote a line that is not stream-json (${cutWarningText(reason)}): ${line.slice(0, BAD_LINE_HEAD_CHARS)}`, severity: 'warning', recoverable: true, details: { module: 'claude-code' } } });
  }

  /** §17.2.2: the process ended. Mid-turn that ends the turn; unexpected ends are reported. */
  private onExit(proc: AgentProcess, exit: ExitInfo): void {
    if (proc !== this.proc) return;
    for (const c of [...this.controls.values()]) c.resolve({ ok: false, response: {}, error: `Claude Code exited (${exit.spawnError ?? exit.code ?? exit.signal})` });
    if (this.stopping || this.starting) return;
    const turn = this.turn;
    const mapping = mapExit({ exit, agent: 'claude-code', singleTurn: false });
    const clean = exit.spawnError === undefined && exit.code === 0;
    // Whatever was streaming is incomplete: close it (as cancelled, cut off, unless the exit was clean).
    if (turn) for (const e of this.translator.abortTurn(!clean)) this.host?.emit(e);
    // A clean exit between turns leaves no process: the next prompt respawns with --resume.
    if (clean && !turn) return;
    // §17.2.2-1: exit 0 mid-turn is a normal end: turn.end (end_turn), no fatal error; the next
    // prompt respawns with --resume as it does after a clean exit between turns.
    if (clean) {
      turn?.resolve({ stop_reason: 'end_turn', ...(this.agentSessionId ? { agent_session_id: this.agentSessionId } : {}) });
      return;
    }
    const events = mapping.events.length
      ? mapping.events
      : [{ type: 'agent.error' as const, payload: { error_code: 'PROCESS_EXIT', message: 'Claude Code exited in the middle of a turn', severity: 'fatal' as const, recoverable: false, details: { module: 'claude-code', exit_code: 0 } } }];
    for (const e of events) this.host?.emit(e);
    turn?.resolve({ stop_reason: 'error', ...(this.agentSessionId ? { agent_session_id: this.agentSessionId } : {}) });
  }
}
