// Run by startUnderEmfile.test.ts under `ulimit -n 256`: takes every free file descriptor of this
// process (real EMFILE, no mock), then starts each kind of child process the host starts — a Bash
// command, an agent process, the login shell, a checkpoint git, an execFile probe — and prints what
// each gave as one JSON line. Before decision 562 the first of them ended this process with an
// unhandled 'error' event (`spawn /bin/sh EMFILE`). Then the descriptors are given back and the
// Bash command runs again.
import { closeSync, openSync } from 'node:fs';
import { AgentProcess } from '../../../src/agents/process/agentProcess';
import { codexLoggedIn } from '../../../src/agents/codex/authFailure';
import { loginShellPath } from '../../../src/host/agentDiscovery/loginShellEnv';
import { GitRunner } from '../../../src/host/checkpoints/gitRunner';
import { makeEnv } from './_env';

async function main(): Promise<void> {
  const env = makeEnv();
  env.host.answer = () => ({ kind: 'response', selected_value: 'allow_once' });
  // Everything loaded before the descriptors run out (a first command warms the tool runner).
  await env.call('Bash', { command: 'true' });
  const git = new GitRunner({ cwd: env.dir, env: { PATH: process.env.PATH ?? '' } });

  const held: number[] = [];
  for (;;) {
    try {
      held.push(openSync('/dev/null', 'r'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EMFILE') throw e;
      break;
    }
  }
  const out: Record<string, unknown> = { held: held.length };
  const bash = await env.call('Bash', { command: 'echo should-not-run' });
  out.bash = { status: bash.status, error_code: bash.error_code, output: bash.output };
  const agent = await AgentProcess.spawn({ command: '/bin/cat', args: [], session_id: 's', workspacePath: env.dir }).exited;
  out.agent = { spawnError: agent.spawnError };
  out.loginShell = await loginShellPath({ shell: '/bin/sh', env: { ...process.env, SHELL: '/bin/sh' } }, true);
  out.git = await git.raw(['--version']).then(
    (text) => ({ ok: text }),
    (e: Error) => ({ error: e.message }),
  );
  out.execFile = { loggedIn: (await codexLoggedIn('/bin/true', [], process.env, env.dir)) ?? 'unknown' };

  for (const fd of held) closeSync(fd);
  const again = await env.call('Bash', { command: 'echo back' });
  out.bashAfter = { status: again.status, output: again.output };
  out.gitAfter = await git.raw(['--version']).then((text) => text.trim(), (e: Error) => e.message);
  env.cleanup();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`child failed: ${String(e)}\n`);
    process.exit(3);
  },
);
