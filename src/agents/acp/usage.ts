// Token usage of an ACP turn. The stable protocol has none in the prompt response; agents put it
// in the (unstable) `usage` field or their own `_meta` (gemini-cli: `_meta.quota.token_count`).
import type { TurnUsage } from '../../session/agentAdapter';

type Json = Record<string, unknown>;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

function rec(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

/** Usage from a `session/prompt` response, or undefined when the agent reports none. */
export function usageFromPromptResponse(response: unknown): TurnUsage | undefined {
  const r = rec(response);
  const u = rec(r?.usage);
  if (u && num(u.inputTokens) !== undefined) {
    return {
      input_tokens: num(u.inputTokens) ?? 0,
      output_tokens: num(u.outputTokens) ?? 0,
      ...(num(u.cachedReadTokens) !== undefined ? { cache_read_tokens: num(u.cachedReadTokens) } : {}),
      ...(num(u.cachedWriteTokens) !== undefined ? { cache_write_tokens: num(u.cachedWriteTokens) } : {}),
      ...(num(u.thoughtTokens) !== undefined ? { thinking_tokens: num(u.thoughtTokens) } : {}),
    };
  }
  const quota = rec(rec(rec(r?._meta)?.quota)?.token_count);
  if (quota && num(quota.input_tokens) !== undefined) {
    return { input_tokens: num(quota.input_tokens) ?? 0, output_tokens: num(quota.output_tokens) ?? 0 };
  }
  return undefined;
}
