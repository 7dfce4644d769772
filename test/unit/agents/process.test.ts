// The process contract (§17.2, §18) against real child processes: small Node scripts as fake agents.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentProcess, BoundedText, JsonLineReader, SingleTurnRunner, expandResumeFlag, mapExit, normalizeExitCode } from '../../../src/agents/process';

let dir: string;
const SESSION = '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

function script(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

function run(file: string, extra: Partial<Parameters<typeof AgentProcess.spawn>[0]> = {}) {
  const messages: unknown[] = [];
  const bad: string[] = [];
  const proc = AgentProcess.spawn({
    command: process.execPath,
    args: [file],
    session_id: SESSION,
    workspacePath: dir,
    killGraceMs: 400,
    onMessage: (v) => messages.push(v),
    onBadLine: (l) => bad.push(l),
    ...extra,
  });
  return { proc, messages, bad };
}

/** True when the pid is gone or a zombie (dead, waiting to be reaped). Polls up to 10 s (a loaded machine). */
async function isDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Wait for the first stdout message that satisfies `pred`. */
async function waitFor<T>(list: unknown[], pred: (v: unknown) => v is T, ms = 20_000): Promise<T> {
  // Bounded in time, not turns: a child node process can take seconds to start on a loaded machine.
  const deadline = Date.now() + ms;
  for (;;) {
    const hit = list.find(pred);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error('message never arrived: ' + JSON.stringify(list));
    await new Promise((r) => setTimeout(r, 25));
  }
}

const has = (key: string) => (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && key in v;

describe('agents/process: the §17.2 / §18 process contract', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-proc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('§17.2.1-1 injects RAWP_SESSION_ID, RAWP_WORKSPACE_PATH and RAWP_DPS_VERSION, and they cannot be overridden', async () => {
    const f = script('env.js', `console.log(JSON.stringify({ s: process.env.RAWP_SESSION_ID, w: process.env.RAWP_WORKSPACE_PATH, v: process.env.RAWP_DPS_VERSION, x: process.env.EXTRA, cwd: process.cwd() }))`);
    const { proc, messages } = run(f, { env: { EXTRA: 'yes', RAWP_DPS_VERSION: 'spoofed' } });
    const exit = await proc.exited;
    assert.equal(exit.code, 0);
    assert.deepEqual(messages, [{ s: SESSION, w: dir, v: 'rawp-dps-1.0', x: 'yes', cwd: dir }]);
  });

  it('§17.2.2-1 exit 0 ends the turn normally with no agent.error', async () => {
    const { proc } = run(script('ok.js', 'process.exit(0)'));
    const m = mapExit({ exit: await proc.exited, agent: 'fake', singleTurn: false });
    assert.equal(m.stop_reason, 'end_turn');
    assert.deepEqual(m.events, []);
  });

  it('§17.2.2-1 exit 1–127 maps to a fatal agent.error then turn end "error", with stderr surfaced in details', async () => {
    const { proc } = run(script('fail.js', 'process.stderr.write("loading config\\nboom: bad api key\\n"); process.exit(3)'));
    const exit = await proc.exited;
    const m = mapExit({ exit, agent: 'fake', singleTurn: false });
    assert.equal(m.stop_reason, 'error');
    assert.equal(m.events.length, 1);
    const e = m.events[0];
    assert.equal(e.type, 'agent.error');
    if (e.type !== 'agent.error') return;
    assert.equal(e.payload.severity, 'fatal');
    assert.equal(e.payload.error_code, 'PROCESS_EXIT');
    assert.match(e.payload.message, /code 3: boom: bad api key/);
    assert.match(String(e.payload.details?.stderr), /loading config\nboom: bad api key/);
    // Codex prints its error, then a stack backtrace: the message names the error, not "9: <unknown>".
    const { proc: p2 } = run(script('backtrace.js', 'process.stderr.write("WARNING: proceeding\\nError: thread/resume failed: no rollout found for thread id x (code -32600)\\n\\nStack backtrace:\\n   0: <unknown>\\n   9: <unknown>\\n"); process.exit(1)'));
    const withTrace = mapExit({ exit: await p2.exited, agent: 'codex', singleTurn: true }).events[0];
    assert.ok(withTrace.type === 'agent.error');
    assert.equal(withTrace.payload.message, 'codex exited with code 1: Error: thread/resume failed: no rollout found for thread id x (code -32600)');
    // A warning alone is no reason; a tracing ERROR line (timestamp first) is.
    const { proc: p3 } = run(script('warn.js', 'process.stderr.write("WARNING: proceeding, even though we could not create PATH aliases\\n"); process.exit(1)'));
    const warnOnly = mapExit({ exit: await p3.exited, agent: 'codex', singleTurn: true }).events[0];
    assert.ok(warnOnly.type === 'agent.error');
    assert.equal(warnOnly.payload.message, 'codex exited with code 1');
    const { proc: p4 } = run(script('traced.js', 'process.stderr.write("WARNING: proceeding\\n2026-12-05T10:00:00.000Z ERROR codex_exec: exceeded retry limit, last status: 429 Too Many Requests\\n2026-12-05T10:00:00.001Z  WARN codex_core: shutting down\\n"); process.exit(1)'));
    const traced = mapExit({ exit: await p4.exited, agent: 'codex', singleTurn: true }).events[0];
    assert.ok(traced.type === 'agent.error');
    assert.equal(traced.payload.message, 'codex exited with code 1: 2026-12-05T10:00:00.000Z ERROR codex_exec: exceeded retry limit, last status: 429 Too Many Requests');
    assert.equal(e.payload.details?.exit_code, 3);
  });

  it('§17.2.2-1 a signal death (code null) and a 128+N exit code both map to SIGNAL_EXIT', async () => {
    const { proc } = run(script('sig.js', 'process.kill(process.pid, "SIGSEGV"); setTimeout(() => {}, 5000)'));
    const exit = await proc.exited;
    assert.equal(exit.signal, 'SIGSEGV');
    assert.equal(normalizeExitCode(exit), 128 + 11);
    const bySignal = mapExit({ exit, agent: 'fake', singleTurn: false }).events[0];
    assert.equal(bySignal.type === 'agent.error' && bySignal.payload.error_code, 'SIGNAL_EXIT');

    const { proc: p2 } = run(script('137.js', 'process.exit(137)'));
    const m = mapExit({ exit: await p2.exited, agent: 'fake', singleTurn: false });
    const e = m.events[0];
    assert.equal(m.stop_reason, 'error');
    assert.ok(e.type === 'agent.error' && e.payload.error_code === 'SIGNAL_EXIT' && e.payload.severity === 'fatal');
    assert.match(e.type === 'agent.error' ? e.payload.message : '', /SIGKILL \(exit 137\)/);
  });

  it('§17.2.2-1 killed from outside, the message does not end with the agent\'s last (unrelated) stderr line; a crash of its own keeps it; details keep all stderr', async () => {
    const { proc } = run(script('warn-then-wait.js', 'console.error("WARN codex_core::config: ignoring unknown key"); console.log(JSON.stringify({ ready: true })); setInterval(() => {}, 1000)'));
    await new Promise((r) => setTimeout(r, 300));
    proc.signal('SIGKILL');
    const killed = mapExit({ exit: await proc.exited, agent: 'Codex', singleTurn: true }).events[0];
    assert.ok(killed.type === 'agent.error');
    assert.equal(killed.payload.message, 'Codex was killed by SIGKILL (exit 137)');
    assert.match(String(killed.payload.details?.stderr), /ignoring unknown key/);

    const { proc: p2 } = run(script('panic.js', 'console.error("thread main panicked at src/lib.rs:1: index out of bounds"); process.kill(process.pid, "SIGABRT"); setTimeout(() => {}, 5000)'));
    const crashed = mapExit({ exit: await p2.exited, agent: 'Codex', singleTurn: true }).events[0];
    assert.ok(crashed.type === 'agent.error');
    assert.match(crashed.payload.message, /^Codex was killed by SIGABRT \(exit 134\): thread main panicked/);
  });

  it('§17.2.3 stop sends SIGTERM first and SIGKILL after the grace period when the agent ignores it', async () => {
    const f = script('stubborn.js', 'process.on("SIGTERM", () => console.log(JSON.stringify({ term: true }))); console.log(JSON.stringify({ ready: true })); setInterval(() => {}, 1000)');
    const { proc, messages } = run(f);
    await waitFor(messages, has('ready'));
    const exit = await proc.stop(300);
    assert.deepEqual(messages, [{ ready: true }, { term: true }]);
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(proc.running, false);
  });

  it('§17.2.3 an agent that honours SIGTERM exits by it (no SIGKILL needed)', async () => {
    const { proc, messages } = run(script('polite.js', 'console.log(JSON.stringify({ ready: true })); setInterval(() => {}, 1000)'));
    await waitFor(messages, has('ready'));
    const exit = await proc.stop(10_000);
    assert.equal(exit.signal, 'SIGTERM');
  });

  it('§17.2.3 stopping kills the whole process group: a native child the launcher orphans on SIGTERM dies too', async () => {
    // The launcher exits at once on SIGTERM; its child ignores SIGTERM (like a native agent binary).
    const child = script('native.js', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)');
    const launcher = script(
      'launcher.js',
      `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'ignore' });
       process.on('SIGTERM', () => process.exit(0));
       setTimeout(() => console.log(JSON.stringify({ child: c.pid })), 100);
       setInterval(() => {}, 1000);`,
    );
    const { proc, messages } = run(launcher);
    const { child: childPid } = await waitFor(messages, (v): v is { child: number } => has('child')(v));
    process.kill(childPid, 0); // alive now
    await proc.stop(5000);
    assert.equal(await isDead(childPid), true, `child ${childPid} survived its launcher`);
  });

  it('no orphans: a background child left behind by a cleanly exiting agent is killed with its group', async () => {
    const child = script('bg.js', 'setInterval(() => {}, 1000)');
    const f = script('leaver.js', `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'ignore' }); c.unref(); console.log(JSON.stringify({ child: c.pid }));`);
    const { proc, messages } = run(f);
    const exit = await proc.exited;
    assert.equal(exit.code, 0);
    const { child: childPid } = await waitFor(messages, (v): v is { child: number } => has('child')(v));
    assert.equal(await isDead(childPid), true);
  });

  it('no orphans: a descendant that left the process group (its own session, like an agent\'s Bash) is killed on stop', async () => {
    const child = script('escapee.js', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)');
    const f = script('setsid.js', `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'ignore', detached: true }); console.log(JSON.stringify({ child: c.pid })); setInterval(() => {}, 1000);`);
    const { proc, messages } = run(f);
    const { child: childPid } = await waitFor(messages, (v): v is { child: number } => has('child')(v));
    const stat = readFileSync(`/proc/${childPid}/stat`, 'utf8');
    const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    assert.notEqual(pgid, proc.pid, 'the child really is in another group');
    await proc.stop(300);
    assert.equal(await isDead(childPid), true, `escaped child ${childPid} survived`);
  });

  it('no orphans: when the agent itself is SIGKILLed from outside, its escaped descendants die too', async () => {
    const child = script('escapee2.js', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)');
    const f = script('victim.js', `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'ignore', detached: true }); console.log(JSON.stringify({ child: c.pid })); setInterval(() => {}, 1000);`);
    const { proc, messages } = run(f);
    const { child: childPid } = await waitFor(messages, (v): v is { child: number } => has('child')(v));
    process.kill(proc.pid!, 'SIGKILL');
    const exit = await proc.exited;
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(await isDead(childPid), true, `child ${childPid} was orphaned`);
  });

  it('stdout: a bad line is reported and skipped, every good line still arrives', async () => {
    const f = script('noisy.js', 'process.stdout.write(JSON.stringify({a:1}) + "\\nWARNING not json\\n{\\"b\\":2}\\r\\n{\\"c\\":"); process.stdout.write("3}")');
    const { proc, messages, bad } = run(f);
    await proc.exited;
    assert.deepEqual(messages, [{ a: 1 }, { b: 2 }, { c: 3 }]);
    assert.deepEqual(bad, ['WARNING not json']);
  });

  it('JsonLineReader reassembles a multi-byte character split across chunks and survives a throwing handler', () => {
    const got: unknown[] = [];
    const bad: string[] = [];
    const r = new JsonLineReader({
      onMessage: (v) => {
        if ((v as { boom?: boolean }).boom) throw new Error('handler bug');
        got.push(v);
      },
      onBadLine: (_l, reason) => bad.push(reason),
    });
    const bytes = Buffer.from('{"t":"한글"}\n{"boom":true}\n{"t":"ok"}\n');
    for (let i = 0; i < bytes.length; i += 3) r.push(bytes.subarray(i, i + 3));
    r.end();
    assert.deepEqual(got, [{ t: '한글' }, { t: 'ok' }]);
    assert.equal(bad.length, 1);
    assert.match(bad[0], /handler failed: handler bug/);
  });

  it('stderr is kept bounded (head and tail) and says how much was dropped', () => {
    const b = new BoundedText(10, 20);
    b.append('HEAD-12345');
    for (let i = 0; i < 100; i++) b.append('x');
    b.append('THE-END');
    const t = b.text();
    assert.ok(t.startsWith('HEAD-12345'));
    assert.ok(t.endsWith('THE-END'));
    assert.match(t, /\[… 87 characters of stderr dropped …\]/);
    assert.ok(t.length < 100);
  });

  it('a command that cannot be started becomes a fatal SPAWN_FAILED agent.error, never a throw', async () => {
    const proc = AgentProcess.spawn({ command: join(dir, 'no-such-agent'), args: [], session_id: SESSION, workspacePath: dir });
    const exit = await proc.exited;
    assert.ok(exit.spawnError);
    const m = mapExit({ exit, agent: 'ghost', singleTurn: false });
    assert.equal(m.events[0].type === 'agent.error' && m.events[0].payload.error_code, 'SPAWN_FAILED');
    assert.equal(proc.send({ x: 1 }), false);
  });

  it('§18.3 resume_flag substitutes {session_id} as exactly one argument, and nothing before an id exists', () => {
    assert.deepEqual(expandResumeFlag('--resume {session_id}', 'abc-123 def'), ['--resume', 'abc-123 def']);
    assert.deepEqual(expandResumeFlag('resume {session_id}', undefined), []);
    assert.deepEqual(expandResumeFlag('--session={session_id}', 'x1'), ['--session=x1']);
  });

  describe('§18 single-turn processes', () => {
    // A fake single-turn agent: prints its session id (new or resumed) and the prompt from stdin.
    const agentBody = `
      const args = process.argv.slice(2);
      const i = args.indexOf('--resume');
      const id = i >= 0 ? args[i + 1] : 'sess-' + process.pid;
      let input = '';
      process.stdin.on('data', (c) => (input += c));
      process.stdin.on('end', () => {
        console.log(JSON.stringify({ session: id, resumed: i >= 0, prompt: input, pid: process.pid }));
        if (input === 'fail') { process.stderr.write('rate limited\\n'); process.exit(1); }
        if (input === 'hang') setInterval(() => {}, 1000);
      });`;

    function runner(prompts: string[]) {
      const f = script('single.js', agentBody);
      const seen: Array<{ session: string; resumed: boolean; prompt: string; pid: number }> = [];
      const r: SingleTurnRunner = new SingleTurnRunner({
        agent: 'fake-single',
        command: process.execPath,
        resume_flag: '--resume {session_id}',
        buildArgs: ({ resumeArgs }) => [f, ...resumeArgs],
        stdinText: () => prompts.shift(),
        session_id: SESSION,
        workspacePath: dir,
        killGraceMs: 300,
        onMessage: (v) => {
          const m = v as (typeof seen)[number];
          seen.push(m);
          r.agentSessionId ??= m.session;
        },
      });
      return { r, seen };
    }

    it('§18.2 exit 0 ends the turn, the session stays idle with no process, and §18.3-1 the next prompt respawns with --resume <agent session id>', async () => {
      const { r, seen } = runner(['first', 'second']);
      const t1 = await r.runTurn(new AbortController().signal);
      assert.equal(t1.stop_reason, 'end_turn');
      assert.deepEqual(t1.events, []);
      assert.equal(r.state, 'idle');
      assert.equal(r.process, undefined);
      assert.equal(await isDead(seen[0].pid), true);
      const t2 = await r.runTurn(new AbortController().signal);
      assert.equal(t2.stop_reason, 'end_turn');
      assert.equal(seen[1].resumed, true);
      assert.equal(seen[1].session, seen[0].session);
      assert.equal(seen[1].prompt, 'second');
      assert.notEqual(seen[1].pid, seen[0].pid);
    });

    it('§18.2 a non-zero exit is fatal (stderr surfaced) and terminates the session', async () => {
      const { r } = runner(['fail', 'again']);
      const t = await r.runTurn(new AbortController().signal);
      assert.equal(t.stop_reason, 'error');
      assert.equal(r.state, 'terminated');
      const e = t.events[0];
      assert.ok(e.type === 'agent.error' && e.payload.severity === 'fatal' && /rate limited/.test(String(e.payload.details?.stderr)));
      const after = await r.runTurn(new AbortController().signal);
      assert.equal(after.events[0].type === 'agent.error' && after.events[0].payload.error_code, 'SESSION_TERMINATED');
    });

    it('cancelling a running turn stops the process and leaves the session idle and resumable', async () => {
      const { r, seen } = runner(['hang', 'next']);
      const ac = new AbortController();
      const turn = r.runTurn(ac.signal);
      await waitFor(seen, (v): v is unknown => has('pid')(v));
      ac.abort();
      const t = await turn;
      assert.equal(t.stop_reason, 'cancelled');
      assert.deepEqual(t.events, []);
      assert.equal(r.state, 'idle');
      const t2 = await r.runTurn(new AbortController().signal);
      assert.equal(t2.stop_reason, 'end_turn');
      assert.equal(seen[1].resumed, true);
    });
  });
});
