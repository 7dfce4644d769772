// Decision 562: a process start that fails because the host is out of file descriptors is that
// operation's error, never a crash. A child Node process under a real `ulimit -n 256` takes every
// free descriptor and starts a Bash command, an agent process, the login shell, a checkpoint git
// and an execFile probe (startUnderEmfile.child.ts). Before the fix it died at the first one with
// an unhandled 'error' event (`spawn /bin/sh EMFILE`).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(__dirname, 'startUnderEmfile.child.ts');

describe('tools: process starts when the host is out of file descriptors (EMFILE)', function () {
  this.timeout(60_000);

  it('the Bash tool answers "could not start … too many open files (EMFILE)"; agents, the login shell and git fail in words; the host lives on and runs the next command', function () {
    if (process.platform === 'win32') this.skip();
    const r = spawnSync('/bin/sh', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, '--require', 'tsx/cjs', CHILD], {
      cwd: join(__dirname, '..', '..', '..'),
      encoding: 'utf8',
      timeout: 50_000,
    });
    assert.equal(r.status, 0, `the child process ended ${r.status ?? r.signal}: ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, Record<string, unknown>> & { held: number };
    assert.ok(out.held > 100, `descriptors taken: ${out.held}`);

    assert.equal(out.bash.status, 'error');
    assert.equal(out.bash.error_code, 'BASH_SPAWN_FAILED');
    assert.equal(out.bash.output, 'The command could not start: the host has too many open files (EMFILE); try again once some are closed.');

    assert.match(String(out.agent.spawnError), /too many open files \(EMFILE\)/);
    assert.equal(out.loginShell.ok, false);
    assert.equal(out.loginShell.reason, 'failed');
    assert.match(String(out.loginShell.detail), /^\/bin\/sh could not start: the host has too many open files \(EMFILE\)/);
    assert.match(String(out.git.error), /^git --version could not start: the host has too many open files \(EMFILE\)/);
    assert.equal(out.execFile.loggedIn, 'unknown');

    // Descriptors given back: the same tool and git run again.
    assert.deepEqual(out.bashAfter, { status: 'success', output: 'back\n' });
    assert.match(String(out.gitAfter), /^git version /);
  });
});
