// Token and cost accounting of a Claude Code session (§6.4 `session.usage`). Claude reports the
// context of each top-level message in its `usage`, the session's *running* cost in each `result`
// (`total_cost_usd`), and the model's context window in `modelUsage`; the engine wants per-turn
// figures, so this keeps what it needs between turns.
import type { TurnUsage } from '../../session/agentAdapter';
import type { NativeUsage, ResultLine } from './streamJson';

export class UsageMeter {
  private lastTotalCost = 0;
  private contextUsed: number | undefined;
  private contextWindow: number | undefined;

  /** A top-level message's usage: what the context holds now (input, cache and output). */
  noteMessage(u: NativeUsage | null | undefined): void {
    if (u) this.contextUsed = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
  }

  /** After a compaction the context holds what the CLI says is left. */
  noteCompacted(tokens: number): void {
    this.contextUsed = tokens;
  }

  /** The turn's usage from its `result` line, or undefined when the CLI reported none. */
  turnUsage(line: ResultLine): TurnUsage | undefined {
    const u = line.usage;
    if (!u) return undefined;
    const usage: TurnUsage = {
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_read_tokens: u.cache_read_input_tokens,
      cache_write_tokens: u.cache_creation_input_tokens,
    };
    // `total_cost_usd` is the session's running total; the engine wants this turn's share.
    if (line.total_cost_usd !== undefined) {
      usage.cost_usd = Math.max(0, line.total_cost_usd - this.lastTotalCost);
      this.lastTotalCost = Math.max(this.lastTotalCost, line.total_cost_usd);
    }
    for (const m of Object.values(line.modelUsage ?? {})) {
      if (m.contextWindow) this.contextWindow = Math.max(this.contextWindow ?? 0, m.contextWindow);
    }
    if (this.contextWindow) usage.context_capacity = this.contextWindow;
    if (this.contextUsed !== undefined) usage.context_used = this.contextUsed;
    return usage;
  }
}
