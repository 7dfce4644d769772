// One running turn as the engine tracks it (turnLifecycle.ts), and the two ways it is stopped early:
// a master's cancel (§6.1.2) and the engine's own max_turns cap (§6.1.1, decision 321).
import type { TurnOutcome } from './agentAdapter';
import type { PayloadOf } from '../protocol/frameTypes';
import type { TimerHandle, Timers } from './ports';
import type { TurnStream } from './turnStream';
import type { TurnOverrides } from './turnOverrides';

export type StopReason = PayloadOf<'session.turn.end'>['stop_reason'];

export interface ActiveTurn {
  id: string;
  index: number;
  stream: TurnStream;
  controller: AbortController;
  allowed_tools?: string[];
  denied_tools?: string[];
  /** Resolves when the adapter's prompt() settles, or when the cancel grace runs out. */
  release?: () => void;
  graceTimer?: TimerHandle;
  /** A master cancelled it (§6.1.2): the end says so even when the session ends meanwhile. */
  cancelRequested?: boolean;
  /** json_schema, max_turns, output_format of the prompt (turnOverrides.ts). */
  overrides: TurnOverrides;
  /** The engine stopped it at max_turns (decision 321): it ends as `error`, not `cancelled`. */
  limitHit?: boolean;
}

/**
 * Stop the turn: late frames are dropped from now on, the adapter is aborted, and after `graceMs`
 * the turn ends even when the adapter has not stopped yet.
 */
export function haltTurn(turn: ActiveTurn, reason: string, timers: Timers, graceMs: number): void {
  turn.stream.cancelling = true;
  turn.controller.abort(reason);
  turn.graceTimer = timers.setTimeout(() => turn.release?.(), graceMs);
}

/** How a turn whose adapter call settled ends (§7.5.2): the cap and a cancel win over what the agent said. */
export function stopReasonOf(turn: ActiveTurn, failure: unknown, outcome: TurnOutcome | undefined): StopReason {
  if (turn.limitHit) return 'error';
  if (turn.stream.cancelling) return 'cancelled';
  if (failure !== undefined) return 'error';
  return outcome?.stop_reason ?? 'end_turn';
}
