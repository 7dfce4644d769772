// Decision 549: `rawp serve` takes RAWP_TOKEN out of its own environment as it reads it, so no
// process the host starts later inherits the token, filtered or not. The witness was a child the host
// started with its whole environment: agent discovery's login shell (`$SHELL -l -i -c …`, decision
// 380), here a fake shell that writes what it got to a file. Before the fix it printed
// RAWP_TOKEN=<the token>. Since decision 555 that shell drops our secrets itself, so the witnesses
// of this decision are the host's /proc/PID/environ on Linux (every process of the user may read
// it) and resolveServeToken deleting the variable.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateToken } from '../../src/remote/auth';
import { resolveServeToken, TOKEN_ENV } from '../../src/remote/tokenSource';
import { serve, stopAll } from './serveProcess';

describe('security: rawp serve drops RAWP_TOKEN from its environment once read (decision 549)', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-tokenenv-'))));
  afterEach(async () => {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A "login shell" that records its environment and prints nothing (discovery then carries on without it). */
  function fakeShell(name: string): { shell: string; seen: () => string } {
    const shell = join(dir, name);
    const out = join(dir, `${name}.env`);
    writeFileSync(shell, `#!/bin/sh\nenv > '${out}'\n`);
    chmodSync(shell, 0o755);
    return { shell, seen: () => readFileSync(out, 'utf8') };
  }

  it('a child the host starts unfiltered (the login shell) never sees the token; the token from RAWP_TOKEN still opens the host', async () => {
    const token = generateToken();
    const fake = fakeShell('sh-env');
    const keys = { ANTHROPIC_API_KEY: 'sk-ant-for-the-agent', DATABASE_URL: 'postgres://u:db-pass-for-the-agent@h/db', GITHUB_PAT: 'ghp-for-the-agent' };
    const s = await serve({ tokenArgs: () => [], env: { [TOKEN_ENV]: token, SHELL: fake.shell, RAWP_ENVIRON_WITNESS: 'plain-setting', ...keys } });
    const seen = fake.seen(); // the login shell is asked before the listening line
    assert.match(seen, /^ANTHROPIC_API_KEY=sk-ant-for-the-agent$/m, 'the fake shell did record the environment');
    assert.ok(!seen.includes(token), 'the token reached the login shell');
    assert.doesNotMatch(seen, /^RAWP_TOKEN=/m);
    // Nor can any process of the user read it, or the keys the host keeps for its agents, from
    // the host's start environment (Linux; decision 668): a tool command could (`cat /proc/$PPID/environ`).
    if (process.platform === 'linux') {
      const environ = readFileSync(`/proc/${s.proc.pid}/environ`, 'utf8');
      assert.match(environ, /(^|\0)RAWP_ENVIRON_WITNESS=plain-setting\0/, 'read the host\'s own /proc/PID/environ');
      assert.ok(!environ.includes(token), 'the token is still in /proc/PID/environ');
      for (const [name, value] of Object.entries(keys)) assert.ok(!environ.includes(value), `${name} is still in /proc/PID/environ`);
    }
    const answer = await fetch(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200);
  });

  it('with --token-file, a RAWP_TOKEN also set in the environment is dropped too', async () => {
    const stray = generateToken();
    const fake = fakeShell('sh-env-file');
    const s = await serve({ env: { [TOKEN_ENV]: stray, SHELL: fake.shell } });
    assert.ok(!fake.seen().includes(stray));
    if (process.platform === 'linux') assert.ok(!readFileSync(`/proc/${s.proc.pid}/environ`, 'utf8').includes(stray));
    assert.equal((await fetch(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${s.token}` } })).status, 200);
    assert.equal((await fetch(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${stray}` } })).status, 401, 'the file wins, as before');
  });

  it('resolveServeToken reads RAWP_TOKEN and deletes it from the environment it was given, even when it is refused', () => {
    const token = generateToken();
    const env: NodeJS.ProcessEnv = { [TOKEN_ENV]: `${token}\n`, OTHER: 'kept' };
    assert.deepEqual(resolveServeToken({}, env), { kind: 'env', token });
    assert.deepEqual(env, { OTHER: 'kept' });
    const weak: NodeJS.ProcessEnv = { [TOKEN_ENV]: 'a'.repeat(40) };
    assert.throws(() => resolveServeToken({}, weak), /looks weak/);
    assert.equal(TOKEN_ENV in weak, false);
    const withFlag: NodeJS.ProcessEnv = { [TOKEN_ENV]: token };
    assert.deepEqual(resolveServeToken({ token: generateToken() }, withFlag).kind, 'given');
    assert.equal(TOKEN_ENV in withFlag, false);
    // The default is process.env itself.
    const before = process.env[TOKEN_ENV];
    process.env[TOKEN_ENV] = token;
    try {
      assert.equal(resolveServeToken({}).token, token);
      assert.equal(process.env[TOKEN_ENV], undefined);
    } finally {
      if (before !== undefined) process.env[TOKEN_ENV] = before;
    }
  });
});
