// §6.1.1 context_files for every agent, end to end through the session host: a master's prompt
// with an attached image passes prompt admission, the engine and the adapter, and reaches the
// scripted model of the real CLI (Claude Code, Codex, gemini --acp) or of the OpenAI-compatible
// loop in that API's own request shape (the recorded request is inspected). A file type an agent
// cannot take is refused before the turn: a session.error naming file and agent, no
// session.turn.start, and no request to the model. Files are stored in the host's own store
// (src/host/files) as an upload to /v1/files/{id} would store them.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import { ACP_PRESETS } from '../../../src/agents/acp/presets';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { ClaudeCodeAdapter } from '../../../src/agents/claudeCode';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import type { AgentChoice } from '../../../src/host/agentChoice';
import { SessionHost } from '../../../src/host/sessionHost';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame, PayloadOf } from '../../../src/protocol/frameTypes';
import type { AgentAdapter } from '../../../src/session/agentAdapter';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { silentLogger } from '../../../src/session/ports';
import { createSharedToolState } from '../../../src/tools/toolkit';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { filePath } from '../../../src/remote/controlPlane';
import { claude, installAnthropic } from '../../support/mockModel/anthropic';
import { chat, installChatCompletions } from '../../support/mockModel/chatCompletions';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { gemini, installGemini } from '../../support/mockModel/gemini';
import { installOpenAIResponses, responses } from '../../support/mockModel/openaiResponses';
import { MockModelServer, type MockRequest } from '../../support/mockModel/server';
import { ALL_FEATURES } from '../../support/recordingConnection';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const BIN = path.resolve(__dirname, '../../../node_modules/.bin');

/** Polls every 20 ms, for at most `ms`. */
async function waitFor(cond: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Master = Connection & { got: WireFrame[] };
/** A 1×1 PNG (a real one: the store sniffs it and the CLIs may check its signature). */
const PNG_1X1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
const PNG_1X1_BASE64 = Buffer.from(PNG_1X1).toString('base64');

const ofType = <T extends Frame['type']>(frames: readonly WireFrame[], type: T) => frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);

describe('§6.1.1 context_files: an attached image reaches each real agent in its native shape; what it cannot take is refused before the turn', function () {
  this.timeout(120_000);
  let mock: MockModelServer;
  const keys = { anthropic: '', responses: '', gemini: '', chat: '' };
  let scratch: AgentWorkspace;
  let dir: string;
  let ws: string;
  let sid: string;
  let host: SessionHost | undefined;

  before(async () => {
    mock = await MockModelServer.start((s) => {
      keys.anthropic = installAnthropic(s);
      keys.responses = installOpenAIResponses(s);
      keys.gemini = installGemini(s).stream;
      keys.chat = installChatCompletions(s);
    });
  });
  after(async () => {
    await mock.stop();
  });
  beforeEach(() => {
    mock.reset();
    scratch = agentWorkspace('rawp-attach-', { committed: { 'a.txt': 'hello\n' } });
    dir = scratch.dir;
    ws = scratch.ws;
  });
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    scratch.remove();
  });

  function home(name: string): string {
    const h = path.join(dir, name);
    mkdirSync(h, { recursive: true });
    return h;
  }

  function codexHome(): string {
    const h = home('codex-home');
    writeFileSync(
      path.join(h, 'config.toml'),
      ['model = "gpt-5.5"', 'model_provider = "mock"', '[model_providers.mock]', 'name = "mock"', `base_url = "http://127.0.0.1:${mock.port}/v1"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'),
    );
    return h;
  }

  const agents: Record<string, () => AgentAdapter> = {
    'claude-code': () => new ClaudeCodeAdapter({ command: path.join(BIN, 'claude'), env: claudeEnv(mock.url, home('claude-home')), killGraceMs: 1500 }),
    codex: () => new CodexAdapter({ command: path.join(BIN, 'codex'), env: { HOME: home('codex-user'), CODEX_HOME: codexHome(), MOCK_API_KEY: 'dummy', NO_COLOR: '1' }, killGraceMs: 1500 }),
    'acp:gemini': () =>
      new AcpAdapter({
        id: ACP_PRESETS.gemini.id,
        displayName: ACP_PRESETS.gemini.displayName,
        command: path.join(BIN, 'gemini'),
        args: ACP_PRESETS.gemini.args,
        env: { HOME: home('gemini-home'), GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_TRUST_WORKSPACE: 'true', NO_COLOR: '1' },
        killGraceMs: 2000,
      }),
    'openai-vision': () => new OpenAIAdapter({ baseUrl: `${mock.url}/v1`, model: 'mock-vision', vision: true }),
    openai: () => new OpenAIAdapter({ baseUrl: `${mock.url}/v1`, model: 'mock-model' }),
    builtin: () => new BuiltinAgent({ shared: createSharedToolState({ fs: new NodeFsBackend([ws]) }) }),
  };

  /** A session host with the one agent, its context files from `files`, and a raw master attached. */
  async function session(agent: string): Promise<{ id: string; m: Master }> {
    const choices: AgentChoice[] = [{ id: agent, name: agent, available: true, rank: 0, create: agents[agent] }];
    host = new SessionHost({
      logger: silentLogger,
      agents: () => choices,
      defaultAgent: () => agent,
      workspacePath: ws,
      commands: { home: home('home'), workspaceFolders: [ws], watch: false },
      // The host's own file store (§4.5.1): what a master PUTs to /v1/files/{id} lands here.
      files: { dir: path.join(dir, 'files') },
    });
    const id = await host.create({ agent });
    sid = id;
    host.hub.share(id);
    const got: WireFrame[] = [];
    const m: Master = { id: 'raw', kind: 'remote', features: ALL_FEATURES, got, send: (f) => void got.push(f), close: () => undefined };
    host.hub.attach(id, m);
    return { id, m };
  }

  function prompt(id: string, prompt_text: string, context_files: PayloadOf<'control.prompt.request'>['context_files']): void {
    host!.hub.receive('raw', JSON.stringify(buildFrame('control.prompt.request', { prompt_text, context_files }, { session_id: id })));
  }

  async function turn(m: Master): Promise<Extract<Frame, { type: 'session.turn.end' }>> {
    await waitFor(() => ofType(m.got, 'session.turn.end').length === 1, 'the turn ends', 90_000);
    return ofType(m.got, 'session.turn.end')[0];
  }

  /** The refusal arrives, no turn starts, and (after a moment) the model got nothing. */
  async function refused(m: Master, route: string | undefined): Promise<Extract<Frame, { type: 'session.error' }>> {
    await waitFor(() => ofType(m.got, 'session.error').length >= 1, 'the refusal', 20_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(ofType(m.got, 'session.turn.start').length, 0, 'no turn started (§6.1.1: refused before the turn)');
    if (route) assert.equal(mock.requestsFor(route).length, 0, 'nothing reached the model');
    return ofType(m.got, 'session.error')[0];
  }

  /** A file stored in the session's store, as an upload would; its context_files entry. */
  async function stored(file_name: string, mime_type: string, bytes: Uint8Array | string) {
    const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
    const info = await host!.fileStore!.store({ session_id: sid, file_name, mime_type, bytes: data });
    return { file_url: filePath(info.transfer_id), file_name, mime_type };
  }
  const image = () => stored('shot.png', 'image/png', PNG_1X1);

  it('§6.1.1 Claude Code: the image is an Anthropic `image` block (base64) and a text file a `document` block of the stream-json user message', async () => {
    mock.setFallback(keys.anthropic, claude.text('ok'));
    const { id, m } = await session('claude-code');
    const notes = await stored('notes.md', 'text/markdown', '# Notes\nremember the milk\n');
    prompt(id, 'what is in the picture?', [await image(), notes]);
    const end = await turn(m);
    assert.equal(end.payload.stop_reason, 'end_turn');
    const req = mock.requestsFor(keys.anthropic).find((r) => JSON.stringify(r.body).includes(PNG_1X1_BASE64));
    assert.ok(req, 'a Messages request carried the image bytes');
    const content = lastUser(req, 'messages');
    assert.ok(content.some((b) => b.type === 'image' && b.source?.type === 'base64' && b.source.media_type === 'image/png' && b.source.data === PNG_1X1_BASE64), `an image block: ${JSON.stringify(content).slice(0, 400)}`);
    assert.ok(content.some((b) => b.type === 'document' && b.source?.type === 'text' && String(b.source.data).includes('remember the milk')), 'a text document block');
    assert.ok(content.some((b) => b.type === 'text' && String(b.text).includes('what is in the picture?')), 'and the prompt text');
  });

  it('§6.1.1 Claude Code: an attached binary blob is refused before the turn with ATTACHMENT_NOT_SUPPORTED naming the file and the agent', async () => {
    const { id, m } = await session('claude-code');
    prompt(id, 'unpack this', [await stored('blob.bin', 'application/octet-stream', 'raw bytes')]);
    const err = await refused(m, keys.anthropic);
    assert.equal(err.payload.error_code, 'ATTACHMENT_NOT_SUPPORTED');
    assert.equal(err.payload.fatal, false);
    assert.match(err.payload.message, /blob\.bin/);
    assert.match(err.payload.message, /Claude Code/);
  });

  it('§6.1.1 Codex: the image goes by --image and reaches the Responses API as an `input_image` data URL; a text file is inlined', async () => {
    mock.setFallback(keys.responses, responses.text('ok'));
    const { id, m } = await session('codex');
    const todo = await stored('todo.txt', 'text/plain', 'buy bread\n');
    prompt(id, 'describe the image', [await image(), todo]);
    const end = await turn(m);
    assert.equal(end.payload.stop_reason, 'end_turn', JSON.stringify(ofType(m.got, 'agent.error').map((f) => f.payload.message)));
    const req = mock.requestsFor(keys.responses).at(-1);
    assert.ok(req, 'codex called the model');
    const content = lastUser(req, 'input');
    const img = content.find((p) => p.type === 'input_image');
    assert.ok(img, `an input_image part: ${JSON.stringify(content).slice(0, 400)}`);
    assert.equal(String(img.image_url).replace(/^data:image\/png;base64,/, ''), PNG_1X1_BASE64, 'the very bytes attached');
    const text = content.filter((p) => p.type === 'input_text').map((p) => String(p.text)).join('\n');
    assert.match(text, /todo\.txt[\s\S]*buy bread/, 'the text file inlined under its name');
    assert.match(text, /describe the image/);
  });

  it('§6.1.1 §18 Codex: on a resumed turn (`exec resume <id>`) the image still goes by --image and reaches the model', async () => {
    mock.setFallback(keys.responses, responses.text('ok'));
    const { id, m } = await session('codex');
    prompt(id, 'first, no files', []);
    await turn(m);
    m.got.length = 0;
    prompt(id, 'now this one', [await image()]);
    assert.equal((await turn(m)).payload.stop_reason, 'end_turn', JSON.stringify(ofType(m.got, 'agent.error').map((f) => f.payload.message)));
    const req = mock.requestsFor(keys.responses).at(-1)!;
    const img = lastUser(req, 'input').find((p) => p.type === 'input_image');
    assert.equal(String(img?.image_url).replace(/^data:image\/png;base64,/, ''), PNG_1X1_BASE64);
  });

  it('§6.1.1 Codex: a PDF is refused before the turn (Codex takes images and text files)', async () => {
    const { id, m } = await session('codex');
    prompt(id, 'summarise', [await stored('paper.pdf', 'application/pdf', '%PDF-1.4\n')]);
    const err = await refused(m, keys.responses);
    assert.equal(err.payload.error_code, 'ATTACHMENT_NOT_SUPPORTED');
    assert.match(err.payload.message, /paper\.pdf.*Codex|Codex.*paper\.pdf/);
  });

  it('§6.1.1 ACP (gemini --acp, promptCapabilities.image): the image is an ACP `image` block and reaches Gemini as inlineData', async () => {
    mock.setFallback(keys.gemini, gemini.text('ok'));
    const { id, m } = await session('acp:gemini');
    prompt(id, 'look at this', [await image()]);
    const end = await turn(m);
    assert.equal(end.payload.stop_reason, 'end_turn', JSON.stringify(ofType(m.got, 'agent.error').map((f) => f.payload.message)));
    const req = mock.requestsFor(keys.gemini).find((r) => JSON.stringify(r.body).includes(PNG_1X1_BASE64));
    assert.ok(req, `a generateContent request carried the image (${mock.requestsFor(keys.gemini).length} requests)`);
    const contents = (req.body as { contents: Array<{ role: string; parts: Array<{ inlineData?: { mimeType: string; data: string }; text?: string }> }> }).contents;
    const parts = contents.filter((c) => c.role === 'user').flatMap((c) => c.parts);
    assert.ok(parts.some((p) => p.inlineData?.mimeType === 'image/png' && p.inlineData.data === PNG_1X1_BASE64), `inlineData part: ${JSON.stringify(parts).slice(0, 400)}`);
  });

  it('§6.1.1 ACP (gemini --acp, promptCapabilities.embeddedContext): a text file is an embedded `resource` and its text reaches Gemini', async () => {
    mock.setFallback(keys.gemini, gemini.text('ok'));
    const { id, m } = await session('acp:gemini');
    prompt(id, 'summarise the notes', [await stored('notes.md', 'text/markdown', '# Notes\nthe launch is on friday\n')]);
    assert.equal((await turn(m)).payload.stop_reason, 'end_turn', JSON.stringify(ofType(m.got, 'agent.error').map((f) => f.payload.message)));
    const req = mock.requestsFor(keys.gemini).find((r) => JSON.stringify(r.body).includes('the launch is on friday'));
    assert.ok(req, `a generateContent request carried the file's text (${mock.requestsFor(keys.gemini).length} requests)`);
  });

  it('§6.1.1 OpenAI-compatible with vision: the image is an `image_url` part (data URL) of the user message', async () => {
    mock.enqueue(keys.chat, chat.text('a pixel'));
    const { id, m } = await session('openai-vision');
    prompt(id, 'what is this?', [await image()]);
    assert.equal((await turn(m)).payload.stop_reason, 'end_turn');
    const req = mock.requestsFor(keys.chat).at(-1)!;
    const content = lastUser(req, 'messages');
    assert.deepEqual(content.find((p) => p.type === 'image_url')?.image_url, { url: `data:image/png;base64,${PNG_1X1_BASE64}` });
    assert.equal(content.find((p) => p.type === 'text')?.text, 'what is this?');
  });

  it('§6.1.1 OpenAI-compatible without vision: an image is refused before the turn, naming the setting; a text file is inlined', async () => {
    const { id, m } = await session('openai');
    prompt(id, 'what is this?', [await image()]);
    const err = await refused(m, keys.chat);
    assert.equal(err.payload.error_code, 'ATTACHMENT_NOT_SUPPORTED');
    assert.match(err.payload.message, /shot\.png/);
    assert.match(err.payload.message, /rawp\.openai\.vision/);
    mock.enqueue(keys.chat, chat.text('noted'));
    prompt(id, 'read it', [await stored('a.csv', 'text/csv', 'x,y\n1,2\n')]);
    assert.equal((await turn(m)).payload.stop_reason, 'end_turn');
    const user = (mock.requestsFor(keys.chat).at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((x) => x.role === 'user').at(-1)!;
    assert.equal(typeof user.content, 'string');
    assert.match(String(user.content), /a\.csv[\s\S]*x,y\n1,2[\s\S]*read it/);
  });

  it('§6.1.1 built-in agent: an image is refused before the turn; an attached text file is read and shown', async () => {
    const { id, m } = await session('builtin');
    prompt(id, 'help', [await image()]);
    const err = await refused(m, undefined);
    assert.match(err.payload.message, /shot\.png.*Built-in|built-in/i);
    prompt(id, 'help', [await stored('list.txt', 'text/plain', 'one\ntwo\n')]);
    await turn(m);
    const said = ofType(m.got, 'agent.text.done').map((f) => f.payload.full_text).join('\n');
    assert.match(said, /list\.txt \(2 line\(s\), 8 bytes\)[\s\S]*one\ntwo/);
  });

  it('§6.1.1 a file_url the host does not hold is refused before the turn with ATTACHMENT_UNAVAILABLE', async () => {
    const { id, m } = await session('builtin');
    prompt(id, 'help', [{ file_url: '/v1/files/00000000-0000-4000-8000-000000000000', file_name: 'gone.txt' }]);
    const err = await refused(m, undefined);
    assert.equal(err.payload.error_code, 'ATTACHMENT_UNAVAILABLE');
    assert.match(err.payload.message, /gone\.txt/);
  });
});

type Part = { type?: string; text?: unknown; source?: { type?: string; media_type?: string; data?: unknown }; image_url?: unknown };

/** The content parts of the last user message of a request (`messages` or Responses `input`). */
function lastUser(req: MockRequest, field: 'messages' | 'input'): Part[] {
  const list = ((req.body as Record<string, unknown>)[field] ?? []) as Array<{ role?: string; content?: unknown }>;
  const user = list.filter((x) => x.role === 'user').at(-1);
  return Array.isArray(user?.content) ? (user.content as Part[]) : [];
}
