// The session's turns, one at a time (§17.3.2), for the engine (engine.ts): a prompt opens a turn
// (§7.5.1 turn.start, the mode once after a switch, §6.3.2-5), the adapter runs it (turnRun.ts),
// and it closes with turn.end followed at once by session.usage (§7.5.2). A master's cancel
// (§6.1.2) and the engine's own max_turns cap (§6.1.1, decision 321) stop it early (activeTurn.ts).
import type { AgentAdapter, AgentPrompt, TurnOutcome } from './agentAdapter';
import { haltTurn, stopReasonOf, type ActiveTurn, type StopReason } from './activeTurn';
import type { AgentCatalog } from './agentCatalog';
import type { BetweenTurns } from './betweenTurns';
import type { AgentSessionOptions } from './engineOptions';
import { errorMessage } from './errorMessage';
import type { InteractionBook } from './interactions';
import type { PermissionBroker } from './permissions/broker';
import type { Clock, Logger, Timers } from './ports';
import { maxTurnsError } from './stepLimit';
import { agentPromptFor, prepareTurnPrompt } from './turnPrompt';
import { callAdapter, runTurnHook } from './turnRun';
import { TurnStream } from './turnStream';
import type { UsageLedger } from './usage';
import { newId } from '../protocol/build';
import type { Metadata } from '../protocol/envelope';
import type { FrameType, PayloadOf } from '../protocol/frameTypes';

/** What the turns need of their session (engine.ts wires it). */
export interface TurnSession {
  session_id: string;
  options: AgentSessionOptions;
  adapter: AgentAdapter;
  declared: AgentCatalog;
  betweenTurns: BetweenTurns;
  usage: UsageLedger;
  interactions: InteractionBook;
  permissions: PermissionBroker;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  ready(): boolean;
  ending(): boolean;
  state(): string;
  setState(next: string, reason?: string): void;
  /** The announced `subagent_context` feature (§10.5): the turn's stream fills it in. */
  subagentContext(): boolean;
  emit<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx?: { parent_id?: string; metadata?: Metadata }): void;
  /** A non-fatal session.error answering `parent_id`. */
  error(error_code: string, message: string, parent_id?: string): void;
  /** §18.3: the agent's own session id, to the host once (agentSessionReport.ts). */
  agentSession(agent_session_id: string | undefined): void;
}

export class TurnLifecycle {
  private turn?: ActiveTurn;
  private lastTurnId?: string;
  private turnIndex: number;

  constructor(private readonly s: TurnSession) {
    this.turnIndex = Math.max(0, Math.floor(s.options.firstTurnIndex ?? 0));
  }

  /** The running turn, if any. */
  get current(): ActiveTurn | undefined {
    return this.turn;
  }

  /** Start a turn for a prompt; refused with PROMPT_IN_PROGRESS while one runs (§17.3.2). */
  start(payload: PayloadOf<'control.prompt.request'>, parent_id?: string): void {
    const s = this.s;
    if (s.ending()) return s.error('SESSION_ENDED', 'the session is ending', parent_id);
    if (!s.ready()) return s.error('SESSION_NOT_READY', 'the session is still starting (§13.1)', parent_id);
    if (this.turn) return s.error('PROMPT_IN_PROGRESS', `turn ${this.turn.id} is still running; the prompt was refused (§17.3.2)`, parent_id);
    const busy = s.betweenTurns.busy;
    if (busy) return s.error('PROMPT_IN_PROGRESS', `a ${busy.replace('_', ' ')} is in progress; the prompt was refused`, parent_id);

    const prepared = prepareTurnPrompt(payload, s.declared.capabilities, s.options);
    if (!prepared.ok) return s.error(prepared.error_code, prepared.message, parent_id);
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
        emit: (type, p, metadata) => s.emit(type, p, { metadata }),
        policy: () => s.declared.policy(s.betweenTurns.mode, this.turn),
        subagentContext: s.subagentContext(),
        clock: s.clock,
        logger: s.logger,
        toolsRunning: (count) => this.toolsRunning(count),
      }),
    };
    this.turn = turn;
    s.usage.countMessage();
    const start: PayloadOf<'session.turn.start'> = { turn_id: id, turn_index: turn.index };
    // §6.3.2-5: the first turn after any switch carries the mode, even when plan → default
    // brought it back to where the previous turn stood.
    const announced = s.betweenTurns.takeModeAnnouncement();
    if (announced !== undefined) start.mode = announced;
    s.emit('session.turn.start', start, parent_id ? { parent_id } : {});
    s.setState('thinking', 'prompt');

    void this.run(turn, agentPromptFor(payload, prepared, turn, s.betweenTurns.mode));
  }

  private async run(turn: ActiveTurn, prompt: AgentPrompt): Promise<void> {
    const s = this.s;
    const hooks = s.options.turnHooks;
    const info = { session_id: s.session_id, turn_id: turn.id, turn_index: turn.index };
    const { outcome, failure } = await callAdapter(turn, prompt, info, s.adapter, hooks, s.timers, s.logger);
    if (this.turn !== turn || s.ending()) return; // session end closes the turn itself (§7.5.3)
    if (failure !== undefined && !turn.stream.cancelling) {
      s.emit('agent.error', { error_code: 'ADAPTER_ERROR', message: errorMessage(failure), severity: 'error', recoverable: true });
    }
    const stop_reason = stopReasonOf(turn, failure, outcome);
    if (hooks?.after) {
      await runTurnHook('after', () => hooks.after?.({ ...info, stop_reason }), s.logger);
      if (this.turn !== turn || s.ending()) return;
    }
    this.finish(turn, stop_reason, outcome);
    s.betweenTurns.maybeAutoCompact();
  }

  /** Close what is open, then turn.end followed immediately by session.usage (§7.5.2). */
  finish(turn: ActiveTurn, stop_reason: StopReason, outcome: TurnOutcome | undefined): void {
    const s = this.s;
    turn.stream.closeAll(stop_reason === 'cancelled' || stop_reason === 'error', stop_reason === 'cancelled' || turn.cancelRequested === true);
    s.interactions.cancelAll();
    const end: PayloadOf<'session.turn.end'> = { turn_id: turn.id, stop_reason, tool_invocation_count: turn.stream.toolCount };
    // §11.1: with a schema the engine's own verdict (decision 320); without one, what the agent said.
    const verdict = turn.overrides.turnEnd(outcome);
    if (verdict?.warning) s.emit('agent.error', verdict.warning);
    if (verdict) end.structured_output = verdict.structured_output;
    else if (outcome?.structured_output) end.structured_output = outcome.structured_output;
    // Before the turn's end goes out: whoever sees the end (a headless run) may ask for it.
    s.agentSession(outcome?.agent_session_id);
    s.emit('session.turn.end', end);
    s.emit('session.usage', s.usage.forTurn(turn.id, outcome?.usage));
    this.turn = undefined;
    this.lastTurnId = turn.id;
    if (!s.ending()) s.setState('idle', stop_reason);
  }

  /** §6.1.2: stop the turn: abort the adapter, discard open questions, end it as cancelled. */
  cancel(target_turn_id: string, reason?: string, parent_id?: string): void {
    const turn = this.turn;
    if (!turn || turn.id !== target_turn_id) {
      if (target_turn_id === this.lastTurnId) {
        this.s.logger.info('cancel for a turn that already ended ignored', { target_turn_id });
        return;
      }
      return this.s.error('TURN_NOT_FOUND', `no running turn ${target_turn_id}`, parent_id);
    }
    if (turn.stream.cancelling) return;
    turn.cancelRequested = true;
    haltTurn(turn, reason ?? 'user_cancelled', this.s.timers, this.cancelGraceMs());
    this.s.interactions.cancelAll();
  }

  /**
   * §6.1.1 max_turns, the engine's own cap (decision 321): the agent began a step beyond it. Stop
   * it like a cancel (late frames dropped, the adapter aborted), but the turn ends as `error` with
   * one `agent.error` MAX_TURNS saying why.
   */
  stopAtLimit(turn: ActiveTurn): void {
    if (turn.limitHit || turn.stream.cancelling) return;
    turn.limitHit = true;
    this.s.emit('agent.error', maxTurnsError(turn.overrides.maxTurns ?? 0));
    haltTurn(turn, 'max_turns', this.s.timers, this.cancelGraceMs());
    this.s.interactions.cancelAll();
  }

  /** After a stop, how long the adapter gets before the turn ends anyway (the policy's grace + 1 s). */
  private cancelGraceMs(): number {
    return this.s.options.cancelGraceMs ?? this.s.permissions.policy.cancelGraceMs + 1000;
  }

  /** §4.6.1: `tool_calling` while a tool call runs, `thinking` again when the last one is answered. */
  private toolsRunning(count: number): void {
    const s = this.s;
    if (!this.turn || s.ending() || this.turn.stream.cancelling) return;
    if (count > 0 && s.state() === 'thinking') s.setState('tool_calling', 'tool_call');
    else if (count === 0 && s.state() === 'tool_calling') s.setState('thinking', 'tool_result');
  }
}
