// How every `rawp` verb reads its arguments and says what is wrong with them: node:util's
// parseArgs, one line `rawp VERB: what is wrong` on stderr (the verb's usage lines after it when
// the options themselves could not be read, and where to find the rest) and exit status 2. One place, so `run`, `search`,
// `attach` and `serve` word and number a bad argument alike.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Verb, VerbIo } from './verb';
import { argumentErrorWords } from './argErrors';
import { CONTEXT_WINDOW_RANGE, inContextWindowRange } from '../agents/openai/conversation';

/** The exit status of bad arguments, for every verb. */
export const USAGE_EXIT = 2;

type VerbName = Pick<Verb, 'name' | 'help'>;

/**
 * The verb's usage lines: its help up to the first blank line. After an error the whole help
 * (80 lines for `run`) pushed the one line that says what is wrong off the top of the terminal.
 */
export function synopsis(verb: VerbName): string {
  const end = verb.help.indexOf('\n\n');
  return end < 0 ? verb.help.trimEnd() : verb.help.slice(0, end);
}

/** `rawp VERB: message` on stderr (with the verb's usage lines when asked); returns USAGE_EXIT. */
export function usageError(verb: VerbName, io: VerbIo, message: string, withUsage = false): number {
  const usage = withUsage ? `\n${synopsis(verb)}\n\nEvery option is explained by: rawp ${verb.name} --help\n` : '';
  io.stderr.write(`rawp ${verb.name}: ${message}\n${usage}`);
  return USAGE_EXIT;
}

/**
 * The verb's options and positionals, or — for an unknown option, a missing value, a positional
 * where none is allowed — the usage error already written and its exit status.
 */
export function parseVerbArgs<T extends ParseArgsConfig>(verb: VerbName, io: VerbIo, config: T): ReturnType<typeof parseArgs<T>> | number {
  try {
    return parseArgs(config);
  } catch (e) {
    return usageError(verb, io, argumentErrorWords(e, config.args ?? []), true);
  }
}

/** The absolute path of a `--workspace DIR` that is a directory, or undefined. */
export function directoryArg(dir: string): string | undefined {
  const abs = resolve(dir);
  try {
    // The folder itself, not a symlink's path to it: the file backend's roots are real paths, and
    // an agent started in the symlink's path named every file by it, which the tools then refused
    // as outside the workspace (the review of 2026-12-06). The name it was given stays the
    // workspace's other name (SessionHostOptions.workspaceOtherName, decision 729).
    return statSync(abs).isDirectory() ? realpathSync.native(abs) : undefined;
  } catch {
    return undefined;
  }
}

/** `--context-window N` (the OpenAI-compatible model's window, decision 730): undefined when not given, null when out of range. */
export function contextWindowArg(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return inContextWindowRange(n) ? n : null;
}

/** Its usage message. */
export const CONTEXT_WINDOW_USAGE = `--context-window must be a whole number of tokens from ${CONTEXT_WINDOW_RANGE[0]} to ${CONTEXT_WINDOW_RANGE[1].toLocaleString('en-US')}`;

/** The usage message of a `--workspace DIR` that is not a directory. */
export function notADirectory(dir: string): string {
  return `workspace "${resolve(dir)}" is not a directory`;
}
