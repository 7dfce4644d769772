import { strict as assert } from 'node:assert';
import { makeEnv, type Env } from './_env';
import { isRunning } from '../../support/processes';

/** A process exists and is not a zombie waiting for its (re)parent to reap it. */

/** Waits (bounded by mocha's timeout, not asserted on time) until every pid is gone. */
async function allGone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (pids.every((p) => !isRunning(p))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

function pidsIn(text: string): number[] {
  return [...text.matchAll(/PID=(\d+)/g)].map((m) => Number(m[1]));
}

describe('tools: Bash', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv({ settings: { killGraceMs: 300 } });
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_once' });
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  it('§5.3.2 streams stdout and stderr as tool.invoke.stream in order with sequence from 0', async () => {
    const r = await env.call('Bash', { command: 'echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three' });
    assert.equal(r.status, 'success');
    assert.equal(r.output_type, 'text');
    const streams = env.host.ofType('tool.invoke.stream');
    assert.deepEqual(streams.map((s) => s.payload.sequence), streams.map((_, i) => i));
    assert.deepEqual(streams.map((s) => [s.payload.stream_type, s.payload.chunk]), [
      ['stdout', 'one\n'],
      ['stderr', 'two\n'],
      ['stdout', 'three\n'],
    ]);
    assert.ok(streams.every((s) => s.payload.invocation_id === r.invocation_id && s.payload.tool_name === 'Bash'));
    assert.equal(r.output, 'one\ntwo\nthree\n');
    const types = env.host.types();
    assert.equal(types[0], 'tool.invoke.request');
    assert.equal(types[types.length - 1], 'tool.invoke.result');
    assert.ok(types.indexOf('agent.interaction.request') < types.indexOf('tool.invoke.stream'), '§13.3 permission before running');
  });

  it('§5.3.1 a nonzero exit is an error result with the exit code', async () => {
    const r = await env.call('Bash', { command: 'echo oops >&2; exit 3' });
    assert.equal(r.status, 'error');
    assert.equal(r.error_code, 'NONZERO_EXIT');
    assert.match(String(r.output), /oops\n\(exit code 3\)/);
  });

  it('§5.3.1 a timeout kills the whole process tree and reports status timeout (no orphans, by PID)', async () => {
    const r = await env.call('Bash', {
      command: 'sleep 30 & echo PID=$!; (sleep 30; echo never) & echo PID=$!; echo PID=$$; wait',
      timeout: 400,
    });
    assert.equal(r.status, 'timeout');
    assert.match(String(r.output), /timed out after 400 ms/);
    const pids = pidsIn(String(r.output));
    assert.equal(pids.length, 3);
    assert.ok(await allGone(pids), `processes left: ${pids.filter(isRunning).join(', ')}`);
  });

  it('§6.1.2 cancel kills the whole process tree, including one that ignores SIGTERM, and reports cancelled', async () => {
    const ac = new AbortController();
    const pending = env.runner.invoke('Bash', { command: "sh -c 'trap \"\" TERM; echo PID=$$; sleep 30' & echo PID=$$; wait" }, ac.signal);
    while (pidsIn(env.host.ofType('tool.invoke.stream').map((s) => s.payload.chunk).join('')).length < 2) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const r = await pending;
    assert.equal(r.status, 'cancelled');
    const pids = pidsIn(String(r.output));
    assert.equal(pids.length, 2);
    assert.ok(await allGone(pids), `processes left: ${pids.filter(isRunning).join(', ')}`);
    const result = env.host.ofType('tool.invoke.result')[0];
    assert.equal(result.payload.status, 'cancelled');
  });

  it('§5.3.1 background jobs left by a finished command are killed too', async () => {
    const r = await env.call('Bash', { command: 'sleep 30 & echo PID=$!' });
    assert.equal(r.status, 'success');
    const pids = pidsIn(String(r.output));
    assert.equal(pids.length, 1);
    assert.ok(await allGone(pids));
  });

  it('§5.3.1 long output is truncated with truncated: true, never silently', async () => {
    const small = makeEnv({ settings: { maxOutputChars: 100 } });
    try {
      const r = await small.call('Bash', { command: 'seq 1 1000' });
      assert.equal(r.truncated, true);
      // The start and the end are kept, and the mark counts what lies between (decision 537).
      const out = String(r.output);
      assert.match(out, /^1\n2\n/);
      assert.match(out, /999\n1000\n$/);
      const total = Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join('').length;
      const [, cut] = /\[… (\d+) characters left out here …\]/.exec(out) ?? [];
      assert.equal(Number(cut), total - 100);
      const frame = small.host.ofType('tool.invoke.result')[0];
      assert.equal(frame.payload.truncated, true);
      // The live stream still carried everything.
      assert.equal(small.host.ofType('tool.invoke.stream').map((s) => s.payload.chunk).join('').split('\n').length, 1001);
    } finally {
      small.cleanup();
    }
  });

  it('§5.3.1 commands run in the workspace folder', async () => {
    const r = await env.call('Bash', { command: 'pwd' });
    assert.equal(String(r.output).trim(), env.runner.cwd);
  });
});
