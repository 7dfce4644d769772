// Small formatting helpers shared by the views.
import { charactersCut } from '../../src/protocol/cutMark';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A no-break space keeps a number and its unit together ("4 ms" never wraps as "4 / ms"). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}\u00a0ms`;
  return `${(ms / 1000).toFixed(1)}\u00a0s`;
}

export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** Keeps the last `max` characters of a long text, saying how many were left out: with those the
 *  host cut from its middle before sending it (a cut mark in the part not shown, decision 516). */
export function tail(text: string, max: number): { text: string; hidden: number } {
  if (text.length <= max) return { text, hidden: 0 };
  const start = text.length - max;
  return { text: text.slice(start), hidden: start + charactersCut(text.slice(0, start)) };
}

/** JSON for display, never throwing on cycles or BigInt. */
export function showJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function isSafeUrl(url: unknown): url is string {
  return typeof url === 'string' && /^(https?:|mailto:)/i.test(url.trim());
}
