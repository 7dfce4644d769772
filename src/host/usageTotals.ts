// What `/cost` says (slash-commands §7; decision 677): the session's usage so far, from the
// `session.usage` frames the session emits — the same figures the status bar adds up. A report is
// the running total of its turn (a later one for the same turn replaces it, as the transcript
// reducer reads them, decision 015); a subagent's report is its own scope and not the session's
// (§10.5); cost and prompts are the session's running counters the last report carries.
import type { Frame, PayloadOf } from '../protocol/frameTypes';

type UsagePayload = PayloadOf<'session.usage'>;

export interface UsageSummary {
  prompts: number;
  input_tokens: number;
  output_tokens: number;
  cost: UsagePayload['cost_usage'];
}

export class UsageTotals {
  private input = 0;
  private output = 0;
  private lastTurn: string | undefined;
  private lastTurnTokens = { input: 0, output: 0 };
  private latest: UsagePayload | undefined;

  observe(frame: Frame): void {
    if (frame.type !== 'session.usage' || frame.metadata?.subagent_context) return;
    const usage = frame.payload;
    this.latest = usage;
    const turn = usage.turn_id ?? frame.turn_id;
    if (turn === undefined || turn === '') return;
    if (turn === this.lastTurn) {
      this.input -= this.lastTurnTokens.input;
      this.output -= this.lastTurnTokens.output;
    }
    this.lastTurn = turn;
    this.lastTurnTokens = { input: usage.token_usage.input_tokens, output: usage.token_usage.output_tokens };
    this.input += usage.token_usage.input_tokens;
    this.output += usage.token_usage.output_tokens;
  }

  /** Undefined before the first report (no turn has run). */
  summary(): UsageSummary | undefined {
    if (!this.latest) return undefined;
    return { prompts: this.latest.message_usage.used, input_tokens: this.input, output_tokens: this.output, cost: this.latest.cost_usage };
  }
}
