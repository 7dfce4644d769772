// Issue 17 with the real Claude Code and Codex CLIs (npm @anthropic-ai/claude-code, @openai/codex)
// against the scripted mock model server: only the model is scripted; the CLIs write the files
// themselves (Claude's Edit/Write/Bash, Codex's apply_patch), and the host's checkpoints see them
// at the file-system level. For each: the checkpoint lists exactly the edited, created and deleted
// files; a person's edit after the turn blocks that file; forced, the bytes come back; the rewind
// is undone; the user's own .git is untouched.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ClaudeCodeAdapter } from '../../../../src/agents/claudeCode';
import { CodexAdapter } from '../../../../src/agents/codex/adapter';
import type { AgentChoice } from '../../../../src/host/agentChoice';
import { buildFrame } from '../../../../src/protocol/build';
import { MockModelServer } from '../../../support/mockModel/server';
import { claude, installAnthropic } from '../../../support/mockModel/anthropic';
import { claudeEnv } from '../../../support/mockModel/claudeEnv';
import { installOpenAIResponses, responses } from '../../../support/mockModel/openaiResponses';
import { waitFor } from '../../remote/harness';
import { harness, type Harness } from '../harness';
import { AllowingView, byPath, fileHash, initUserRepo, userRepoFingerprint } from './support';

const CODEX = resolve(__dirname, '../../../../node_modules/.bin/codex');

/** The workspace both agents get: a file to edit, one to delete, one nobody touches. */
function seed(ws: string): void {
  writeFileSync(join(ws, 'a.txt'), 'hello\nworld\n');
  writeFileSync(join(ws, 'gone.txt'), 'delete me\n');
  writeFileSync(join(ws, 'keep.txt'), 'keep\n');
}

/** One turn of the agent, then rewind with a person's edit in the way, force, undo. */
async function scenario(h: Harness, agent: AgentChoice, prompt: string): Promise<void> {
  const ws = h.workspace;
  seed(ws);
  initUserRepo(ws);
  const repo = userRepoFingerprint(ws);
  const original = { a: fileHash(join(ws, 'a.txt')), gone: fileHash(join(ws, 'gone.txt')) };
  const host = h.makeHost({ agents: [agent], defaultAgent: agent.id });
  const id = await host.create({ agent: agent.id });
  const view = new AllowingView('view', host.hub);
  host.hub.attach(id, view);
  host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: prompt }, { session_id: id }));
  await waitFor(() => view.turnEnds() === 1, 'the turn ends', 90_000);
  assert.ok(fileHash(join(ws, 'new.txt')) && !fileHash(join(ws, 'gone.txt')), `the agent did its work: ${JSON.stringify(view.frames.filter((f) => f.type === 'tool.invoke.result').map((f) => ('payload' in f ? f.payload : f)))}`);
  const created = view.created();
  assert.equal(created.length, 1);
  assert.deepEqual(byPath(created[0].files), ['created new.txt', 'deleted gone.txt', 'modified a.txt']);
  const afterTurn = { a: fileHash(join(ws, 'a.txt')), created: readFileSync(join(ws, 'new.txt')) };

  writeFileSync(join(ws, 'a.txt'), 'a person typed this\n');
  const first = await host.checkpoints!.restore(id, created[0].checkpoint_id);
  assert.deepEqual(first.conflicts, ['a.txt'], "the person's edit blocks a.txt");
  assert.deepEqual(first.restored, ['gone.txt', 'new.txt']);
  assert.equal(fileHash(join(ws, 'gone.txt')), original.gone);
  assert.equal(fileHash(join(ws, 'new.txt')), undefined);
  assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a person typed this\n');
  const forced = await host.checkpoints!.restore(id, created[0].checkpoint_id, { force: ['a.txt'] });
  assert.deepEqual(forced.conflicts, []);
  assert.equal(fileHash(join(ws, 'a.txt')), original.a, 'forced: the bytes from before the turn');
  // Undo both rewinds, newest first.
  await host.checkpoints!.restore(id, forced.undo_checkpoint_id!);
  assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a person typed this\n');
  const undone = await host.checkpoints!.restore(id, first.undo_checkpoint_id!);
  assert.deepEqual(undone.conflicts, []);
  assert.deepEqual(readFileSync(join(ws, 'new.txt')), afterTurn.created);
  assert.equal(fileHash(join(ws, 'gone.txt')), undefined);
  assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'keep\n');
  assert.deepEqual(userRepoFingerprint(ws), repo, "the user's .git: HEAD^{tree}, index and refs unchanged");
  // Every master was told about each rewind.
  assert.equal(view.restored().length, 4);
  assert.ok(afterTurn.a !== original.a);
}

describe('checkpoints with the real agent CLIs against the scripted model (issue 17)', function () {
  this.timeout(180_000);
  let mock: MockModelServer;
  let h: Harness;
  const temps: string[] = [];
  beforeEach(async () => {
    mock = await MockModelServer.start();
    h = harness();
  });
  afterEach(async () => {
    await h.cleanup();
    await mock.stop();
    for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
  });

  it('§3.1.1 Claude Code: its Edit, Write and Bash rm give a checkpoint of exactly those files; rewind, conflict, force, undo', async () => {
    const key = installAnthropic(mock);
    const home = mkdtempSync(join(tmpdir(), 'rawp-cp-claude-home-'));
    temps.push(home);
    const ws = h.workspace;
    mock.enqueue(
      key,
      claude.tool('Read', { file_path: join(ws, 'a.txt') }),
      claude.tool('Edit', { file_path: join(ws, 'a.txt'), old_string: 'world', new_string: 'there' }),
      claude.tool('Write', { file_path: join(ws, 'new.txt'), content: 'made by claude\n' }),
      claude.tool('Bash', { command: 'rm gone.txt', description: 'delete gone.txt' }),
      claude.text('Done.'),
    );
    // Side calls (titles, command prefixes) get a plain answer and never take the scripted replies.
    mock.setFallback(key, claude.text('ok'));
    const agent: AgentChoice = { id: 'claude-code', name: 'Claude Code', available: true, rank: 5, create: () => new ClaudeCodeAdapter({ env: claudeEnv(mock.url, home), killGraceMs: 1500 }) };
    await scenario(h, agent, 'edit a.txt, create new.txt, delete gone.txt');
  });

  it('§3.1.1 Codex: one apply_patch that updates, adds and deletes gives a checkpoint of exactly those files; rewind, conflict, force, undo', async () => {
    const key = installOpenAIResponses(mock);
    const codexHome = mkdtempSync(join(tmpdir(), 'rawp-cp-codex-home-'));
    temps.push(codexHome);
    mkdirSync(join(codexHome, 'home'));
    writeFileSync(
      join(codexHome, 'config.toml'),
      ['model = "gpt-5.5"', 'model_provider = "mock"', '[model_providers.mock]', 'name = "mock"', `base_url = "${mock.url}/v1"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'),
    );
    mock.enqueue(key, responses.patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-world\n+there\n*** Add File: new.txt\n+made by codex\n*** Delete File: gone.txt\n*** End Patch\n'), responses.text('Patched.'));
    const env = { HOME: join(codexHome, 'home'), CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1' };
    const agent: AgentChoice = { id: 'codex', name: 'Codex', available: true, rank: 5, create: () => new CodexAdapter({ command: CODEX, env, killGraceMs: 2000 }) };
    await scenario(h, agent, 'patch the workspace');
  });
});
