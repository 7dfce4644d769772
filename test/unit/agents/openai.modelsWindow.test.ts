// Decision 738: the OpenAI-compatible agent reads the model's window from the server's model list
// (`GET {base}/models`: vLLM's `max_model_len`, OpenRouter's and Together's `context_length`,
// Groq's `context_window`) before its first call. Before, the window was known only after a call
// had been refused for length, and the chat's context meter stayed empty until then. A real local
// server that lists models as each does and refuses what is over its window as vLLM does.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import { modelsUrl } from '../../../src/agents/openai/baseUrl';
import { chat, handleChat, type ChatReply } from '../../support/mockModel/chatCompletions';
import { jsonResponse, MockModelServer, type MockRequest } from '../../support/mockModel/server';
import { bigFilesWorkspace, openOpenAI, type BigFilesWorkspace } from '../../support/openaiScratch';

const tokensOf = (req: MockRequest) => Math.ceil(req.rawBody.length / 4);
type Res = Parameters<typeof jsonResponse>[0];

describe('OpenAI-compatible agent: the window the server\'s model list names (decision 738)', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  let chatRoute: string;
  let modelsRoute: string;
  let psRoute: string;
  let scratch: BigFilesWorkspace;
  let ws: string;
  let limit: number;
  let refused: number[];
  let models: (res: Res) => void;
  let adapter: OpenAIAdapter | undefined;

  before(async () => {
    server = await MockModelServer.start((s) => {
      chatRoute = s.route<ChatReply>('POST', '/v1/chat/completions', async (ctx) => {
        const tokens = tokensOf(ctx.req);
        if (tokens > limit) {
          refused.push(tokens);
          return jsonResponse(ctx.res, 400, { object: 'error', message: `This model's maximum context length is ${limit} tokens. However, you requested ${tokens} tokens (${tokens} in the messages, 0 in the completion).`, type: 'BadRequestError', code: 400 });
        }
        ctx.reply = ctx.reply ? { ...ctx.reply, match: undefined, usage: { prompt_tokens: tokens, completion_tokens: 10 } } : undefined;
        return handleChat(ctx);
      });
      modelsRoute = s.route('GET', '/v1/models', (ctx) => models(ctx.res));
      psRoute = s.route('GET', '/api/ps', (ctx) => jsonResponse(ctx.res, 404, { detail: 'Not Found' }));
    });
  });
  after(() => server.stop());
  beforeEach(() => {
    server.reset();
    limit = Number.POSITIVE_INFINITY;
    refused = [];
    models = (res) => jsonResponse(res, 200, { object: 'list', data: [] });
    scratch = bigFilesWorkspace('rawp-models-window-', 5);
    ws = scratch.ws;
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    scratch.remove();
  });

  const opened = async (baseUrl = `${server.url}/v1`) => {
    const o = await openOpenAI(ws, { baseUrl, model: 'Qwen/Qwen2.5-Coder-7B-Instruct' });
    adapter = o.adapter;
    return o;
  };
  const listing = (fields: Record<string, unknown>) => (res: Res) =>
    jsonResponse(res, 200, { object: 'list', data: [{ id: 'other-model', object: 'model', max_model_len: 999_999 }, { id: 'Qwen/Qwen2.5-Coder-7B-Instruct', object: 'model', owned_by: 'vllm', ...fields }] });
  /** The server's count of a fresh agent's first call (the prompt `hi`). */
  const firstCallTokens = async (): Promise<number> => {
    const probe = await opened();
    server.enqueue(chatRoute, chat.text('hello'));
    await probe.host.turn(probe.adapter, 'hi');
    const tokens = tokensOf(server.requestsFor(chatRoute)[0]);
    await probe.adapter.dispose();
    server.reset();
    return tokens;
  };

  it('§7.3.1 vLLM\'s max_model_len is the window from the first turn: its usage says it, nothing over it is sent (no call refused), and Ollama is never asked', async () => {
    const window = (await firstCallTokens()) + 6_000;
    limit = window;
    models = listing({ max_model_len: window });
    const { host, adapter: a } = await opened();
    for (let k = 1; k <= 5; k++) {
      server.enqueue(chatRoute, chat.tool('Read', { file_path: path.join(ws, `big-${k}.txt`) }), chat.text(`read ${k}`));
      const t = await host.turn(a, `read big-${k}.txt`);
      assert.equal(t.outcome.stop_reason, 'end_turn');
      assert.equal(t.outcome.usage?.context_capacity, window, `turn ${k}`);
    }
    assert.deepEqual(refused, [], 'never refused: fitted from the first call');
    assert.equal(server.requestsFor(modelsRoute).length, 1, 'the list is asked once');
    assert.equal(server.requestsFor(psRoute).length, 0);
    assert.ok(server.requestsFor(modelsRoute)[0].seq < server.requestsFor(chatRoute)[0].seq, 'before the first call');
  });

  it('OpenRouter\'s and Together\'s context_length and Groq\'s context_window name it too; a list without the model, or without a field, does not (asked once, then Ollama once, then nothing)', async () => {
    for (const [fields, expected] of [[{ context_length: 131_072 }, 131_072], [{ context_window: 32_768 }, 32_768], [{}, undefined], [{ max_model_len: '4096' }, undefined], [{ max_model_len: 1e300 }, undefined]] as const) {
      server.reset();
      models = listing(fields);
      const { host, adapter: a } = await opened();
      for (let k = 1; k <= 2; k++) {
        server.enqueue(chatRoute, chat.text('hello'));
        const t = await host.turn(a, `hi ${k}`);
        assert.equal(t.outcome.usage?.context_capacity, expected, JSON.stringify(fields));
      }
      assert.equal(server.requestsFor(modelsRoute).length, 1, JSON.stringify(fields));
      assert.equal(server.requestsFor(psRoute).length, expected === undefined ? 1 : 0, JSON.stringify(fields));
      await a.dispose();
    }
  });

  it('what the list says is not trusted: nested 10,000 deep, 10 MB, not JSON, an error — the turn goes on, the window unknown', async () => {
    const answers: Array<(res: Res) => void> = [
      (res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":${'['.repeat(10_000)}${']'.repeat(10_000)}}`),
      (res) => jsonResponse(res, 200, { object: 'list', data: [{ id: 'Qwen/Qwen2.5-Coder-7B-Instruct', max_model_len: 8192, pad: 'x'.repeat(10 * 1024 * 1024) }] }),
      (res) => void res.writeHead(200).end('<html>models</html>'),
      (res) => jsonResponse(res, 401, { error: { message: 'Incorrect API key provided' } }),
    ];
    for (const answer of answers) {
      server.reset();
      models = answer;
      const { host, adapter: a } = await opened();
      server.enqueue(chatRoute, chat.text('hello'));
      const t = await host.turn(a, 'hi');
      assert.equal(t.outcome.stop_reason, 'end_turn');
      assert.equal(t.outcome.usage?.context_capacity, undefined);
      await a.dispose();
    }
  });

  it('the list is asked where the calls go: the base URL\'s path and query (Azure\'s api-version) kept', async () => {
    assert.equal(modelsUrl('https://x.openai.azure.com/openai/v1?api-version=preview'), 'https://x.openai.azure.com/openai/v1/models?api-version=preview');
    assert.equal(modelsUrl('http://localhost:8000/v1/'), 'http://localhost:8000/v1/models');
    models = listing({ max_model_len: 50_000 });
    const { host, adapter: a } = await opened(`${server.url}/v1?api-version=1`);
    server.enqueue(chatRoute, chat.text('hello'));
    const t = await host.turn(a, 'hi');
    assert.equal(t.outcome.usage?.context_capacity, 50_000);
    assert.equal(server.requestsFor(modelsRoute)[0].query.get('api-version'), '1');
  });
});
