// The Codex adapter against the real `codex` CLI (npm @openai/codex), with only the model scripted
// by the local mock (OpenAI Responses SSE). Each test gets a temp git workspace and a throwaway
// HOME and CODEX_HOME, and every produced stream must pass the `rawp validate` checks.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { MockModelServer } from '../../support/mockModel/server';
import { installOpenAIResponses, lastUserInput, responses } from '../../support/mockModel/openaiResponses';
import { RecordingHost } from '../../support/recordingHost';
import { isRunning } from '../../support/processes';

const CODEX = path.resolve(__dirname, '../../../node_modules/.bin/codex');

interface Env {
  dir: string;
  ws: string;
  codexHome: string;
  env: Record<string, string>;
}

function makeEnv(port: number): Env {
  const dir = mkdtempSync(path.join(tmpdir(), 'rawp-codex-'));
  const ws = path.join(dir, 'ws');
  const codexHome = path.join(dir, 'codex-home');
  const home = path.join(dir, 'home');
  for (const d of [ws, codexHome, home]) mkdirSync(d, { recursive: true });
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "http://127.0.0.1:${port}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return { dir, ws, codexHome, env: { HOME: home, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1' } };
}


async function waitFor(cond: () => boolean, what: string, ms = 20000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Codex adapter against the real codex CLI', function () {
  this.timeout(60000);
  let server: MockModelServer;
  let route: string;
  let env: Env;
  let adapter: CodexAdapter;
  let host: RecordingHost;

  before(async () => {
    server = await MockModelServer.start((s) => {
      route = installOpenAIResponses(s);
    });
  });
  after(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    server.reset();
    env = makeEnv(server.port);
    adapter = new CodexAdapter({ command: CODEX, env: env.env, killGraceMs: 2000 });
    host = new RecordingHost(env.ws);
    await host.open(adapter);
  });
  afterEach(async () => {
    await adapter.dispose();
    rmSync(env.dir, { recursive: true, force: true });
  });

  function assertValid(): void {
    const result = host.validate();
    assert.equal(result.errors, 0, host.problems());
    assert.deepEqual(host.invalid, []);
  }

  it('§4.1 plain text: an agent_message becomes agent.text.delta + done, usage from turn.completed (§7.3.1)', async () => {
    server.enqueue(route, responses.text('Hello from Codex', { usage: { input_tokens: 42, output_tokens: 7, cached_tokens: 5, reasoning_tokens: 2 } }));
    const t = await host.turn(adapter, 'say hello');
    assert.equal(t.outcome.stop_reason, 'end_turn');
    const deltas = host.ofType('agent.text.delta', t.frames);
    assert.equal(deltas.map((d) => d.payload.text).join(''), 'Hello from Codex');
    assert.equal(host.ofType('agent.text.done', t.frames)[0].payload.full_text, 'Hello from Codex');
    assert.deepEqual(t.outcome.usage, { input_tokens: 42, output_tokens: 7, cache_read_tokens: 5, thinking_tokens: 2 });
    assert.match(t.outcome.agent_session_id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(lastUserInput(server.requestsFor(route)[0].body), 'say hello');
    assertValid();
  });

  it('§4.2 thinking: a reasoning item becomes agent.thinking.delta + done before the text', async () => {
    server.enqueue(route, responses.reasoningThenText('Weighing the options.', 'Decided.'));
    const t = await host.turn(adapter, 'think');
    const types = t.frames.map((f) => f.type);
    const thinking = host.ofType('agent.thinking.delta', t.frames);
    assert.equal(thinking.map((d) => d.payload.text).join(''), 'Weighing the options.');
    assert.ok(types.indexOf('agent.thinking.done') < types.indexOf('agent.text.delta'));
    assertValid();
  });

  it('§5.2/§5.3 a shell command: command_execution becomes a Bash invocation with its output (A.1)', async () => {
    server.enqueue(route, responses.shell('echo one; echo two >&2; cat a.txt'), responses.text('Ran it.'));
    const t = await host.turn(adapter, 'run');
    const req = host.ofType('tool.invoke.request', t.frames);
    assert.equal(req.length, 1);
    assert.equal(req[0].payload.tool_name, 'Bash');
    assert.match(String(req[0].payload.input.command), /echo one/);
    const res = host.ofType('tool.invoke.result', t.frames)[0];
    assert.equal(res.payload.invocation_id, req[0].payload.invocation_id);
    assert.equal(res.payload.status, 'success');
    assert.equal(res.payload.output_type, 'text');
    for (const want of ['one', 'two', 'hello']) assert.match(String(res.payload.output), new RegExp(`^${want}$`, 'm'));
    assertValid();
  });

  it('§5.3.1 a failing command is a tool.invoke.result with status error and its exit code', async () => {
    server.enqueue(route, responses.shell('echo nope; exit 3'), responses.text('It failed.'));
    const t = await host.turn(adapter, 'fail');
    const res = host.ofType('tool.invoke.result', t.frames)[0];
    assert.equal(res.payload.status, 'error');
    assert.match(String(res.payload.output), /nope[\s\S]*\[exit code 3\]/);
    assertValid();
  });

  it('§5.3.3 an edit in default mode (workspace-write) changes the file on disk and reports its diff', async () => {
    server.enqueue(route, responses.patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello patched\n*** End Patch\n'), responses.text('Patched.'));
    const t = await host.turn(adapter, 'patch it', { mode: 'default' });
    assert.equal(readFileSync(path.join(env.ws, 'a.txt'), 'utf8'), 'hello patched\n');
    const req = host.ofType('tool.invoke.request', t.frames)[0];
    assert.equal(req.payload.tool_name, 'apply_patch');
    const res = host.ofType('tool.invoke.result', t.frames)[0];
    assert.equal(res.payload.status, 'success');
    assert.equal(res.payload.output_type, 'diff');
    assert.match(String(res.payload.output), /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n[\s\S]*-hello\n\+hello patched/);
    assertValid();
  });

  it('§5.3.3 an added and a deleted file come back as one diff with /dev/null sides', async () => {
    server.enqueue(route, responses.patch('*** Begin Patch\n*** Add File: b.txt\n+new file\n*** Delete File: a.txt\n*** End Patch\n'), responses.text('Moved.'));
    const t = await host.turn(adapter, 'move it');
    assert.equal(existsSync(path.join(env.ws, 'a.txt')), false);
    assert.equal(readFileSync(path.join(env.ws, 'b.txt'), 'utf8'), 'new file\n');
    const out = String(host.ofType('tool.invoke.result', t.frames)[0].payload.output);
    assert.match(out, /--- a\/a\.txt\n\+\+\+ \/dev\/null/);
    assert.match(out, /--- \/dev\/null\n\+\+\+ b\/b\.txt[\s\S]*\+new file/);
    assertValid();
  });

  it('§6.3.2 plan mode runs read-only: the patch is refused, the file is untouched, and the refusal Codex prints only on stderr is shown', async () => {
    server.enqueue(route, responses.patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hacked\n*** End Patch\n'), responses.text('Could not write.'));
    const t = await host.turn(adapter, 'patch it', { mode: 'plan' });
    assert.equal(readFileSync(path.join(env.ws, 'a.txt'), 'utf8'), 'hello\n');
    const warn = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'CODEX_PATCH_REJECTED');
    assert.ok(warn, host.problems());
    assert.equal(warn.payload.severity, 'warning');
    assert.match(warn.payload.message, /read-only sandbox/);
    assert.equal(t.outcome.stop_reason, 'end_turn');
    // The model was told, too.
    assert.match(JSON.stringify(server.requestsFor(route)[1].body), /patch rejected/);
    assertValid();
  });

  it('§6.3.2-1 in plan and review mode Codex is given no shell tool at all (prevented at the source), in default mode it is', async () => {
    const toolNames = (body: unknown) => ((body as { tools?: { name?: string; type?: string }[] }).tools ?? []).map((t) => t.name ?? t.type ?? '');
    for (const mode of ['plan', 'review', 'default'] as const) {
      server.reset();
      server.enqueue(route, responses.text('Looked.'));
      const t = await host.turn(adapter, 'look around', { mode });
      assert.equal(t.outcome.stop_reason, 'end_turn');
      const names = toolNames(server.requestsFor(route)[0].body);
      const shell = names.filter((n) => /^(shell|exec_command|local_shell|unified_exec)$/.test(n));
      if (mode === 'default') assert.ok(shell.length > 0, `default mode keeps the shell (tools: ${names.join(', ')})`);
      else assert.deepEqual(shell, [], `${mode} mode: no shell tool (tools: ${names.join(', ')})`);
    }
    assertValid();
  });

  it('§18 a second turn respawns codex with `resume <thread_id>` and the conversation goes on', async () => {
    server.enqueue(route, responses.text('First answer.'), responses.text('Second answer.'));
    const t1 = await host.turn(adapter, 'first question');
    const t2 = await host.turn(adapter, 'second question');
    assert.equal(t2.outcome.stop_reason, 'end_turn');
    assert.equal(t2.outcome.agent_session_id, t1.outcome.agent_session_id);
    // Codex reports running totals for the thread; each turn gets only its own share.
    assert.equal(t1.outcome.usage?.input_tokens, 20);
    assert.equal(t2.outcome.usage?.input_tokens, 20);
    const second = JSON.stringify(server.requestsFor(route)[1].body);
    assert.match(second, /first question/);
    assert.match(second, /First answer\./);
    assert.equal(lastUserInput(server.requestsFor(route)[1].body), 'second question');
    assertValid();
  });

  it('§18.3 a restored thread Codex no longer has (`exec resume` fails: no rollout found): the turn runs as a new thread, with a RESUME_FAILED warning, and the session lives on (decision 624)', async () => {
    await adapter.dispose();
    const gone = '0b9c2a6e-1111-4222-8333-444455556666';
    adapter = new CodexAdapter({ command: CODEX, env: env.env, killGraceMs: 2000, resumeThreadId: gone });
    host = new RecordingHost(env.ws);
    await host.open(adapter);
    server.enqueue(route, responses.text('A fresh start.'), responses.text('Still here.'));
    const t = await host.turn(adapter, 'where were we?');
    assert.equal(t.outcome.stop_reason, 'end_turn', host.problems());
    const warning = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'RESUME_FAILED');
    assert.ok(warning, 'the user is told the earlier conversation is not in Codex\'s memory');
    assert.equal(warning.payload.severity, 'warning');
    assert.ok(!host.ofType('agent.error', t.frames).some((e) => e.payload.severity === 'fatal'), 'no fatal error: the session goes on');
    assert.match(t.outcome.agent_session_id ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(t.outcome.agent_session_id, gone, 'a new thread');
    const t2 = await host.turn(adapter, 'and now?');
    assert.equal(t2.outcome.stop_reason, 'end_turn');
    assert.equal(t2.outcome.agent_session_id, t.outcome.agent_session_id, 'the new thread is resumed from then on');
    assertValid();
  });

  it('§6.1.2 cancel mid-turn stops the process group; the session stays resumable (§18.4)', async () => {
    server.enqueue(route, { items: [{ type: 'message', text: 'I am still thin' }], hang: true }, responses.text('After the cancel.'));
    const t = await host.turn(adapter, 'long task', { cancelAfter: waitFor(() => server.requests.length >= 1, 'the model request') });
    assert.equal(t.outcome.stop_reason, 'cancelled');
    assert.ok(host.ofType('control.prompt.cancel', t.frames).length === 1);
    const t2 = await host.turn(adapter, 'next');
    assert.equal(t2.outcome.stop_reason, 'end_turn');
    assert.equal(host.ofType('agent.text.done', t2.frames)[0].payload.full_text, 'After the cancel.');
    assertValid();
  });

  it('§7.4/§17.2.2 an API error becomes agent.error and the turn ends with stop_reason error', async () => {
    server.enqueue(route, responses.error(400, 'invalid_request_error', 'scripted bad request'));
    const t = await host.turn(adapter, 'boom');
    assert.equal(t.outcome.stop_reason, 'error');
    const errors = host.ofType('agent.error', t.frames);
    assert.ok(errors.some((e) => e.payload.error_code === 'CODEX_ERROR' && /scripted bad request/.test(e.payload.message)), host.problems());
    // Codex exits 1 after a failed turn: §17.2.2 makes that fatal.
    assert.ok(errors.some((e) => e.payload.error_code === 'PROCESS_EXIT' && e.payload.severity === 'fatal'));
    assertValid();
  });

  it('§17.2.2 codex killed with SIGKILL mid-turn: agent.error SIGNAL_EXIT (fatal), turn ends in error, no process left', async () => {
    server.enqueue(route, { items: [{ type: 'message', text: 'working' }], hang: true });
    let pid: number | undefined;
    const killer = waitFor(() => server.requests.length >= 1, 'the model request').then(() => {
      pid = (adapter as unknown as { runner: { process?: { pid?: number } } }).runner.process?.pid;
      assert.ok(pid, 'codex is running');
      process.kill(pid, 'SIGKILL');
    });
    const t = await host.turn(adapter, 'work');
    await killer;
    assert.equal(t.outcome.stop_reason, 'error');
    const sig = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'SIGNAL_EXIT');
    assert.ok(sig, host.problems());
    assert.equal(sig.payload.severity, 'fatal');
    await waitFor(() => !isRunning(pid!), 'codex to be gone', 5000);
    assertValid();
  });

  it('§18 a workspace that is not a git repository works too (the chosen workspace is the trust decision)', async () => {
    rmSync(path.join(env.ws, '.git'), { recursive: true, force: true });
    server.enqueue(route, responses.text('No git here.'));
    const t = await host.turn(adapter, 'hello');
    assert.equal(t.outcome.stop_reason, 'end_turn', host.problems());
    assert.equal(host.ofType('agent.text.done', t.frames)[0].payload.full_text, 'No git here.');
    assertValid();
  });

  it('§16.3 a file token reaches Codex as the workspace-relative path (Codex reads files itself)', async () => {
    server.enqueue(route, responses.text('Read it.'));
    await host.turn(adapter, 'explain <@file:ref_0|a.txt> please', { file_references: [{ ref_id: 'ref_0', path: 'a.txt', name: 'a.txt', workspace_relative_path: 'a.txt' }] });
    assert.equal(lastUserInput(server.requestsFor(route)[0].body), 'explain a.txt please');
    assertValid();
  });

  // The engine's tool policy (src/session/toolPolicy.ts, through RecordingHost.toolPolicy) meeting
  // the real codex. Codex runs its tools itself and never asks, so the refusal must reach it before
  // the turn: the prompt's lists become its command line (decision 614).
  it('§6.1.1 a prompt that denies Bash reaches Codex as no shell tool: the model\'s shell call is answered "unsupported call", nothing runs, the chat gets a warning and no tool call', async () => {
    host.toolPolicy = { denied_tools: ['Bash'] };
    server.enqueue(route, responses.shell('touch pwned.txt'), responses.text('I could not run it.'));
    const t = await host.turn(adapter, 'run it');
    assert.equal(t.outcome.stop_reason, 'end_turn');
    assert.equal(existsSync(path.join(env.ws, 'pwned.txt')), false, 'the command did not run');
    assert.deepEqual(host.ofType('control.prompt.request', t.frames)[0].payload.config_overrides, { denied_tools: ['Bash'] });
    const [first, second] = server.requestsFor(route);
    const tools = ((first.body as { tools?: { name?: string; type?: string }[] }).tools ?? []).map((x) => x.name ?? x.type ?? '');
    assert.deepEqual(tools.filter((n) => /^(shell|exec_command|local_shell|unified_exec)$/.test(n)), [], `no shell tool offered (tools: ${tools.join(', ')})`);
    assert.match(JSON.stringify(second.body), /"function_call_output"[^}]*"output":"unsupported call: exec_command"/, 'the model is told the call is not supported');
    assert.equal(host.ofType('tool.invoke.request', t.frames).length, 0, 'no call to show: none ran');
    const warn = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'CODEX_TOOL_ERROR');
    assert.ok(warn, host.problems());
    assert.equal(warn.payload.severity, 'warning');
    assert.equal(warn.payload.message, 'Codex tried to run a command, but Bash is not allowed for this prompt: Codex had no shell, and nothing ran.', 'said in the turn\'s words, not Codex\'s internals');
    assert.match(JSON.stringify(warn.payload.details), /unsupported call: exec_command/, 'Codex\'s own line kept in the details');
    assert.deepEqual(host.checks, [], 'Codex never asks: the policy went in on its command line');
    assertValid();
  });

  it('§6.1.1 a prompt that denies apply_patch reaches Codex as a read-only sandbox: the patch is rejected, the file is untouched, the model and the chat are told', async () => {
    host.toolPolicy = { denied_tools: ['apply_patch'] };
    server.enqueue(route, responses.patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hacked\n*** End Patch\n'), responses.text('I could not write.'));
    const t = await host.turn(adapter, 'patch it');
    assert.equal(t.outcome.stop_reason, 'end_turn');
    assert.equal(readFileSync(path.join(env.ws, 'a.txt'), 'utf8'), 'hello\n');
    assert.match(JSON.stringify(server.requestsFor(route)[1].body), /"custom_tool_call_output"[^}]*patch rejected: writing is blocked by read-only sandbox/);
    assert.equal(host.ofType('tool.invoke.request', t.frames).length, 0, 'Codex reports no file change for a rejected patch');
    const warn = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'CODEX_PATCH_REJECTED');
    assert.ok(warn, host.problems());
    assert.match(warn.payload.message, /read-only sandbox/);
    assertValid();
  });
});
