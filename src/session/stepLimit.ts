// `config_overrides.max_turns` (§6.1.1) for agents that have no such option of their own (Codex,
// ACP agents, the built-in agent): the engine counts the agent's steps in the frames it emits and
// stops the turn when step max+1 begins (docs/decisions/321). A step is one model reply: its text
// and thinking and the tool calls it makes. A new step begins when the main agent writes, thinks
// or calls a tool again after one of its tool calls returned — except calls of the same
// `parallel_group_id`, which are one reply. Subagents' frames (§10.2) are theirs, not steps.
import type { AgentEvent } from './agentAdapter';
import type { PayloadOf } from '../protocol/frameTypes';

export const MAX_TURNS_ERROR = 'MAX_TURNS';

/** The documented end of a capped turn (decision 321), before its turn.end (stop_reason error). */
export function maxTurnsError(max: number): PayloadOf<'agent.error'> {
  return {
    error_code: MAX_TURNS_ERROR,
    message: `the agent reached the maximum of ${max} step${max === 1 ? '' : 's'} (config_overrides.max_turns) and was stopped`,
    severity: 'error',
    recoverable: true,
    details: { max_turns: max, enforced_by: 'engine' },
  };
}

export class StepLimit {
  private steps = 0;
  private resultSinceStep = false;
  private group: string | undefined;

  constructor(readonly max: number) {}

  get count(): number {
    return this.steps;
  }

  /** False when `event` would begin step max+1 (the turn stops there; the event is not sent). */
  admit(event: AgentEvent): boolean {
    if (event.metadata?.subagent_context) return true;
    if (event.type === 'tool.invoke.result') {
      this.resultSinceStep = true;
      return true;
    }
    if (event.type !== 'agent.text.delta' && event.type !== 'agent.thinking.delta' && event.type !== 'tool.invoke.request') return true;
    const group = event.type === 'tool.invoke.request' ? event.payload.parallel_group_id : undefined;
    const sameReply = group !== undefined && group === this.group;
    if (this.steps === 0 || (this.resultSinceStep && !sameReply)) {
      if (this.steps >= this.max) return false;
      this.steps++;
      this.resultSinceStep = false;
    }
    if (group !== undefined) this.group = group;
    return true;
  }
}
