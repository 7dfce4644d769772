// The OpenAI-compatible adapter (agent loop in the host) against a scripted chat-completions
// server: real tools, real files in a temp workspace, real permission prompts through the host.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import type { InteractionAnswer } from '../../../src/session/agentAdapter';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { MockModelServer } from '../../support/mockModel/server';
import { chat, installChatCompletions, type ChatReply } from '../../support/mockModel/chatCompletions';
import { RecordingHost } from '../../support/recordingHost';

type Policy = (req: PayloadOf<'agent.interaction.request'>) => InteractionAnswer;

describe('OpenAI-compatible adapter (agent loop in the host) against a scripted chat-completions server', function () {
  this.timeout(30000);
  let server: MockModelServer;
  let route: string;
  let dir: string;
  let ws: string;
  let adapter: OpenAIAdapter;
  let host: RecordingHost;
  let policy: Policy;

  before(async () => {
    server = await MockModelServer.start((s) => {
      route = installChatCompletions(s);
    });
  });
  after(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    server.reset();
    dir = mkdtempSync(path.join(tmpdir(), 'rawp-openai-'));
    ws = path.join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    policy = () => ({ kind: 'response', selected_value: 'allow_once' });
    adapter = new OpenAIAdapter({ baseUrl: `${server.url}/v1`, model: 'mock-model', apiKey: 'sk-test' });
    host = new RecordingHost(ws, (req) => policy(req));
    await host.open(adapter);
  });
  afterEach(async () => {
    await adapter.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function assertValid(): void {
    const r = host.validate();
    assert.equal(r.errors, 0, host.problems());
    assert.deepEqual(host.invalid, []);
  }

  it('§4.1/§7.3.1 plain text streams as deltas; usage and the API key reach the request', async () => {
    server.enqueue(route, chat.text('Hello from a local model', { usage: { prompt_tokens: 11, completion_tokens: 4 } }));
    const t = await host.turn(adapter, 'hi');
    assert.equal(t.outcome.stop_reason, 'end_turn');
    assert.equal(host.ofType('agent.text.delta', t.frames).map((d) => d.payload.text).join(''), 'Hello from a local model');
    assert.deepEqual(t.outcome.usage, { input_tokens: 11, output_tokens: 4, context_used: 15 }, 'the call held its prompt and answer (§7.3.1 context_window.used; no capacity: the window is not known, decision 730)');
    const req = server.requestsFor(route)[0];
    assert.equal(req.headers.authorization, 'Bearer sk-test');
    const body = req.body as { tools: Array<{ function: { name: string } }>; stream: boolean };
    assert.equal(body.stream, true);
    assert.deepEqual(
      body.tools.map((t) => t.function.name),
      ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'LS', 'Bash', 'TodoRead', 'TodoWrite'],
    );
    assertValid();
  });

  it('§4.2 reasoning_content streams as agent.thinking.delta before the text', async () => {
    server.enqueue(route, chat.reasoningThenText('Let me think about it.', 'Done thinking.'));
    const t = await host.turn(adapter, 'think');
    assert.equal(host.ofType('agent.thinking.delta', t.frames).map((d) => d.payload.text).join(''), 'Let me think about it.');
    const types = t.frames.map((f) => f.type);
    assert.ok(types.indexOf('agent.thinking.done') < types.indexOf('agent.text.delta'));
    assertValid();
  });

  it('§13.3 read + edit with permission allowed: the file changes on disk, results go back to the model', async () => {
    const file = path.join(ws, 'a.txt');
    server.enqueue(route, chat.tool('Read', { file_path: file }), chat.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'hello edited' }), chat.text('Edited.'));
    const t = await host.turn(adapter, 'edit a.txt');
    assert.equal(t.outcome.stop_reason, 'end_turn');
    assert.equal(readFileSync(file, 'utf8'), 'hello edited\n');
    assert.equal(host.ofType('agent.interaction.request', t.frames)[0].payload.context?.tool_name, 'Edit');
    const edit = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Edit')!;
    assert.equal(edit.payload.status, 'success');
    assert.equal(edit.payload.output_type, 'diff');
    const third = server.requestsFor(route)[2].body as { messages: Array<{ role: string; content: string | null }> };
    assert.ok(third.messages.some((m) => m.role === 'tool' && /hello/.test(String(m.content))), 'tool results go back as role=tool messages');
    assertValid();
  });

  it('§17.3.1 edit with permission denied: the file is untouched and the model is told', async () => {
    const file = path.join(ws, 'a.txt');
    policy = () => ({ kind: 'response', selected_value: 'reject' });
    server.enqueue(route, chat.tool('Read', { file_path: file }), chat.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'nope' }), chat.text('OK, left it.'));
    const t = await host.turn(adapter, 'edit a.txt');
    assert.equal(readFileSync(file, 'utf8'), 'hello\n');
    const edit = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Edit')!;
    assert.equal(edit.payload.status, 'error');
    const third = JSON.stringify(server.requestsFor(route)[2].body);
    assert.match(third, /PERMISSION_REJECTED|reject/i);
    assertValid();
  });

  it('read-before-write: an Edit of a file the model never read is refused before any prompt', async () => {
    server.enqueue(route, chat.tool('Edit', { file_path: path.join(ws, 'a.txt'), old_string: 'hello', new_string: 'blind' }), chat.text('I should read first.'));
    const t = await host.turn(adapter, 'edit blind');
    assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'hello\n');
    assert.equal(host.ofType('agent.interaction.request', t.frames).length, 0);
    assert.match(String(host.ofType('tool.invoke.result', t.frames)[0].payload.output), /FS_NOT_OBSERVED/);
    assertValid();
  });

  it('§5.3.2 a shell command streams its output as tool.invoke.stream before the result; parallel calls share a group (§13.4)', async () => {
    server.enqueue(
      route,
      chat.tools([
        { name: 'Bash', arguments: { command: 'echo one; echo two' } },
        { name: 'LS', arguments: { path: ws } },
      ]),
      chat.text('Ran.'),
    );
    const t = await host.turn(adapter, 'run');
    const streams = host.ofType('tool.invoke.stream', t.frames);
    assert.ok(streams.length > 0, host.problems());
    assert.match(streams.map((s) => s.payload.chunk).join(''), /one\ntwo/);
    const reqs = host.ofType('tool.invoke.request', t.frames);
    assert.equal(reqs.length, 2);
    assert.ok(reqs[0].payload.parallel_group_id && reqs[0].payload.parallel_group_id === reqs[1].payload.parallel_group_id);
    assertValid();
  });

  it('§6.1.2 cancel mid-stream: the open text block ends with is_cancelled and the turn is cancelled', async () => {
    server.enqueue(route, { content: 'A long answer that never ends', hang: true });
    const t = await host.turn(adapter, 'go', { cancelWhen: (f) => f.type === 'agent.text.delta' });
    assert.equal(t.outcome.stop_reason, 'cancelled');
    const done = host.ofType('agent.text.done', t.frames);
    assert.equal(done.length, 1);
    assert.equal(done[0].payload.is_cancelled, true);
    assertValid();
  });

  it('a second turn sends the whole conversation again (the model keeps context)', async () => {
    server.enqueue(route, chat.text('First.'), chat.text('Second.'));
    await host.turn(adapter, 'one');
    await host.turn(adapter, 'two');
    const msgs = (server.requestsFor(route)[1].body as { messages: Array<{ role: string; content: string | null }> }).messages;
    assert.deepEqual(
      msgs.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'one'],
        ['assistant', 'First.'],
        ['user', 'two'],
      ],
    );
    assertValid();
  });

  it('§7.4 an API error becomes agent.error with the server message and stop_reason error', async () => {
    server.enqueue(route, chat.error(429, 'rate_limit_exceeded', 'slow down (scripted)'));
    const t = await host.turn(adapter, 'hi');
    assert.equal(t.outcome.stop_reason, 'error');
    const e = host.ofType('agent.error', t.frames)[0];
    assert.equal(e.payload.error_code, 'API_ERROR');
    assert.match(e.payload.message, /429[\s\S]*slow down \(scripted\)/);
    assertValid();
  });

  it('a base URL keeps its query after the path (Azure ?api-version=), and its secrets are never shown: a key in the query is *** in the capability frame and in errors, a user:password URL is refused in words without the password (decision 582)', async () => {
    const secret = 's3cretq';
    const queried = new OpenAIAdapter({ baseUrl: `${server.url}/v1/?api-version=2024-10-21&api_key=${secret}`, model: 'mock-model', apiKey: 'sk-test' });
    const h = new RecordingHost(ws, (req) => policy(req));
    try {
      const started = await h.open(queried);
      const shown = String(started.capabilities.extensions?.base_url);
      assert.equal(shown, `${server.url}/v1/?api-version=2024-10-21&api_key=***`);
      server.enqueue(route, chat.text('ok'));
      const t = await h.turn(queried, 'hi');
      assert.equal(t.outcome.stop_reason, 'end_turn');
      const req = server.requestsFor(route)[0];
      assert.deepEqual([req.path, req.query.get('api-version'), req.query.get('api_key')], ['/v1/chat/completions', '2024-10-21', secret], 'the query goes after the path, whole');
      server.enqueue(route, chat.error(500, 'server_error', 'scripted failure'));
      const failed = await h.turn(queried, 'again');
      const e = h.ofType('agent.error', failed.frames)[0];
      assert.match(e.payload.message, /HTTP 500 from .*api_key=\*\*\*/);
      assert.ok(!JSON.stringify(h.frames).includes(secret), 'the key is in no frame');
    } finally {
      await queried.dispose();
    }
    const withPassword = new OpenAIAdapter({ baseUrl: 'http://user:s3cretpass@127.0.0.1:9/v1', model: 'mock-model', apiKey: 'sk-test' });
    const h2 = new RecordingHost(ws, (req) => policy(req));
    try {
      const started = await h2.open(withPassword);
      assert.match(started.diagnostics?.find((d) => d.code === 'BASE_URL_INVALID')?.message ?? '', /holds a user name or password.*RAWP_OPENAI_API_KEY/);
      const t = await h2.turn(withPassword, 'hi');
      assert.equal(t.outcome.stop_reason, 'error');
      assert.match(h2.ofType('agent.error', t.frames)[0].payload.message, /holds a user name or password/);
      assert.ok(!JSON.stringify(h2.frames).includes('s3cretpass'), 'the password is in no frame (it was printed twice)');
    } finally {
      await withPassword.dispose();
    }
  });

  it('§6.3.2 plan mode: the runner refuses a write before it runs', async () => {
    server.enqueue(route, chat.tool('Write', { file_path: path.join(ws, 'new.txt'), content: 'x' }), chat.text('Cannot write in plan mode.'));
    const t = await host.turn(adapter, 'write', { mode: 'plan' });
    const r = host.ofType('tool.invoke.result', t.frames)[0];
    assert.equal(r.payload.status, 'error');
    assert.match(String(r.payload.output), /not allowed in current mode/i);
    assertValid();
  });

  it('§7.4 an unreachable server is an agent.error API_UNREACHABLE, not a crash', async () => {
    const closed = await MockModelServer.start();
    const url = closed.url;
    await closed.stop();
    const lonely = new OpenAIAdapter({ baseUrl: `${url}/v1`, model: 'm' });
    const h = new RecordingHost(ws);
    await h.open(lonely);
    const t = await h.turn(lonely, 'hi');
    assert.equal(t.outcome.stop_reason, 'error');
    assert.equal(h.ofType('agent.error', t.frames)[0].payload.error_code, 'API_UNREACHABLE');
    assert.equal(h.validate().errors, 0, h.problems());
  });

  it('§7.4 a model stream that goes quiet ends the turn with API_TIMEOUT after the idle limit, not never (the CLI trial of 2026-12-06: rawp run waited 300 s for a stalled server)', async () => {
    const quiet = new OpenAIAdapter({ baseUrl: `${server.url}/v1`, model: 'mock-model', idleTimeoutMs: 400 });
    const h = new RecordingHost(ws);
    await h.open(quiet);
    try {
      server.enqueue(route, chat.text('Half an ans', { hang: true }));
      const t = await h.turn(quiet, 'hi');
      assert.equal(t.outcome.stop_reason, 'error');
      const e = h.ofType('agent.error', t.frames)[0];
      assert.equal(e.payload.error_code, 'API_TIMEOUT');
      assert.match(e.payload.message, /sent nothing for 0\.4 s, so the turn was stopped$/);
      assert.equal(h.ofType('agent.text.delta', t.frames).map((d) => d.payload.text).join(''), 'Half an ans', 'what came is kept');
      for (let i = 0; i < 50 && !server.requestsFor(route).at(-1)?.aborted; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(server.requestsFor(route).at(-1)?.aborted, true, 'the request was given up');
      assert.equal(h.validate().errors, 0, h.problems());
      // A server that never sends its headers is given up the same way.
      server.enqueue(route, chat.text('late', { delayMs: 5_000 }));
      const headless = await h.turn(quiet, 'again');
      assert.equal(h.ofType('agent.error', headless.frames)[0]?.payload.error_code, 'API_TIMEOUT');
    } finally {
      await quiet.dispose();
    }
  });

  it('§7.4 a stream whose data is not JSON is an API_ERROR, not an empty answer that ended well (the CLI trial of 2026-12-06)', async () => {
    server.enqueue<ChatReply>(route, { rawData: ['{not json', '[DONE]'] });
    const t = await host.turn(adapter, 'hi');
    assert.equal(t.outcome.stop_reason, 'error');
    const e = host.ofType('agent.error', t.frames)[0];
    assert.equal(e.payload.error_code, 'API_ERROR');
    assert.match(e.payload.message, /sent data that is not JSON \("\{not json"\)/);
    assertValid();
  });

  it('§16.3 file tokens: a plain model gets the referenced file inlined; an unresolvable one stays as text with a warning', async () => {
    server.enqueue(route, chat.text('Seen.'));
    const refs = [
      { ref_id: 'ref_0', path: 'a.txt', name: 'a.txt', workspace_relative_path: 'a.txt' },
      { ref_id: 'ref_1', path: 'gone.txt', name: 'gone.txt', workspace_relative_path: 'gone.txt' },
    ];
    const t = await host.turn(adapter, 'compare <@file:ref_0|a.txt> with <@file:ref_1|gone.txt>', { file_references: refs });
    const msgs = (server.requestsFor(route)[0].body as { messages: Array<{ role: string; content: string }> }).messages;
    const user = msgs.find((m) => m.role === 'user')!.content;
    assert.match(user, /^compare \[File: a\.txt\]\n`+\nhello\n`+\n with gone\.txt$/);
    const warn = host.ofType('agent.error', t.frames)[0];
    assert.equal(warn.payload.error_code, 'FILE_REFERENCE_UNRESOLVED');
    assert.match(warn.payload.message, /gone\.txt/);
    assertValid();
  });

  it('a model that keeps calling tools is stopped after maxSteps calls (agent.error MAX_TURNS, stop_reason error)', async () => {
    const capped = new OpenAIAdapter({ baseUrl: `${server.url}/v1`, model: 'm', maxSteps: 2 });
    const h = new RecordingHost(ws);
    await h.open(capped);
    server.enqueue(route, chat.tool('LS', { path: ws }), chat.tool('LS', { path: ws }), chat.text('never reached'));
    const t = await h.turn(capped, 'loop');
    assert.equal(t.outcome.stop_reason, 'error');
    assert.equal(h.ofType('agent.error', t.frames)[0].payload.error_code, 'MAX_TURNS');
    assert.equal(server.requestsFor(route).length, 2);
    assert.equal(h.validate().errors, 0, h.problems());
  });
});
