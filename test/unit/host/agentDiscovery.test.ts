// Agent discovery where VS Code users have their CLIs (decision 380), with real processes: a real
// login shell (bash -l -i) reading a temp HOME's rc file, real executable scripts, the setting and
// the older environment variable, the usual install folders.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { detectAgents } from '../../../src/agents/selection';
import { commonLocationCandidates, commonLocations, discoverAgentDirs, loginShellPath } from '../../../src/host/agentDiscovery';
import { DetectedAgents } from '../../../src/host/detectedAgents';
import { isRunning } from '../../support/processes';

const BASH = '/bin/bash';
const BASE_PATH = '/usr/bin:/bin';

function script(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('agent discovery: login shell, install folders, per-agent setting (decision 380)', function () {
  this.timeout(30000);
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'rawp-discovery-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('§17.2 a CLI that only the login shell has on PATH (its rc file adds the folder) is found, and that folder is on the agents’ PATH', async () => {
    const bin = path.join(home, 'tools', 'bin');
    const claude = script(path.join(bin, 'claude'), 'echo "2.0.77 (Claude Code)"');
    // Noise on stdout before and after: the markers keep it out of the environment.
    writeFileSync(path.join(home, '.bash_profile'), `echo "welcome $USER"\nexport PATH="${bin}:$PATH"\n`);
    const env = { HOME: home, SHELL: BASH, PATH: BASE_PATH };
    const shell = await loginShellPath({ env, timeoutMs: 15000 }, true);
    assert.ok(shell.ok, JSON.stringify(shell));
    assert.ok(shell.path.split(':').includes(bin), shell.path);
    const found = await discoverAgentDirs({ env, loginShell: { timeoutMs: 15000 } });
    assert.equal(found.fallbackDirs[0], bin, 'the login shell folders come first, after PATH');
    assert.ok(found.agentPath.startsWith(`${BASE_PATH}:`), found.agentPath);
    const list = await detectAgents({ env, fallbackDirs: found.fallbackDirs });
    const c = list.find((x) => x.id === 'claude-code')!;
    assert.deepEqual([c.status, c.command, c.version], ['available', claude, '2.0.77']);
    // Without the login shell the same machine has no claude; the editor (which passes its
    // settings) names its setting, `rawp serve` the environment variable (decision 607).
    const bare = (await detectAgents({ env, paths: {} })).find((x) => x.id === 'claude-code')!;
    assert.equal(bare.status, 'unavailable');
    assert.match(bare.reason ?? '', /rawp\.agents\.claude\.path/);
    assert.match((await detectAgents({ env })).find((x) => x.id === 'claude-code')?.reason ?? '', /RAWP_CLAUDE_PATH/);
  });

  it('§17.2 the host (`rawp serve`) gets the same discovery: DetectedAgents resolves the login-shell CLI', async () => {
    const bin = path.join(home, 'shellbin');
    script(path.join(bin, 'codex'), 'echo "codex-cli 0.99.1"');
    writeFileSync(path.join(home, '.bash_profile'), `export PATH="$PATH:${bin}"\n`);
    const agents = new DetectedAgents({ openai: {}, acpCommands: [], discovery: { env: { HOME: home, SHELL: BASH, PATH: BASE_PATH }, loginShell: { timeoutMs: 15000 } } });
    assert.equal(await agents.resolve('codex'), 'codex');
    assert.equal(agents.choices().find((c) => c.id === 'codex')?.name, 'Codex 0.99.1');
  });

  it('decision 644: an agent whose executable is removed after detection says so (stillThere); detected again it is listed unavailable with why; put back, it runs again', async () => {
    const bin = path.join(home, 'bin');
    const exe = script(path.join(bin, 'rawp-test-acp-agent'), 'exit 0');
    const agents = new DetectedAgents({ openai: {}, acpCommands: ['rawp-test-acp-agent --acp'], discovery: { env: { HOME: home, SHELL: BASH, PATH: `${bin}:${BASE_PATH}` }, loginShell: { timeoutMs: 15000 } } });
    await agents.resolve('builtin');
    const acp = () => agents.choices().find((c) => c.id === 'acp:rawp-test-acp-agent --acp')!;
    assert.deepEqual([acp().available, acp().stillThere?.()], [true, true]);
    rmSync(exe);
    assert.equal(acp().stillThere?.(), false, 'one stat tells it is gone');
    assert.equal(acp().available, true, 'the list is the detection\'s until detected again');
    await agents.detectAgain();
    assert.equal(acp().available, false);
    assert.match(acp().unavailable_reason ?? '', /`rawp-test-acp-agent` not found on PATH/);
    script(exe, 'exit 0');
    await agents.detectAgain();
    assert.deepEqual([acp().available, acp().stillThere?.()], [true, true]);
  });

  it('a login shell that hangs is abandoned at the timeout, its process group killed; detection goes on without it', async () => {
    const pidFile = path.join(home, 'shell.pid');
    writeFileSync(path.join(home, '.bash_profile'), `echo $$ > "${pidFile}"\nsleep 60\n`);
    const env = { HOME: home, SHELL: BASH, PATH: BASE_PATH };
    const t0 = Date.now();
    const r = await loginShellPath({ env, timeoutMs: 700 }, true);
    const took = Date.now() - t0;
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, 'timeout');
    assert.ok(took < 8000, `took ${took} ms`);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const deadline = Date.now() + 5000;
    while (isRunning(pid) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    assert.equal(isRunning(pid), false, 'the hung shell is gone');
    // Cached: asking again does not start another shell (same answer at once).
    const again = await loginShellPath({ env, timeoutMs: 700 });
    assert.deepEqual(again, r);
    const found = await discoverAgentDirs({ env, loginShell: { timeoutMs: 700 } });
    assert.equal(found.loginShell?.ok, false);
  });

  it('a shell that exits without printing its environment is reported, not trusted', async () => {
    const fakeShell = script(path.join(home, 'fakesh'), 'echo "PATH=/evil"; exit 3');
    const r = await loginShellPath({ env: { HOME: home, SHELL: fakeShell, PATH: BASE_PATH }, timeoutMs: 5000 }, true);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.detail : '', /exited with 3 without printing its environment/);
    const none = await loginShellPath({ env: { HOME: home, PATH: BASE_PATH } }, true);
    assert.equal(!none.ok && none.reason, 'no-shell');
  });

  it('the rawp.agents.<name>.path setting wins over PATH and RAWP_CLAUDE_PATH; the variable still works alone; a bad setting is named', async () => {
    const onPath = script(path.join(home, 'path', 'claude'), 'echo "1.0.0"');
    const viaVar = script(path.join(home, 'var', 'claude'), 'echo "1.1.0"');
    const viaSetting = script(path.join(home, 'setting', 'claude-custom'), 'echo "1.2.0"');
    const env = { PATH: path.dirname(onPath), RAWP_CLAUDE_PATH: viaVar };
    const pick = async (paths: Record<string, string>, e: NodeJS.ProcessEnv = env) => (await detectAgents({ env: e, paths })).find((c) => c.id === 'claude-code')!;
    assert.deepEqual([(await pick({ claude: viaSetting })).command, (await pick({ claude: viaSetting })).version], [viaSetting, '1.2.0']);
    assert.equal((await pick({})).command, viaVar, 'RAWP_CLAUDE_PATH is the fallback under the setting');
    assert.equal((await pick({}, { PATH: path.dirname(onPath) })).command, onPath);
    const bad = await pick({ claude: path.join(home, 'nope') });
    assert.equal(bad.status, 'unavailable');
    assert.match(bad.reason ?? '', /the setting rawp\.agents\.claude\.path \(.*nope\) is not an executable file/);
    // ACP presets have a setting each too (by preset name).
    const gem = script(path.join(home, 'g', 'gemini-wrapper'), 'echo "0.30.0"');
    const g = (await detectAgents({ env: { PATH: '/nonexistent' }, paths: { gemini: gem } })).find((c) => c.id === 'acp:gemini')!;
    assert.deepEqual([g.status, g.command, g.args], ['available', gem, ['--acp']]);
  });

  it('the usual install folders: ~/.claude/local, ~/.local/bin, ~/.npm-global/bin, Volta, asdf, nvm (newest first), Homebrew, /usr/local/bin', async () => {
    const env = { HOME: home, PATH: '/nonexistent' };
    const all = commonLocationCandidates({ env, platform: 'linux' });
    for (const d of [path.join(home, '.claude', 'local'), path.join(home, '.local', 'bin'), path.join(home, '.npm-global', 'bin'), path.join(home, '.volta', 'bin'), path.join(home, '.asdf', 'shims'), '/opt/homebrew/bin', '/usr/local/bin']) assert.ok(all.includes(d), d);
    assert.deepEqual(commonLocationCandidates({ env, platform: 'win32' }), []);
    // Only existing folders are searched; nvm's versions newest first.
    const claude = script(path.join(home, '.claude', 'local', 'claude'), 'echo "2.1.0"');
    for (const v of ['v18.20.0', 'v20.11.1', 'v9.1.0']) mkdirSync(path.join(home, '.nvm', 'versions', 'node', v, 'bin'), { recursive: true });
    const gemini = script(path.join(home, '.nvm', 'versions', 'node', 'v20.11.1', 'bin', 'gemini'), 'echo "0.31.0"');
    script(path.join(home, '.nvm', 'versions', 'node', 'v18.20.0', 'bin', 'gemini'), 'echo "0.10.0"');
    const existing = commonLocations({ env });
    const nvm = existing.filter((d) => d.includes('.nvm'));
    assert.deepEqual(nvm.map((d) => path.basename(path.dirname(d))), ['v20.11.1', 'v18.20.0', 'v9.1.0']);
    assert.ok(!existing.includes(path.join(home, '.volta', 'bin')), 'a folder that does not exist is not searched');
    const found = await discoverAgentDirs({ env, loginShell: false });
    const list = await detectAgents({ env, fallbackDirs: found.fallbackDirs });
    assert.equal(list.find((c) => c.id === 'claude-code')?.command, claude);
    assert.equal(list.find((c) => c.id === 'acp:gemini')?.command, gemini, 'the newest nvm version wins');
  });
});
