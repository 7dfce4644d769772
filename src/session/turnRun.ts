// Driving one turn's adapter call (turnLifecycle.ts `run`): the host's `before` hook first
// (turnHooks.ts), then the adapter's prompt() unless the turn was cancelled meanwhile — settled
// when the adapter settles or when a stop's grace runs out (activeTurn.ts `haltTurn`).
import type { AgentAdapter, AgentPrompt, TurnOutcome } from './agentAdapter';
import type { ActiveTurn } from './activeTurn';
import type { Logger, Timers } from './ports';
import { errorMessage } from './errorMessage';
import type { TurnHooks, TurnInfo } from './turnHooks';

export interface AdapterCall {
  outcome: TurnOutcome | undefined;
  /** What the adapter threw (undefined when it did not). */
  failure: unknown;
}

export async function callAdapter(turn: ActiveTurn, prompt: AgentPrompt, info: TurnInfo, adapter: AgentAdapter, hooks: TurnHooks | undefined, timers: Timers, logger: Logger): Promise<AdapterCall> {
  const call: AdapterCall = { outcome: undefined, failure: undefined };
  const released = new Promise<void>((resolve) => (turn.release = resolve));
  Promise.resolve()
    .then(() => runTurnHook('before', () => hooks?.before?.(info), logger))
    // Cancelled while the hook ran: the agent never sees the prompt.
    .then(() => (turn.controller.signal.aborted ? undefined : adapter.prompt(prompt, turn.controller.signal)))
    .then(
      (o) => (call.outcome = o),
      (e) => (call.failure = e ?? new Error('adapter failed')),
    )
    .finally(() => turn.release?.());
  await released;
  if (turn.graceTimer !== undefined) timers.clearTimeout(turn.graceTimer);
  return call;
}

/** A turn hook's failure is the host's problem, never the turn's (turnHooks.ts). */
export async function runTurnHook(which: 'before' | 'after', run: () => Promise<void> | undefined, logger: Logger): Promise<void> {
  try {
    await run();
  } catch (e) {
    logger.warn(`turn hook (${which}) failed: ${errorMessage(e)}`);
  }
}
