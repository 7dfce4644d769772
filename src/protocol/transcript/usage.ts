// §7.3 usage. A report is read as the running total of its scope (a turn, or a subagent run,
// §10.5): a later report for the same scope replaces the earlier one, and the session totals are
// the sum over scopes, so the usual "after agent.text.done and again after turn.end" pair is not
// counted twice (docs/decisions/015-reducer-usage.md).
import type { FrameOf } from '../frameTypes';
import { contextOf, ensureRun, touch, type Transcript } from './state';
import type { SubagentRun, TokenTotals, UsagePayload } from './types';

type TokenUsage = UsagePayload['token_usage'];

export function addTokens(into: TokenTotals, u: TokenUsage): void {
  into.input_tokens += u.input_tokens;
  into.output_tokens += u.output_tokens;
  into.cache_read_tokens += u.cache_read_tokens ?? 0;
  into.cache_write_tokens += u.cache_write_tokens ?? 0;
  into.thinking_tokens += u.thinking_tokens ?? 0;
}

export function subtractTokens(from: TokenTotals, u: TokenUsage): void {
  from.input_tokens -= u.input_tokens;
  from.output_tokens -= u.output_tokens;
  from.cache_read_tokens -= u.cache_read_tokens ?? 0;
  from.cache_write_tokens -= u.cache_write_tokens ?? 0;
  from.thinking_tokens -= u.thinking_tokens ?? 0;
}

export function onUsage(t: Transcript, frame: FrameOf<'session.usage'>): void {
  const usage = frame.payload;
  const ctx = contextOf(t, frame);
  if (ctx) {
    onSubagentUsage(t, ensureRun(t, ctx.parentInvocationId, ctx.depth, frame), usage);
    return;
  }
  t.usage.latest = usage;
  // The payload's own turn_id names the turn the usage belongs to; the envelope's is the fallback.
  const turnId = usage.turn_id ?? frame.turn_id;
  if (turnId === undefined || turnId === '') return;
  const previous = t.idx.turnUsage.get(turnId);
  if (previous) subtractTokens(t.usage.cumulative, previous.token_usage);
  addTokens(t.usage.cumulative, usage.token_usage);
  t.idx.turnUsage.set(turnId, usage);
  const turn = t.idx.turns.get(turnId);
  if (turn) {
    turn.usage = usage;
    touch(t, turn.key);
  }
}

/** §10.5 a subagent's usage is its own: it replaces the run's previous report, never the main totals. */
function onSubagentUsage(t: Transcript, run: SubagentRun, usage: UsagePayload): void {
  if (run.usage) subtractTokens(t.usage.subagentCumulative, run.usage.token_usage);
  run.usage = usage;
  addTokens(t.usage.subagentCumulative, usage.token_usage);
  touch(t, run.key);
}
