// A real `rawp serve` for the security suite (spawnServe.ts: the built CLI as a child process on a
// temp workspace, loopback only, token in a 0600 file). Every test kills what it started
// (afterEach → stopAll) and removes its folder.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { EVERY_FEATURE } from '../../src/protocol/capabilities';
import type { FrameOf } from '../../src/protocol/frameTypes';
import { DPS_SUBPROTOCOL, streamPath } from '../../src/remote/controlPlane';
import { TestMaster, waitFor } from '../unit/remote/harness';
import { CLI, ROOT, removeServeDir, spawnServe, type SpawnOptions } from './spawnServe';

export { CLI, ROOT };

/** The suite runs after `npm run build` (scripts/test.sh); a bare checkout builds once here. */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

export interface ServeChild {
  proc: ChildProcess;
  readonly out: string;
  readonly err: string;
  readonly exit?: number | null;
  url: string;
  session_id: string;
  token: string;
  /** The test's folder (removed by stopAll); the workspace is `workspace`. */
  dir: string;
  workspace: string;
  /** A master (the real reconnecting client) attached to the served session. */
  master(options?: ConstructorParameters<typeof TestMaster>[1]): Promise<TestMaster>;
  alive(): boolean;
}

const started: { child: ServeChild; masters: TestMaster[] }[] = [];

/** spawnServe's options; `files` defaults to one a.txt. */
export type ServeOptions = SpawnOptions;

/** Spawn `rawp serve` and wait for its listening line. */
export async function serve(options: ServeOptions = {}): Promise<ServeChild> {
  ensureBuilt();
  const s = await spawnServe({ ...options, files: options.files ?? { 'a.txt': 'hello from a\n' } });
  const masters: TestMaster[] = [];
  const child: ServeChild = {
    proc: s.proc,
    get out() {
      return s.out();
    },
    get err() {
      return s.err();
    },
    get exit() {
      return s.exit();
    },
    url: s.url,
    session_id: s.session_id,
    token: s.token,
    dir: s.dir,
    workspace: s.workspace,
    alive: () => s.exit() === undefined,
    master: async (o) => {
      const m = new TestMaster({ server: { attachUrl: (id: string) => `${child.url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token: s.token, session: { session_id: child.session_id } }, o);
      masters.push(m);
      return m.open();
    },
  };
  started.push({ child, masters });
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
    removeServeDir(child.dir);
  }
}

/** Reattach from `last_message_id` with a bare WebSocket and return the `session.history` payload (§13.7). */
/**
 * A served session with two masters, A and B, and a turn of A's that waits on its permission
 * question (`run \`sleep 30\``), as B sees it: the set-up of the tests where one master misbehaves
 * while the other's turn is held open.
 */
export async function twoMastersAsked(): Promise<{ s: ServeChild; a: TestMaster; b: TestMaster; ask: FrameOf<'agent.interaction.request'> }> {
  const s = await serve();
  const a = await s.master();
  const b = await s.master();
  a.client.send('control.prompt.request', { prompt_text: 'run `sleep 30`' });
  await waitFor(() => b.types().includes('agent.interaction.request'), 'the permission question');
  const ask = b.frames.find((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request')!;
  return { s, a, b, ask };
}

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

/** Every line of the session journals a served child wrote under its test folder's state folder. */
export function journalLines(dir: string): string[] {
  const lines: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.jsonl')) lines.push(...readFileSync(p, 'utf8').split('\n').filter(Boolean));
    }
  };
  walk(join(dir, 'state'));
  return lines;
}

