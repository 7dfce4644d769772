// How the built-in agent words tool results. Deterministic, so tests can compare exactly; the
// phrases themselves are in words.ts, in the agent's language.
import type { ToolCallResult } from '../../tools/runner';
import type { BuiltinWords } from './words';

/** Long untrusted text (a 200 KB path) is shown cut, so a failure does not echo it twice in full. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function failure(words: BuiltinWords, what: string, r: ToolCallResult): string {
  if (r.status === 'cancelled') return words.cancelled(clip(what, 500));
  return words.failed(clip(what, 500), r.error_code, clip(String(r.output).replace(/^[A-Z_]+: /, ''), 4000));
}

/** Lines of a text. */
export function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/** How many entries a listing has; the tool card lists them (issue 15 Why 7: shown once). */
export function listReply(words: BuiltinWords, title: string, items: unknown, empty: string): string {
  const list = Array.isArray(items) ? items.map(String) : [];
  return list.length === 0 ? empty : words.listed(title, list.length, list.some((x) => x.endsWith('/')));
}
