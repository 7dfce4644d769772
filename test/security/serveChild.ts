// A real `rawp serve` child process (spawnServe.ts: the built bundle, `node dist/cli.js serve
// --agent builtin`) on a temp workspace, over loopback, with a master that is the real reconnecting
// client — the way the findings of issue 12 were found. Built once per test run.
import { strict as assert } from 'node:assert';
import { execFileSync, type ChildProcess } from 'node:child_process';
import type { FrameOf, PayloadOf } from '../../src/protocol/frameTypes';
import { http, TestMaster, waitFor } from '../unit/remote/harness';
import { ROOT, removeServeDir, spawnServe } from './spawnServe';

export { ROOT };
let built = false;

/** `npm run build` once per process, so the tests run the bundle users run. */
export function buildOnce(): void {
  if (built) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  built = true;
}

export interface Served {
  proc: ChildProcess;
  dir: string;
  url: string;
  session_id: string;
  token: string;
  out: () => string;
  err: () => string;
  exited: () => boolean;
  master(): Promise<TestMaster>;
  close(): void;
}

/** Starts `rawp serve` on a fresh workspace (`files` written into it first). */
export async function serve(files: Record<string, string | Buffer> = {}, opts: { env?: NodeJS.ProcessEnv; dir?: string; nodeArgs?: string[] } = {}): Promise<Served> {
  buildOnce();
  const s = await spawnServe({ files, env: opts.env, workspace: opts.dir, nodeArgs: opts.nodeArgs });
  const masters: TestMaster[] = [];
  return {
    proc: s.proc,
    dir: s.workspace,
    url: s.url,
    session_id: s.session_id,
    token: s.token,
    out: s.out,
    err: s.err,
    exited: () => s.exit() !== undefined,
    async master() {
      const m = await new TestMaster({ server: { attachUrl: (id: string) => `${s.url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token: s.token, session: { session_id: s.session_id } }).open();
      masters.push(m);
      return m;
    },
    close() {
      for (const m of masters) m.client.stop?.();
      if (s.exit() === undefined) s.proc.kill('SIGKILL');
      removeServeDir(s.dir);
    },
  };
}

export type Answer = 'allow_once' | 'allow_session' | 'allow_always' | 'reject';

export interface TurnResult {
  /** Permission questions asked during the turn. */
  asked: FrameOf<'agent.interaction.request'>[];
  /** Tool calls the agent made. */
  requests: FrameOf<'tool.invoke.request'>[];
  results: FrameOf<'tool.invoke.result'>[];
  /** The agent's text of the turn. */
  text: string;
}

/**
 * Sends one prompt and waits for its turn to end, answering every permission question with
 * `answer` (reject by default).
 */
export async function promptTurn(m: TestMaster, text: string | { prompt_text: string; file_references?: PayloadOf<'control.prompt.request'>['file_references'] }, answer: Answer | ((q: FrameOf<'agent.interaction.request'>) => Answer) = 'reject', bound = 60_000): Promise<TurnResult> {
  const from = m.frames.length;
  const ends = () => m.frames.slice(from).some((f) => f.type === 'session.turn.end');
  const answered = new Set<string>();
  m.client.send('control.prompt.request', typeof text === 'string' ? { prompt_text: text } : text);
  const started = Date.now();
  while (!ends()) {
    if (Date.now() - started > bound) throw new Error(`the turn of ${JSON.stringify(JSON.stringify(text).slice(0, 60))} did not end in ${bound} ms`);
    for (const f of m.frames.slice(from)) {
      if (f.type !== 'agent.interaction.request' || answered.has(f.payload.interaction_id)) continue;
      answered.add(f.payload.interaction_id);
      const value = typeof answer === 'function' ? answer(f) : answer;
      m.client.send('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: value });
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const frames = m.frames.slice(from);
  return {
    asked: frames.filter((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request'),
    requests: frames.filter((f): f is FrameOf<'tool.invoke.request'> => f.type === 'tool.invoke.request'),
    results: frames.filter((f): f is FrameOf<'tool.invoke.result'> => f.type === 'tool.invoke.result'),
    text: frames
      .filter((f): f is FrameOf<'agent.text.done'> => f.type === 'agent.text.done')
      .map((f) => f.payload.full_text ?? '')
      .join('\n'),
  };
}

/**
 * Polls `/v1/health` every 25 ms until `done()` and returns the slowest answer in ms — how long
 * the server's event loop was unavailable while the work ran.
 */
export async function worstHealthLatency(url: string, done: () => boolean, bound = 120_000): Promise<number> {
  let worst = 0;
  const started = Date.now();
  while (!done() && Date.now() - started < bound) {
    const t = process.hrtime.bigint();
    const r = await http(`${url}/v1/health`);
    worst = Math.max(worst, Number(process.hrtime.bigint() - t) / 1e6);
    assert.equal(r.status, 200);
    await new Promise((res) => setTimeout(res, 25));
  }
  return worst;
}

export { http, waitFor };
