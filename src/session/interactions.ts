// Interactions the agent is waiting on (§4.3.1, §6.2, §17.3.1). Each one resolves exactly once:
// by a master's `control.interaction.response`, by `control.interaction.timeout`, by its own
// `timeout_sec` elapsing, or by being discarded when the turn or the session ends.
// A timeout picks `default_value` where there is one, except for PERMISSION: a permission is never
// granted by silence (§17.3.1 says a timeout is a denial; we apply that to our own timer too).
import type { PayloadOf } from '../protocol/frameTypes';
import type { InteractionAnswer } from './agentAdapter';
import type { TimerHandle, Timers } from './ports';

type Request = PayloadOf<'agent.interaction.request'>;
const MAX_TIMER_MS = 2 ** 31 - 1;
type Response = PayloadOf<'control.interaction.response'>;

interface Pending {
  request: Request;
  resolve: (answer: InteractionAnswer) => void;
  timer?: TimerHandle;
}

export type InteractionRefusal = { ok: false; code: 'UNKNOWN_INTERACTION' | 'INVALID_INTERACTION_RESPONSE'; message: string };

export class InteractionBook {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly timers: Timers) {}

  get size(): number {
    return this.pending.size;
  }

  has(interaction_id: string): boolean {
    return this.pending.has(interaction_id);
  }

  /** Register a request (already emitted) and wait for its answer. */
  open(request: Request): Promise<InteractionAnswer> {
    return new Promise((resolve) => {
      const p: Pending = { request, resolve };
      // timeout_sec <= 0 means "no deadline of our own": wait for the master. So does a deadline
      // beyond what timers can hold (~24.8 days), which would otherwise fire at once.
      if (request.timeout_sec > 0 && request.timeout_sec * 1000 <= MAX_TIMER_MS) p.timer = this.timers.setTimeout(() => this.settle(request.interaction_id, onTimeout(request)), request.timeout_sec * 1000);
      this.pending.set(request.interaction_id, p);
    });
  }

  respond(response: Response): { ok: true } | InteractionRefusal {
    const p = this.pending.get(response.interaction_id);
    if (!p) return { ok: false, code: 'UNKNOWN_INTERACTION', message: `no pending interaction ${response.interaction_id} (already answered, timed out or never asked)` };
    const problem = invalidAnswer(p.request, response.selected_value);
    if (problem) return { ok: false, code: 'INVALID_INTERACTION_RESPONSE', message: problem };
    const answer: InteractionAnswer = { kind: 'response', selected_value: response.selected_value };
    if (response.text_input !== undefined) answer.text_input = response.text_input;
    this.settle(response.interaction_id, answer);
    return { ok: true };
  }

  /** The master gave up waiting (§6.2.2). */
  timeout(interaction_id: string): { ok: true } | InteractionRefusal {
    const p = this.pending.get(interaction_id);
    if (!p) return { ok: false, code: 'UNKNOWN_INTERACTION', message: `no pending interaction ${interaction_id}` };
    this.settle(interaction_id, onTimeout(p.request));
    return { ok: true };
  }

  /** Discard every pending interaction (turn cancelled, session ended). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { kind: 'cancelled' });
  }

  private settle(interaction_id: string, answer: InteractionAnswer): void {
    const p = this.pending.get(interaction_id);
    if (!p) return;
    this.pending.delete(interaction_id);
    if (p.timer !== undefined) this.timers.clearTimeout(p.timer);
    p.resolve(answer);
  }
}

function onTimeout(request: Request): InteractionAnswer {
  if (request.interaction_type !== 'PERMISSION' && request.default_value !== undefined) {
    return { kind: 'response', selected_value: request.default_value, by_default: true };
  }
  return { kind: 'timeout' };
}

/** Why a selected value does not fit the question, or undefined when it does. */
function invalidAnswer(request: Request, selected: string | string[]): string | undefined {
  const values = request.options?.map((o) => o.value);
  const picked = Array.isArray(selected) ? selected : [selected];
  if (request.interaction_type !== 'MULTI_SELECT' && request.interaction_type !== 'TEXT_INPUT' && picked.length !== 1) {
    return `${request.interaction_type} takes exactly one selected_value`;
  }
  if (request.interaction_type === 'TEXT_INPUT' || !values || values.length === 0) return undefined;
  const unknown = picked.filter((v) => !values.includes(v));
  return unknown.length > 0 ? `selected_value ${unknown.map((v) => JSON.stringify(v)).join(', ')} is not one of the options (${values.join(', ')})` : undefined;
}
