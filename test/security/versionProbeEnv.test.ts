// Decision 550: agent detection's `--version` probe starts each CLI with the environment agent
// sessions get (decision 542): our own secrets (RAWP_TOKEN, RAWP_OPENAI_API_KEY) dropped, the
// agents' keys and the rest kept. The probed CLI is a real fake: a script that writes the
// environment it got to a file and prints a version.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectAgents } from '../../src/agents/selection';

describe('security: the --version probe of agent detection never gets our own secrets (decision 550)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-probe-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A fake `name` CLI in `dir`: records its environment, answers `--version` with `version`. */
  function fakeCli(name: string, version: string): { exe: string; seen: () => Record<string, string> } {
    const exe = join(dir, name);
    const out = join(dir, `${name}.env.json`);
    writeFileSync(exe, `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env));\nconsole.log(${JSON.stringify(`${version} (fake)`)});\n`);
    chmodSync(exe, 0o755);
    return { exe, seen: () => JSON.parse(readFileSync(out, 'utf8')) as Record<string, string> };
  }

  const OURS = { RAWP_TOKEN: 'tok_' + 'x'.repeat(40), RAWP_OPENAI_API_KEY: 'sk-ours' };
  const THEIRS = { ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-oai', CLAUDE_CODE_OAUTH_TOKEN: 'oauth', GITHUB_TOKEN: 'ghp', HOME: '/home/someone' };

  it('a probed CLI found on PATH sees the agents\' keys but not RAWP_TOKEN or RAWP_OPENAI_API_KEY, and its version is read', async () => {
    const claude = fakeCli('claude', '9.8.7');
    // PATH is only the fake's folder, so no real CLI of this machine is probed.
    const found = await detectAgents({ env: { ...OURS, ...THEIRS, PATH: dir } });
    const c = found.find((a) => a.id === 'claude-code');
    assert.equal(c?.status, 'available');
    assert.equal(c?.version, '9.8.7', 'the probe ran and its answer was read');
    const seen = claude.seen();
    for (const k of Object.keys(OURS)) assert.equal(seen[k], undefined, `${k} reached the probe`);
    for (const [k, v] of Object.entries(THEIRS)) assert.equal(seen[k], v, k);
    assert.equal(seen.PATH, dir);
  });

  it('a CLI named by RAWP_CODEX_PATH (no secret) is probed with that variable and without ours', async () => {
    const codex = fakeCli('my-codex', '0.42.0');
    const found = await detectAgents({ env: { ...OURS, ANTHROPIC_API_KEY: 'sk-ant', RAWP_CODEX_PATH: codex.exe, PATH: join(dir, 'none') } });
    assert.equal(found.find((a) => a.id === 'codex')?.version, '0.42.0');
    const seen = codex.seen();
    assert.equal(seen.RAWP_TOKEN, undefined);
    assert.equal(seen.RAWP_OPENAI_API_KEY, undefined);
    assert.equal(seen.RAWP_CODEX_PATH, codex.exe);
    assert.equal(seen.ANTHROPIC_API_KEY, 'sk-ant');
  });

  it('the default environment is process.env, stripped the same way', async () => {
    const claude = fakeCli('claude', '1.0.0');
    const saved = { ...process.env };
    Object.assign(process.env, OURS, { ANTHROPIC_API_KEY: 'sk-ant-default', PATH: dir });
    try {
      const found = await detectAgents();
      assert.equal(found.find((a) => a.id === 'claude-code')?.version, '1.0.0');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    const seen = claude.seen();
    assert.equal(seen.RAWP_TOKEN, undefined);
    assert.equal(seen.RAWP_OPENAI_API_KEY, undefined);
    assert.equal(seen.ANTHROPIC_API_KEY, 'sk-ant-default');
  });
});
