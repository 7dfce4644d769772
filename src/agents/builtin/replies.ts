// How the built-in agent words tool results. Deterministic, so tests can compare exactly; the
// phrases themselves are in words.ts, in the agent's language.
import { grepTally } from '../../tools/grepReport';
import { readLines, readNote } from '../../tools/read';
import type { ToolCallResult } from '../../tools/runner';
import type { BuiltinWords } from './words';

/** Long untrusted text (a 200 KB path) is shown cut, so a failure does not echo it twice in full. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function failure(words: BuiltinWords, what: string, r: ToolCallResult): string {
  if (r.status === 'cancelled') return words.cancelled(clip(what, 500));
  return words.failed(clip(what, 500), r.error_code, clip(failureText(r.output).replace(/^[A-Z_]+: /, ''), 4000));
}

/**
 * What a failed call said, as text. Most tools fail with a string; Task fails with the subagent's
 * result object (`{status, result}`), whose `result` is the subagent's own words ("The subagent
 * failed: [object Object]" before).
 */
function failureText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null) {
    const o = output as { result?: unknown; message?: unknown; error?: unknown };
    for (const v of [o.result, o.message, o.error]) if (typeof v === 'string' && v.trim() !== '') return v;
    return JSON.stringify(output);
  }
  return String(output);
}

/** Lines of a text. */
export function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/** A successful Read in words: its shown lines, or what it said instead (a binary or empty file,
 * an offset past the end: each was "(1 line)" when the output's lines were counted). */
export function readReply(words: BuiltinWords, path: string, output: string, truncated: boolean): string {
  const note = readNote(output);
  if (note === undefined) return words.read(path, readLines(output), truncated);
  if (note.kind === 'binary') return words.readBinary(path);
  if (note.kind === 'empty') return words.readEmpty(path);
  return words.readPastEnd(path, note.lines, note.offset);
}

/**
 * How many lines a Grep (content mode) found, from its result: the tally it adds whenever its lines
 * are not one per match (cut output, head_limit, binary files) or some file was not searched, else
 * its lines (decision 577: counting the lines of a cut result said 418 for 1,740).
 */
export function findReply(words: BuiltinWords, pattern: string, output: string): string {
  const tally = grepTally(output);
  const matches = tally ? tally.matches : output === '(no matches)' ? 0 : lineCount(output);
  const reply = matches === 0 ? words.noMatches(pattern) : words.found(matches, pattern, tally?.atLeast === true);
  if (tally?.more) return `${reply} ${words.notSearched(undefined)}`;
  return tally && tally.notSearched > 0 ? `${reply} ${words.notSearched(tally.notSearched)}` : reply;
}

/**
 * How many entries a listing has; the tool card lists them (issue 15 Why 7: shown once). A cut list
 * (`truncated`: Glob's 100, LS's 1000) is "more than" its length, not its length (decision 576).
 */
export function listReply(words: BuiltinWords, title: string, items: unknown, empty: string, truncated = false): string {
  const list = Array.isArray(items) ? items.map(String) : [];
  return list.length === 0 ? empty : words.listed(title, list.length, list.some((x) => x.endsWith('/')), truncated);
}
