// Decision 555: the children we start that are not agent CLIs drop our own secrets (RAWP_TOKEN,
// RAWP_OPENAI_API_KEY) as agent CLIs do (decisions 542, 550): agent discovery's login shell and
// the @ index's `git`. Real processes record what they got: a real `bash -l -i` whose rc file
// writes its environment to a file, and a real `git` whose repository names a `core.fsmonitor`
// hook (git runs it for `ls-files`) that does the same.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverAgentDirs, loginShellPath } from '../../src/host/agentDiscovery';
import { listFiles } from '../../src/workspace/listFiles';

const BASH = '/bin/bash';
const OURS = { RAWP_TOKEN: 'tok_' + 'x'.repeat(40), RAWP_OPENAI_API_KEY: 'sk-ours' };
const THEIRS = { ANTHROPIC_API_KEY: 'sk-ant', GITHUB_TOKEN: 'ghp', RAWP_CLAUDE_PATH: '/opt/claude' };

/** `env` output parsed (values here have no newlines). */
function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

function assertStripped(seen: Record<string, string>, who: string): void {
  for (const k of Object.keys(OURS)) assert.equal(seen[k], undefined, `${k} reached ${who}`);
  for (const [k, v] of Object.entries(THEIRS)) assert.equal(seen[k], v, `${who} lost ${k}`);
}

/** Runs `fn` with `vars` set in this process's environment, then puts it back as it was. */
async function withProcessEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

describe('security: the login shell of agent discovery and the @ index\'s git never get our own secrets (decision 555)', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-childenv-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A HOME whose `.bash_profile` records the login shell's environment. */
  function recordingHome(): { home: string; seen: () => Record<string, string> } {
    const out = join(dir, 'shell.env');
    writeFileSync(join(dir, '.bash_profile'), `env > '${out}'\n`);
    return { home: dir, seen: () => parseEnv(readFileSync(out, 'utf8')) };
  }

  it('the login shell (bash -l -i) started with the caller\'s environment sees the agents\' keys but not RAWP_TOKEN or RAWP_OPENAI_API_KEY', async () => {
    const rec = recordingHome();
    const r = await loginShellPath({ env: { ...OURS, ...THEIRS, HOME: rec.home, SHELL: BASH, PATH: '/usr/bin:/bin' }, timeoutMs: 15_000 }, true);
    assert.ok(r.ok, JSON.stringify(r));
    assertStripped(rec.seen(), 'the login shell');
  });

  it('discovery\'s login shell with the default environment (process.env, as the editor and rawp serve leave it) does not see them either', async () => {
    const rec = recordingHome();
    const found = await withProcessEnv({ ...OURS, ...THEIRS, HOME: rec.home, SHELL: BASH }, () => discoverAgentDirs({ loginShell: { timeoutMs: 15_000 } }));
    assert.equal(found.loginShell?.ok, true, JSON.stringify(found.loginShell));
    assertStripped(rec.seen(), 'the login shell');
  });

  it('the @ index\'s git (listFiles) runs without RAWP_TOKEN and RAWP_OPENAI_API_KEY: a core.fsmonitor hook records its environment', async () => {
    const repo = join(dir, 'repo');
    const records = join(dir, 'git-env');
    const run = (...args: string[]) => assert.equal(spawnSync('git', args, { cwd: repo, encoding: 'utf8' }).status, 0, `git ${args.join(' ')}`);
    mkdirSync(repo);
    mkdirSync(records);
    run('init', '-q');
    writeFileSync(join(repo, 'tracked.ts'), 'x\n');
    writeFileSync(join(repo, 'untracked.md'), 'y\n');
    run('add', 'tracked.ts');
    // A hook that fails makes git scan the work tree itself, so the listing stays right.
    const hook = join(dir, 'fsmonitor.sh');
    writeFileSync(hook, `#!/bin/sh\nenv > '${records}'/env.$$\nexit 1\n`);
    chmodSync(hook, 0o755);
    run('config', 'core.fsmonitor', hook);
    const listing = await withProcessEnv({ ...OURS, ...THEIRS }, () => listFiles(repo, { caseSensitive: true }));
    assert.equal(listing.source, 'git');
    assert.deepEqual(listing.paths.sort(), ['tracked.ts', 'untracked.md']);
    const seen = readdirSync(records);
    assert.ok(seen.length >= 3, `git ran the hook ${seen.length} times`); // ls-files -c, -o, -d
    for (const f of seen) assertStripped(parseEnv(readFileSync(join(records, f), 'utf8')), `git (${f})`);
  });
});
