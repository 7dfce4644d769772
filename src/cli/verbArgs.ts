// How every `rawp` verb reads its arguments and says what is wrong with them: node:util's
// parseArgs, one line `rawp VERB: what is wrong` on stderr (the verb's help after it when the
// options themselves could not be read) and exit status 2. One place, so `run`, `search`,
// `attach` and `serve` word and number a bad argument alike.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Verb, VerbIo } from './verb';

/** The exit status of bad arguments, for every verb. */
export const USAGE_EXIT = 2;

type VerbName = Pick<Verb, 'name' | 'help'>;

/** `rawp VERB: message` on stderr (with the verb's help when asked); returns USAGE_EXIT. */
export function usageError(verb: VerbName, io: VerbIo, message: string, withHelp = false): number {
  io.stderr.write(`rawp ${verb.name}: ${message}\n${withHelp ? `\n${verb.help}` : ''}`);
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
    return usageError(verb, io, e instanceof Error ? e.message : String(e), true);
  }
}

/** The absolute path of a `--workspace DIR` that is a directory, or undefined. */
export function directoryArg(dir: string): string | undefined {
  const abs = resolve(dir);
  try {
    return statSync(abs).isDirectory() ? abs : undefined;
  } catch {
    return undefined;
  }
}

/** The usage message of a `--workspace DIR` that is not a directory. */
export function notADirectory(dir: string): string {
  return `workspace "${resolve(dir)}" is not a directory`;
}
