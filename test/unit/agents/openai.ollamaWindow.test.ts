// Decision 734: the OpenAI-compatible agent asks an Ollama server for the window it runs the model
// with. Ollama's `/v1` endpoint cuts a prompt over its window itself (keeping the end) and answers
// as if nothing happened — so decision 730's learning from refusals never ran, and the model lost
// the system prompt and the oldest messages without a word (the closing note of 2026-12-07). A
// real local server that speaks Ollama's documented `/api/ps` and `/api/generate` and cuts
// silently, as Ollama does, counting a quarter of a request's bytes as its tokens.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import { ollamaRoot } from '../../../src/agents/openai/ollamaWindow';
import { chat, handleChat, type ChatReply } from '../../support/mockModel/chatCompletions';
import { jsonResponse, MockModelServer, type MockRequest } from '../../support/mockModel/server';
import { bigFilesWorkspace, openOpenAI, type BigFilesWorkspace } from '../../support/openaiScratch';

const tokensOf = (req: MockRequest) => Math.ceil(req.rawBody.length / 4);

describe('OpenAI-compatible agent: an Ollama server\'s context window (decision 734)', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  let chatRoute: string;
  let psRoute: string;
  let loadRoute: string;
  let scratch: BigFilesWorkspace;
  let ws: string;
  /** The window the server runs a loaded model with. */
  let window: number;
  /** Models loaded (what `/api/ps` lists), by Ollama's full name. */
  let loaded: Set<string>;
  /** Requests over the window the server cut without a word (their token counts). */
  let cut: number[];
  /** How `/api/ps` answers: as Ollama does, or as some other server or a broken one. */
  let ps: (res: Parameters<typeof jsonResponse>[0]) => void;
  let adapter: OpenAIAdapter | undefined;

  const fullName = (model: string) => (model.includes(':') ? model : `${model}:latest`);
  const ollamaPs = (res: Parameters<typeof jsonResponse>[0], contextLength: unknown = window) =>
    jsonResponse(res, 200, {
      models: [...loaded].map((name) => ({ name, model: name, size: 5618579456, digest: 'dae161e27b0e', details: { format: 'gguf', family: 'qwen2' }, expires_at: '2026-12-07T10:00:00Z', size_vram: 5618579456, context_length: contextLength })),
    });

  before(async () => {
    server = await MockModelServer.start((s) => {
      chatRoute = s.route<ChatReply>('POST', '/v1/chat/completions', async (ctx) => {
        const model = fullName(String((ctx.req.body as { model?: unknown }).model));
        loaded.add(model);
        const tokens = tokensOf(ctx.req);
        // Ollama keeps the prompt's end and says nothing; it counts what it kept.
        if (tokens > window) cut.push(tokens);
        ctx.reply = ctx.reply ? { ...ctx.reply, usage: { prompt_tokens: Math.min(tokens, window), completion_tokens: 10 } } : undefined;
        return handleChat(ctx);
      });
      psRoute = s.route('GET', '/api/ps', (ctx) => ps(ctx.res));
      loadRoute = s.route('POST', '/api/generate', (ctx) => {
        const model = String((ctx.req.body as { model?: unknown }).model);
        loaded.add(fullName(model));
        jsonResponse(ctx.res, 200, { model, created_at: '2026-12-07T09:00:00Z', response: '', done: true, done_reason: 'load' });
      });
    });
  });
  after(() => server.stop());
  beforeEach(() => {
    server.reset();
    loaded = new Set();
    cut = [];
    ps = (res) => ollamaPs(res);
    scratch = bigFilesWorkspace('rawp-ollama-window-', 6);
    ws = scratch.ws;
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    scratch.remove();
  });

  const opened = async (model = 'qwen2.5-coder:7b', contextWindow?: number) => {
    const o = await openOpenAI(ws, { baseUrl: `${server.url}/v1`, model, ...(contextWindow ? { contextWindow } : {}) });
    adapter = o.adapter;
    return o;
  };
  const readTurn = (k: number) => [chat.tool('Read', { file_path: path.join(ws, `big-${k}.txt`) }), chat.text(`read ${k}`)];
  /** The server's count of a fresh agent's first call (the prompt `hi`), with a window that takes anything. */
  const firstCallTokens = async (): Promise<number> => {
    window = Number.POSITIVE_INFINITY;
    const probe = await opened();
    server.enqueue(chatRoute, chat.text('hello'));
    await probe.host.turn(probe.adapter, 'hi');
    const tokens = tokensOf(server.requestsFor(chatRoute)[0]);
    await probe.adapter.dispose();
    server.reset();
    loaded.clear();
    return tokens;
  };
  const order = () => server.requestsFor(psRoute).concat(server.requestsFor(loadRoute), server.requestsFor(chatRoute)).sort((a, b) => a.seq - b.seq).map((r) => r.path);

  it('§7.4 the window is asked at /api/ps (the model loaded first, as it is not listed yet): nothing over it is sent, so Ollama never cuts; the usage reports it; the warning says how to raise it', async () => {
    const size = (await firstCallTokens()) + 6_000;
    window = size;
    const { host, adapter: a } = await opened();
    const warnings: string[] = [];
    for (let k = 1; k <= 5; k++) {
      server.enqueue(chatRoute, ...readTurn(k));
      const t = await host.turn(a, `read big-${k}.txt`);
      assert.equal(t.outcome.stop_reason, 'end_turn');
      assert.equal(t.outcome.usage?.context_capacity, size, `turn ${k}: the window Ollama named`);
      warnings.push(...host.ofType('agent.error', t.frames).map((e) => e.payload.message));
    }
    assert.deepEqual(cut, [], 'no request over the window: Ollama cut nothing');
    assert.deepEqual(order().slice(0, 4), ['/api/ps', '/api/generate', '/api/ps', '/v1/chat/completions'], 'listed only once loaded: loaded, asked again, then the first call');
    assert.equal(server.requestsFor(psRoute).length, 2, 'never asked again once known');
    assert.ok(warnings.length >= 1, 'the conversation did outgrow the window');
    assert.match(warnings[0], new RegExp(`context window \\(${size.toLocaleString('en-US')} tokens\\)[\\s\\S]*OLLAMA_CONTEXT_LENGTH \\(or num_ctx in a Modelfile\\) raises it`));
  });

  it('a model asked for without a tag is Ollama\'s `:latest`; one already loaded is not loaded again', async () => {
    window = 50_000;
    loaded.add('llama3.2:latest');
    const { host, adapter: a } = await opened('llama3.2');
    server.enqueue(chatRoute, chat.text('hello'));
    const t = await host.turn(a, 'hi');
    assert.equal(t.outcome.usage?.context_capacity, 50_000);
    assert.deepEqual(order(), ['/api/ps', '/v1/chat/completions']);
  });

  it('a server that is not Ollama (404 at /api/ps, or another answer) is asked once and never again; nothing is loaded', async () => {
    window = Number.POSITIVE_INFINITY;
    for (const other of [(res: Parameters<typeof jsonResponse>[0]) => jsonResponse(res, 404, { detail: 'Not Found' }), (res: Parameters<typeof jsonResponse>[0]) => jsonResponse(res, 200, { error: 'Unexpected endpoint or method. (GET /api/ps)' })]) {
      server.reset();
      ps = other;
      const { host, adapter: a } = await opened();
      for (let k = 1; k <= 3; k++) {
        server.enqueue(chatRoute, chat.text(`answer ${k}`));
        const t = await host.turn(a, `prompt ${k}`);
        assert.equal(t.outcome.stop_reason, 'end_turn');
        assert.equal(t.outcome.usage?.context_capacity, undefined);
      }
      assert.equal(server.requestsFor(psRoute).length, 1);
      assert.equal(server.requestsFor(loadRoute).length, 0);
      await a.dispose();
    }
  });

  it('a window the user gave stands: Ollama is not asked', async () => {
    window = 50_000;
    const { host, adapter: a } = await opened('qwen2.5-coder:7b', 40_000);
    server.enqueue(chatRoute, chat.text('hello'));
    const t = await host.turn(a, 'hi');
    assert.equal(t.outcome.usage?.context_capacity, 40_000);
    assert.equal(server.requestsFor(psRoute).length + server.requestsFor(loadRoute).length, 0);
  });

  it('what /api/ps says is not trusted: a window out of range or not a number, a body of 10 MB, an answer that never comes — the turn goes on and the window stays unknown', async () => {
    window = Number.POSITIVE_INFINITY;
    const answers: Array<[string, (res: Parameters<typeof jsonResponse>[0]) => void]> = [
      ['a window of 10^300 tokens', (res) => ollamaPs(res, 1e300)],
      ['a window in words', (res) => ollamaPs(res, '4096')],
      ['a 10 MB body', (res) => jsonResponse(res, 200, { models: [], pad: 'x'.repeat(10 * 1024 * 1024) })],
      ['no answer at all', () => undefined],
    ];
    for (const [what, answer] of answers) {
      server.reset();
      loaded.add('qwen2.5-coder:7b');
      ps = answer;
      const { host, adapter: a } = await opened();
      server.enqueue(chatRoute, chat.text('hello'));
      const started = Date.now();
      const t = await host.turn(a, 'hi');
      assert.equal(t.outcome.stop_reason, 'end_turn', what);
      assert.equal(t.outcome.usage?.context_capacity, undefined, what);
      assert.ok(Date.now() - started < 20_000, `${what}: waited ${Date.now() - started} ms`);
      await a.dispose();
    }
  });

  it('only a base URL ending in /v1 has an Ollama root beside it; a user name or password in it never goes anywhere', () => {
    assert.equal(ollamaRoot('http://localhost:11434/v1'), 'http://localhost:11434');
    assert.equal(ollamaRoot('http://gpu-box:11434/v1/'), 'http://gpu-box:11434');
    assert.equal(ollamaRoot('https://proxy.example/ollama/v1?x=1'), 'https://proxy.example/ollama');
    assert.equal(ollamaRoot('https://openrouter.ai/api/v1'), 'https://openrouter.ai/api');
    assert.equal(ollamaRoot('http://localhost:1234/api/v0'), undefined);
    assert.equal(ollamaRoot('http://user:pw@localhost:11434/v1'), undefined);
    assert.equal(ollamaRoot('not a url'), undefined);
  });
});
