// How the built-in agent words tool results. Deterministic, so tests can compare exactly.
import type { ToolCallResult } from '../../tools/runner';

/** Long untrusted text (a 200 KB path) is shown cut, so a failure does not echo it twice in full. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function failure(what: string, r: ToolCallResult): string {
  if (r.status === 'cancelled') return `${clip(what, 500)}: cancelled.`;
  const code = r.error_code ? ` (${r.error_code})` : '';
  return `${clip(what, 500)} failed${code}: ${clip(String(r.output).replace(/^[A-Z_]+: /, ''), 4000)}`;
}

/** "3 files" / "1 file". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

/** Lines of a text ("2 lines"), or just the count. */
export function lineCount(text: string, words: true): string;
export function lineCount(text: string, words: false): number;
export function lineCount(text: string): string;
export function lineCount(text: string, words = true): string | number {
  const n = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return words ? plural(n, 'line') : n;
}

/** How many entries a listing has; the tool card lists them (issue 15 Why 7: shown once). */
export function listReply(title: string, items: unknown, empty: string): string {
  const list = Array.isArray(items) ? items.map(String) : [];
  return list.length === 0 ? empty : `${title}: ${list.some((x) => x.endsWith('/')) ? plural(list.length, 'entry', 'entries') : plural(list.length, 'file')}.`;
}
