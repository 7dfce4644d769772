// Agent selection: which CLIs are installed (real ones from node_modules/.bin, fake ones in temp
// dirs), their versions, reasons for the unavailable ones, and the choice for a session.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chooseAgent, createAgent, detectAgents, type AgentCandidate } from '../../../src/agents/selection';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { AcpAdapter } from '../../../src/agents/acp/adapter';

const BIN = path.resolve(__dirname, '../../../node_modules/.bin');
const pkgVersion = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

describe('agent selection', function () {
  this.timeout(20000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rawp-select-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('detects the installed CLIs with the versions of their npm packages (no process started)', async () => {
    const list = await detectAgents({ binDirs: [BIN], env: { PATH: '/nonexistent' } });
    const codex = list.find((c) => c.id === 'codex')!;
    assert.equal(codex.status, 'available');
    assert.equal(codex.version, pkgVersion('@openai/codex'));
    assert.equal(codex.single_turn_process, true);
    assert.equal(codex.resume_flag, 'resume {session_id}');
    const gemini = list.find((c) => c.id === 'acp:gemini')!;
    assert.equal(gemini.status, 'available');
    assert.equal(gemini.version, pkgVersion('@google/gemini-cli'));
    assert.deepEqual(gemini.args, ['--acp']);
    assert.equal(list.find((c) => c.id === 'builtin')?.status, 'available');
  });

  it('§5.4.1-style status: a missing CLI is unavailable with a reason that says how to install it', async () => {
    const list = await detectAgents({ binDirs: [], env: { PATH: dir } });
    for (const id of ['claude-code', 'codex', 'acp:gemini', 'acp:codex-acp']) {
      const c = list.find((x) => x.id === id)!;
      assert.equal(c.status, 'unavailable', id);
      assert.match(c.reason ?? '', /not found on PATH; install it with `npm i -g @/);
    }
  });

  it('a missing CLI\'s reason names the editor\'s setting only in the editor (paths given); rawp serve names the environment variable (decision 607)', async () => {
    const reasonOf = async (paths: Record<string, string> | undefined) => (await detectAgents({ binDirs: [], env: { PATH: dir }, ...(paths ? { paths } : {}) })).find((c) => c.id === 'claude-code')?.reason ?? '';
    const editor = await reasonOf({});
    assert.match(editor, /; install it with `npm i -g @anthropic-ai\/claude-code` or set rawp\.agents\.claude\.path$/);
    const serve = await reasonOf(undefined);
    assert.match(serve, /; install it with `npm i -g @anthropic-ai\/claude-code` or set RAWP_CLAUDE_PATH to its path$/);
    const gemini = (await detectAgents({ binDirs: [], env: { PATH: dir } })).find((c) => c.id === 'acp:gemini')?.reason ?? '';
    assert.doesNotMatch(gemini, /rawp\.agents/, 'no setting named where there is none');
  });

  it('a CLI outside any npm package is asked for its version; an explicit RAWP_CODEX_PATH wins', async () => {
    const fake = path.join(dir, 'codex');
    writeFileSync(fake, '#!/bin/sh\necho "codex-cli 9.8.7"\n');
    chmodSync(fake, 0o755);
    const viaPath = (await detectAgents({ env: { PATH: dir } })).find((c) => c.id === 'codex')!;
    assert.deepEqual([viaPath.status, viaPath.version, viaPath.command], ['available', '9.8.7', fake]);
    const wrong = (await detectAgents({ env: { PATH: dir, RAWP_CODEX_PATH: path.join(dir, 'nope') } })).find((c) => c.id === 'codex')!;
    assert.equal(wrong.status, 'unavailable');
    assert.match(wrong.reason ?? '', /RAWP_CODEX_PATH/);
  });

  it('the OpenAI-compatible agent needs an endpoint, and a key unless the server is local', async () => {
    const none = (await detectAgents({ env: { PATH: dir } })).find((c) => c.id === 'openai')!;
    assert.equal(none.status, 'unavailable');
    const remote = (await detectAgents({ env: { PATH: dir }, openai: { baseUrl: 'https://api.example.com/v1', model: 'm' } })).find((c) => c.id === 'openai')!;
    assert.match(remote.reason ?? '', /RAWP_OPENAI_API_KEY/);
    const local = (await detectAgents({ env: { PATH: dir }, openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama' } })).find((c) => c.id === 'openai')!;
    assert.equal(local.status, 'available');
    const keyed = (await detectAgents({ env: { PATH: dir, RAWP_OPENAI_API_KEY: 'k' }, openai: { baseUrl: 'https://api.example.com/v1', model: 'm' } })).find((c) => c.id === 'openai')!;
    assert.equal(keyed.status, 'available');
  });

  it('configured ACP command lines are detected like presets', async () => {
    const fake = path.join(dir, 'my-agent');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    const list = await detectAgents({ env: { PATH: dir }, acpCommands: ['my-agent --acp "--name=a b"', 'missing-agent'] });
    const mine = list.find((c) => c.id === 'acp:my-agent --acp "--name=a b"')!;
    assert.deepEqual([mine.status, mine.command, mine.args], ['available', fake, ['--acp', '--name=a b']]);
    assert.equal(list.find((c) => c.id === 'acp:missing-agent')?.status, 'unavailable');
  });

  describe('choosing', () => {
    const c = (id: string, status: AgentCandidate['status'], reason?: string): AgentCandidate => ({ id, displayName: id, adapter_type: 'process', status, ...(reason ? { reason } : {}) });
    const list = [c('builtin', 'available'), c('claude-code', 'unavailable', 'not installed'), c('codex', 'available'), c('acp:gemini', 'available')];

    it('the per-session choice wins; an unavailable choice is an error with its reason, never replaced silently', () => {
      const ok = chooseAgent(list, { requested: 'acp:gemini', defaultId: 'codex' });
      assert.equal(ok.ok && ok.agent.id, 'acp:gemini');
      const bad = chooseAgent(list, { requested: 'claude-code' });
      assert.equal(bad.ok, false);
      assert.match(!bad.ok ? bad.error : '', /claude-code is unavailable: not installed/);
      assert.equal(chooseAgent(list, { requested: 'nobody' }).ok, false);
    });

    it('the default setting, else the preference order; an unavailable default is noted', () => {
      const d = chooseAgent(list, { defaultId: 'acp:gemini' });
      assert.equal(d.ok && d.agent.id, 'acp:gemini');
      const fallback = chooseAgent(list, { defaultId: 'claude-code' });
      assert.ok(fallback.ok);
      assert.equal(fallback.agent.id, 'codex');
      assert.match(fallback.notes[0], /default agent claude-code is unavailable/);
    });

    it('the built-in offline agent when nothing else is there', () => {
      const only = chooseAgent([c('builtin', 'available'), c('codex', 'unavailable', 'x')]);
      assert.ok(only.ok);
      assert.equal(only.agent.id, 'builtin');
      assert.match(only.notes.join(' '), /built-in offline agent/);
    });
  });

  it('createAgent builds the adapter of a detected agent', async () => {
    const list = await detectAgents({ binDirs: [BIN], env: { PATH: '/nonexistent' } });
    assert.ok(createAgent(list.find((x) => x.id === 'codex')!, {}) instanceof CodexAdapter);
    const acp = createAgent(list.find((x) => x.id === 'acp:gemini')!, {});
    assert.ok(acp instanceof AcpAdapter);
    assert.equal(acp.info.id, 'acp:gemini');
    assert.throws(() => createAgent({ id: 'codex', displayName: 'Codex', adapter_type: 'process', status: 'unavailable', reason: 'gone' }, {}), /unavailable: gone/);
  });
});
