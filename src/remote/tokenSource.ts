// Where a host's token comes from: given (--token), read from a file, or generated. A generated
// token is written to the token file when one was named and does not exist yet (mode 0600, created
// exclusively so an existing file is never overwritten); otherwise the caller shows it once.
import { readLocalFile, readTextIfPresent } from '../workspace/localFiles';
import { createPrivateFile } from '../workspace/privateFiles';
import { generateToken, tokenProblem } from './auth';

export type TokenSource =
  | { kind: 'given'; token: string }
  | { kind: 'file'; token: string; file: string }
  | { kind: 'generated_to_file'; token: string; file: string }
  | { kind: 'generated'; token: string };

export function resolveToken(options: { token?: string; tokenFile?: string }): TokenSource {
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
      const token = text.trim();
      check(token, `the token in ${file}`);
      return { kind: 'file', token, file };
    }
    const token = generateToken();
    createPrivateFile(file, `${token}\n`);
    return { kind: 'generated_to_file', token, file };
  }
  return { kind: 'generated', token: generateToken() };
}

/** For a client: the token from --token or a file that must exist. */
export function readClientToken(options: { token?: string; tokenFile?: string }): string {
  if (options.token !== undefined) return options.token;
  if (options.tokenFile !== undefined) {
    try {
      return readLocalFile(options.tokenFile).toString('utf8').trim();
    } catch (e) {
      throw new Error(`cannot read the token file ${options.tokenFile}: ${(e as Error).message}`);
    }
  }
  const env = process.env.RAWP_TOKEN;
  if (env) return env.trim();
  throw new Error('a token is needed: --token T, --token-file F or the RAWP_TOKEN environment variable');
}

function check(token: string, what: string): void {
  const problem = tokenProblem(token);
  if (problem) throw new Error(`${what} is unusable: ${problem}`);
}
