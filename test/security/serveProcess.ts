// A real `rawp serve` for the security suite: the built CLI (`node dist/cli.js serve …`, as users
// run it) as a child process on a temp workspace, loopback only, token in a 0600 file. Every test
// kills what it started (afterEach → stopAll) and removes its folder.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { EVERY_FEATURE } from '../../src/protocol/capabilities';
import type { FrameOf } from '../../src/protocol/frameTypes';
import { generateToken } from '../../src/remote/auth';
import { DPS_SUBPROTOCOL, streamPath } from '../../src/remote/controlPlane';
import { TestMaster, waitFor } from '../unit/remote/harness';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** The suite runs after `npm run build` (scripts/test.sh); a bare checkout builds once here. */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

export interface ServeChild {
  proc: ChildProcess;
  out: string;
  err: string;
  exit?: number | null;
  url: string;
  session_id: string;
  token: string;
  dir: string;
  /** A master (the real reconnecting client) attached to the served session. */
  master(options?: ConstructorParameters<typeof TestMaster>[1]): Promise<TestMaster>;
  alive(): boolean;
}

const started: { child: ServeChild; masters: TestMaster[] }[] = [];

export interface ServeOptions {
  /** Extra arguments after the defaults. */
  args?: string[];
  /** Environment additions. */
  env?: Record<string, string>;
  /** Files to put in the workspace. */
  files?: Record<string, string>;
  /** Do not wait for the listening line (tests of refusals at start). */
  expectExit?: boolean;
  /** Pass the token with these arguments instead of a 0600 --token-file. */
  tokenArgs?: (token: string, dir: string) => string[];
}

/** Spawn `rawp serve` and wait for its listening line. */
export async function serve(options: ServeOptions = {}): Promise<ServeChild> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'rawp-sec-'));
  const ws = join(dir, 'ws');
  execFileSync('mkdir', ['-p', ws]);
  for (const [name, text] of Object.entries(options.files ?? { 'a.txt': 'hello from a\n' })) writeFileSync(join(ws, name), text);
  const token = generateToken();
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const tokenArgs = options.tokenArgs ? options.tokenArgs(token, dir) : ['--token-file', tokenFile];
  const args = [CLI, 'serve', '--workspace', ws, '--agent', 'builtin', '--rules-file', join(dir, 'rules.json'), ...tokenArgs, ...(options.args ?? [])];
  const proc = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_STATE_HOME: join(dir, 'state'), ...options.env } });
  const masters: TestMaster[] = [];
  const child: ServeChild = {
    proc,
    out: '',
    err: '',
    url: '',
    session_id: '',
    token,
    dir,
    alive: () => child.exit === undefined,
    master: async (o) => {
      const m = new TestMaster({ server: { attachUrl: (id: string) => `${child.url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id: child.session_id } }, o);
      masters.push(m);
      return m.open();
    },
  };
  started.push({ child, masters });
  proc.stdout?.on('data', (d: Buffer) => (child.out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (child.err += d.toString()));
  proc.on('exit', (code) => (child.exit = code));
  await waitFor(() => child.out.includes('\n') || child.exit !== undefined, 'the listening line', 60_000);
  if (options.expectExit) return child;
  assert.ok(child.out.includes('\n'), `rawp serve exited (${child.exit}) before listening: ${child.err}`);
  const line = JSON.parse(child.out.split('\n')[0]) as { event: string; url: string; session_id: string };
  child.url = line.url;
  child.session_id = line.session_id;
  return child;
}

/** Stop every master and child this file started, and remove their folders. */
export async function stopAll(): Promise<void> {
  for (const { child, masters } of started.splice(0)) {
    for (const m of masters) m.client.stop();
    if (child.exit === undefined) {
      child.proc.kill('SIGKILL');
      await waitFor(() => child.exit !== undefined, 'serve exits', 20_000).catch(() => undefined);
    }
    rmSync(child.dir, { recursive: true, force: true });
  }
}

/** Reattach from `last_message_id` with a bare WebSocket and return the `session.history` payload (§13.7). */
export async function historyFrom(child: ServeChild, last_message_id: string): Promise<FrameOf<'session.history'>['payload']> {
  const url = `${child.url.replace('http', 'ws')}${streamPath(child.session_id, last_message_id)}`;
  const ws = new WebSocket(url, [DPS_SUBPROTOCOL], { headers: { authorization: `Bearer ${child.token}` } });
  try {
    return await new Promise((resolve, reject) => {
      ws.on('open', () =>
        ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: child.session_id }))),
      );
      ws.on('message', (data) => {
        const f = JSON.parse(String(data)) as FrameOf<'session.history'>;
        if (f.type === 'session.history') resolve(f.payload);
      });
      ws.on('error', reject);
      ws.on('close', (code) => reject(new Error(`closed ${code} before session.history`)));
    });
  } finally {
    ws.terminate();
  }
}
