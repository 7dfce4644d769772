// How the built-in agent words tool results. Deterministic, so tests can compare exactly.
import type { ToolCallResult } from '../../tools/runner';

export function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

export function failure(what: string, r: ToolCallResult): string {
  if (r.status === 'cancelled') return `${what}: cancelled.`;
  const code = r.error_code ? ` (${r.error_code})` : '';
  return `${what} failed${code}: ${String(r.output).replace(/^[A-Z_]+: /, '')}`;
}

export function listReply(title: string, items: unknown, empty: string): string {
  const list = Array.isArray(items) ? items.map(String) : [];
  return list.length === 0 ? empty : `${title}\n${list.map((x) => `- ${x}`).join('\n')}`;
}
