// The one way the tests start a real `rawp serve` child process: the built bundle
// (`node dist/cli.js serve --agent builtin`, as users run it) on a fresh temp workspace, loopback
// only, the token in a 0600 file, sessions journaled in the test's own folder. serveChild.ts and
// serveProcess.ts wrap it with their clean-up styles; the checkpoint tests use serveProcess.ts.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateToken } from '../../src/remote/auth';
import { waitFor } from '../unit/remote/harness';
import { removeTree } from '../support/removeTree';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface SpawnOptions {
  /** Files to put in the workspace (paths may name sub-folders). */
  files?: Record<string, string | Buffer>;
  /** The workspace folder (default: `ws` in the test's folder). */
  workspace?: string;
  /** Extra arguments after the defaults. */
  args?: string[];
  /** Environment additions. */
  env?: NodeJS.ProcessEnv;
  /** Node's own arguments before the bundle (e.g. --max-old-space-size). */
  nodeArgs?: string[];
  /** Pass the token with these arguments instead of a 0600 --token-file. */
  tokenArgs?: (token: string, dir: string) => string[];
  /** HOME is a fresh folder in the test's folder (no user git config for the checkpoints' git). */
  isolatedHome?: boolean;
  /** Do not require the listening line (tests of refusals at start). */
  expectExit?: boolean;
  /** Start it under `ulimit -n N` (soft and hard: Node cannot raise it again). */
  fdLimit?: number;
}

export interface Spawned {
  proc: ChildProcess;
  /** The test's folder (workspace, token, state and rules inside); removed by the caller. */
  dir: string;
  workspace: string;
  token: string;
  /** From the listening line; empty when the process exited before it. */
  url: string;
  session_id: string;
  out(): string;
  err(): string;
  /** The exit code once it exited (null after a signal), undefined while it runs. */
  exit(): number | null | undefined;
}

/** Spawns `rawp serve` and waits (bounded) for its listening line. */
/** Remove a served test's folder (the serve may have been killed a moment ago). */
export const removeServeDir = removeTree;

export async function spawnServe(o: SpawnOptions = {}): Promise<Spawned> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rawp-sec-')));
  const workspace = o.workspace ?? join(dir, 'ws');
  mkdirSync(workspace, { recursive: true });
  for (const [name, content] of Object.entries(o.files ?? {})) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true });
    writeFileSync(join(workspace, name), content);
  }
  const token = generateToken();
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const tokenArgs = o.tokenArgs ? o.tokenArgs(token, dir) : ['--token-file', tokenFile];
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(dir, 'state'), ...o.env };
  if (o.isolatedHome) {
    env.HOME = join(dir, 'home');
    mkdirSync(env.HOME, { recursive: true });
  }
  const args = [...(o.nodeArgs ?? []), CLI, 'serve', '--workspace', workspace, '--agent', 'builtin', '--rules-file', join(dir, 'rules.json'), ...tokenArgs, ...(o.args ?? [])];
  // Under a descriptor limit, a shell sets it and becomes Node (exec: the pid is the server's).
  const [file, argv] = o.fdLimit ? ['/bin/sh', ['-c', `ulimit -n ${o.fdLimit} && exec "$0" "$@"`, process.execPath, ...args]] : [process.execPath, args];
  const proc = spawn(file, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  let exit: number | null | undefined;
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  proc.on('exit', (code) => (exit = code));
  await waitFor(() => out.includes('\n') || exit !== undefined, 'the listening line', 60_000);
  let url = '';
  let session_id = '';
  if (!o.expectExit) {
    assert.ok(out.includes('\n'), `rawp serve exited (${exit}) before listening: ${err}`);
    ({ url, session_id } = JSON.parse(out.split('\n')[0]) as { url: string; session_id: string });
  }
  return { proc, dir, workspace, token, url, session_id, out: () => out, err: () => err, exit: () => exit };
}
