// How the built-in agent words tool results. Deterministic, so tests can compare exactly.
import type { ToolCallResult } from '../../tools/runner';

export function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

/** Long untrusted text (a 200 KB path) is shown cut, so a failure does not echo it twice in full. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function failure(what: string, r: ToolCallResult): string {
  if (r.status === 'cancelled') return `${clip(what, 500)}: cancelled.`;
  const code = r.error_code ? ` (${r.error_code})` : '';
  return `${clip(what, 500)} failed${code}: ${clip(String(r.output).replace(/^[A-Z_]+: /, ''), 4000)}`;
}

export function listReply(title: string, items: unknown, empty: string): string {
  const list = Array.isArray(items) ? items.map(String) : [];
  return list.length === 0 ? empty : `${title}\n${list.map((x) => `- ${x}`).join('\n')}`;
}
