// §7.3.1 `session.usage` from what an adapter reports for a turn. Tokens are the turn's own (the
// frame carries its turn_id); cost and message counts are the session's running totals against
// their limits (-1: unlimited). We have no quota window, so `time_to_reset` is the zero duration.
import type { PayloadOf } from '../protocol/frameTypes';
import type { TurnUsage } from './agentAdapter';

export type UsagePayload = PayloadOf<'session.usage'>;

export const AUTO_COMPACT_CONSIDER = 0.8; // §6.3.1 SHOULD consider compacting
export const AUTO_COMPACT_MUST = 0.95; // §6.3.1 MUST compact

export class UsageLedger {
  private costUsd = 0;
  private messages = 0;
  private capacity: number | undefined;
  private used: number | undefined;

  /** A prompt was accepted (message_usage counts prompts). */
  countMessage(): void {
    this.messages++;
  }

  /**
   * An adapter's own report of one scope (a subagent's, §10.5): its tokens and context window stay
   * as the adapter says and are folded into nothing here (a subagent's context is not the main
   * agent's); the session's counters — cost, prompts — are this ledger's, as in every other report.
   */
  withSessionCounters(payload: UsagePayload): UsagePayload {
    return { ...payload, ...this.counters() };
  }

  /** Fold a turn's usage in and build its `session.usage` payload. */
  forTurn(turn_id: string | undefined, usage: TurnUsage | undefined): UsagePayload {
    if (usage?.cost_usd !== undefined) this.costUsd += Math.max(0, usage.cost_usd);
    if (usage?.context_capacity !== undefined) this.capacity = usage.context_capacity;
    if (usage?.context_used !== undefined) this.used = usage.context_used;
    const token_usage: UsagePayload['token_usage'] = {
      input_tokens: nonNegInt(usage?.input_tokens),
      output_tokens: nonNegInt(usage?.output_tokens),
    };
    if (usage?.cache_read_tokens !== undefined) token_usage.cache_read_tokens = nonNegInt(usage.cache_read_tokens);
    if (usage?.cache_write_tokens !== undefined) token_usage.cache_write_tokens = nonNegInt(usage.cache_write_tokens);
    if (usage?.thinking_tokens !== undefined) token_usage.thinking_tokens = nonNegInt(usage.thinking_tokens);
    const payload: UsagePayload = { token_usage, ...this.counters() };
    if (turn_id !== undefined) payload.turn_id = turn_id;
    const window = this.contextWindow();
    if (window) payload.context_window = window;
    return payload;
  }

  /** After a compaction the context holds `current_token_count` tokens. */
  compacted(current_token_count: number): void {
    this.used = nonNegInt(current_token_count);
  }

  /** Context utilization 0..1, when both capacity and use are known. */
  utilization(): number | undefined {
    if (this.capacity === undefined || this.used === undefined || this.capacity <= 0) return undefined;
    return Math.min(1, Math.max(0, this.used / this.capacity));
  }

  get contextUsed(): number | undefined {
    return this.used;
  }

  /** The session's running totals against their limits (-1: unlimited); no quota window. */
  private counters(): Pick<UsagePayload, 'cost_usage' | 'message_usage' | 'time_to_reset'> {
    return {
      cost_usage: { limit: -1, used: this.costUsd, unit: 'USD' },
      message_usage: { limit: -1, used: this.messages, unit: 'COUNT' },
      time_to_reset: 'PT0S',
    };
  }

  private contextWindow(): UsagePayload['context_window'] | undefined {
    if (this.capacity === undefined && this.used === undefined) return undefined;
    const w: NonNullable<UsagePayload['context_window']> = {};
    if (this.capacity !== undefined) w.capacity = nonNegInt(this.capacity);
    if (this.used !== undefined) w.used = nonNegInt(this.used);
    const u = this.utilization();
    if (u !== undefined) w.utilization = u;
    return w;
  }
}

/**
 * A token count as the protocol takes it: a whole number from 0 to the largest safe integer (a
 * negative, fractional, huge or non-finite figure from an agent never makes a report invalid).
 * Adapters that sum figures of their own use it too (a subagent's, claudeCode/subagentUsage.ts).
 */
export function nonNegInt(n: number | undefined): number {
  return n === undefined || !Number.isFinite(n) ? 0 : Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.round(n)));
}

/**
 * A usage report of an adapter's own scope (a subagent's, §10.5): tokens and, when known, what its
 * own context holds. The session's counters are placeholders here: the engine puts its ledger's in
 * (`withSessionCounters`) before the frame goes out.
 */
export function scopedUsage(token_usage: UsagePayload['token_usage'], context_window?: UsagePayload['context_window']): UsagePayload {
  return {
    token_usage,
    cost_usage: { limit: -1, used: 0, unit: 'USD' },
    message_usage: { limit: -1, used: 0, unit: 'COUNT' },
    time_to_reset: 'PT0S',
    ...(context_window ? { context_window } : {}),
  };
}
