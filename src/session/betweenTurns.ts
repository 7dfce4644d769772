// The work a session does between turns, each alone: a mode switch (§6.3.2) and a context
// compaction (§6.3.1, on request or by utilization). Neither runs during a turn or during the
// other; the mode they leave is the one the next `session.turn.start` announces (§6.3.2-5).
import type { AgentAdapter, AgentCapabilities } from './agentAdapter';
import type { AgentModeName } from '../protocol/common';
import type { FrameType, PayloadOf } from '../protocol/frameTypes';
import { errorMessage } from './errorMessage';
import { AUTO_COMPACT_CONSIDER, AUTO_COMPACT_MUST, type UsageLedger } from './usage';

export interface BetweenTurnsSession {
  adapter: AgentAdapter;
  features(): AgentCapabilities['features'];
  runningTurnId(): string | undefined;
  ending(): boolean;
  /** The agent's current state (agent.state.changed keeps it on a mode switch). */
  state(): string;
  usage: UsageLedger;
  /** §6.3.1 between 0.80 and 0.95 utilization: compact now? (At 0.95 we always do.) */
  autoCompactConsider?: (utilization: number) => boolean;
  emit<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx?: { parent_id?: string }): void;
  /** A non-fatal session.error answering `parent_id`. */
  error(error_code: string, message: string, parent_id?: string): void;
}

export class BetweenTurns {
  /** What runs now; a prompt is refused meanwhile. */
  busy?: 'compaction' | 'mode_switch';
  private current: AgentModeName = 'default';
  /** A switch happened since the last `session.turn.start` (§6.3.2-5: the next one carries `mode`). */
  private toAnnounce = false;

  constructor(private readonly s: BetweenTurnsSession) {}

  get mode(): AgentModeName {
    return this.current;
  }

  /** The mode the next turn.start carries, once after each switch (even plan → default back to the same). */
  takeModeAnnouncement(): AgentModeName | undefined {
    if (!this.toAnnounce) return undefined;
    this.toAnnounce = false;
    return this.current;
  }

  /** §6.3.2 */
  async switchMode(mode: AgentModeName, parent_id?: string): Promise<void> {
    if (this.s.features().plan_mode !== true) {
      return this.s.error('MODE_NOT_SUPPORTED', `this agent does not support modes (plan_mode not announced); cannot switch to ${mode}`, parent_id);
    }
    const turnId = this.s.runningTurnId();
    if (turnId !== undefined) return this.s.error('MODE_SWITCH_DURING_TURN', `cannot switch mode while turn ${turnId} runs`, parent_id);
    if (this.busy) return this.s.error('SESSION_BUSY', `a ${this.busy.replace('_', ' ')} is in progress`, parent_id);
    if (this.s.ending()) return;
    this.busy = 'mode_switch';
    try {
      await this.s.adapter.setMode?.(mode);
    } catch (e) {
      return this.s.error('MODE_SWITCH_FAILED', `the agent refused mode ${mode}: ${errorMessage(e)}`, parent_id);
    } finally {
      this.busy = undefined;
    }
    if (this.s.ending()) return;
    this.announceMode(mode, parent_id);
  }

  /**
   * The agent switched mode by itself (not on a control.mode.switch): no adapter call, but the
   * same announcement as a requested switch so every peer and the next turn.start agree (§6.3.2).
   */
  adoptAgentMode(mode: AgentModeName): void {
    if (this.s.ending() || mode === this.current) return;
    this.announceMode(mode);
  }

  private announceMode(mode: AgentModeName, parent_id?: string): void {
    this.current = mode;
    this.toAnnounce = true;
    const state = this.s.state();
    this.s.emit('agent.state.changed', { previous_state: state, current_state: state, reason: 'mode_switch', mode }, parent_id ? { parent_id } : {});
  }

  /** §6.3.1: compact on request (`requested`/`manual`) or by utilization (`auto`). */
  async compact(trigger: PayloadOf<'session.compacted'>['trigger'], instruction?: string, target_token_ratio?: number, parent_id?: string): Promise<void> {
    const adapter = this.s.adapter;
    if (this.s.features().context_compaction !== true || !adapter.compact) {
      return this.s.error('COMPACTION_NOT_SUPPORTED', 'this agent does not support context compaction (context_compaction not announced)', parent_id);
    }
    const turnId = this.s.runningTurnId();
    if (turnId !== undefined) return this.s.error('COMPACTION_DURING_TURN', `cannot compact while turn ${turnId} runs`, parent_id);
    if (this.busy) return this.s.error('SESSION_BUSY', `a ${this.busy.replace('_', ' ')} is in progress`, parent_id);
    if (this.s.ending()) return;
    this.busy = 'compaction';
    let result: PayloadOf<'session.compacted'>;
    try {
      result = await adapter.compact.call(adapter, instruction, target_token_ratio);
    } catch (e) {
      return this.s.error('COMPACTION_FAILED', `compaction failed: ${errorMessage(e)}`, parent_id);
    } finally {
      this.busy = undefined;
    }
    if (this.s.ending()) return;
    const ctx = parent_id ? { parent_id } : {};
    this.s.emit('session.compacted', { ...result, trigger }, ctx);
    this.s.usage.compacted(result.current_token_count);
    this.s.emit('session.usage', this.s.usage.forTurn(undefined, undefined), ctx); // §13.6
  }

  /** After a turn: at 0.95 utilization always, from 0.80 when the host says so (§6.3.1). */
  maybeAutoCompact(): void {
    const u = this.s.usage.utilization();
    if (u === undefined || this.s.features().context_compaction !== true || !this.s.adapter.compact) return;
    const consider = this.s.autoCompactConsider ?? (() => false);
    if (u >= AUTO_COMPACT_MUST || (u >= AUTO_COMPACT_CONSIDER && consider(u))) void this.compact('auto');
  }
}
