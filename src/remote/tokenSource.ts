// Where a host's token comes from: given (--token), read from a file, the RAWP_TOKEN environment
// variable, or generated. A generated token is written to the token file when one was named and
// does not exist yet (mode 0600, created exclusively so an existing file is never overwritten);
// otherwise the caller shows it once. A token file other users may read or write is refused, as
// ssh refuses such a private key (issue 12 #11, decision 163).
import { readLocalFile, readTextIfPresent } from '../workspace/localFiles';
import { createPrivateFile, modeOpenToOthers } from '../workspace/privateFiles';
import { generateToken, tokenProblem } from './auth';

export type TokenSource =
  | { kind: 'given'; token: string }
  | { kind: 'file'; token: string; file: string }
  | { kind: 'env'; token: string }
  | { kind: 'generated_to_file'; token: string; file: string }
  | { kind: 'generated'; token: string };

/** The environment variable both `rawp serve` and `rawp attach` read the token from. */
export const TOKEN_ENV = 'RAWP_TOKEN';

/**
 * Why `--token T` is a bad idea; printed as a warning. Every local user can read a process's
 * command line (`ps`, /proc/PID/cmdline); we overwrite ours once parsed, but not before.
 */
export const TOKEN_ARG_WARNING = `--token puts the token in the process list (ps, /proc/PID/cmdline) where every local user can read it; prefer --token-file F or the ${TOKEN_ENV} environment variable`;

export function resolveToken(options: { token?: string; tokenFile?: string; env?: string }): TokenSource {
  if (options.token !== undefined && options.tokenFile !== undefined) throw new Error('give --token or --token-file, not both');
  if (options.token !== undefined) {
    check(options.token, '--token');
    return { kind: 'given', token: options.token };
  }
  if (options.tokenFile !== undefined) {
    const file = options.tokenFile;
    let text: string | undefined;
    try {
      text = readTextIfPresent(file);
    } catch (e) {
      throw new Error(`cannot read the token file ${file}: ${(e as Error).message}`);
    }
    if (text !== undefined) {
      checkPrivate(file);
      const token = text.trim();
      check(token, `the token in ${file}`);
      return { kind: 'file', token, file };
    }
    const token = generateToken();
    createPrivateFile(file, `${token}\n`);
    return { kind: 'generated_to_file', token, file };
  }
  if (options.env !== undefined && options.env.trim() !== '') {
    const token = options.env.trim();
    check(token, `the token in ${TOKEN_ENV}`);
    return { kind: 'env', token };
  }
  return { kind: 'generated', token: generateToken() };
}

/**
 * For `rawp serve`: resolveToken with RAWP_TOKEN read from `env` and deleted from it at once,
 * whether it is used, overridden by a flag or refused. The host starts children that do not filter
 * their environment (agent discovery's login shell, git); none of them may inherit the key to every
 * shared session (decision 549). Only serve drops it: `rawp attach` reads it as a client and starts
 * no one, and the editor never reads it.
 */
export function resolveServeToken(options: { token?: string; tokenFile?: string }, env: NodeJS.ProcessEnv = process.env): TokenSource {
  const fromEnv = env[TOKEN_ENV];
  delete env[TOKEN_ENV];
  return resolveToken({ ...options, env: fromEnv });
}

/** For a client: the token from --token or a file that must exist. */
export function readClientToken(options: { token?: string; tokenFile?: string }): string {
  if (options.token !== undefined) return options.token;
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = readLocalFile(options.tokenFile).toString('utf8');
    } catch (e) {
      throw new Error(`cannot read the token file ${options.tokenFile}: ${(e as Error).message}`);
    }
    checkPrivate(options.tokenFile);
    return text.trim();
  }
  const env = process.env[TOKEN_ENV];
  if (env) return env.trim();
  throw new Error('a token is needed: --token T, --token-file F or the RAWP_TOKEN environment variable');
}

function check(token: string, what: string): void {
  const problem = tokenProblem(token);
  if (problem) throw new Error(`${what} is unusable: ${problem}`);
}

/** Refuse a token file that group or others may read or write (POSIX modes; Windows has none). */
export function checkPrivate(file: string): void {
  const mode = modeOpenToOthers(file);
  if (mode !== undefined) {
    throw new Error(`the token file ${file} is accessible to other users (mode ${mode.toString(8).padStart(4, '0')}); make it private with: chmod 600 ${file}`);
  }
}
