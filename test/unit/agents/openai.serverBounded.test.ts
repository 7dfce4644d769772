// The OpenAI-compatible agent against a hostile or broken model server (decision 717): a real local
// HTTP server streams what a real one never would. Reproduced before the change: a tool call whose
// arguments nest 5,000 deep made the turn throw "Maximum call stack size exceeded" (the engine's
// turn failed with no word), and so did an HTTP error whose message nests 5,000 deep; a stream
// error nested as deep became "API_UNREACHABLE: the stream broke: Maximum call stack size exceeded";
// a chunk nested 5,000 deep was taken; a 300 MB error body was read whole and shown whole
// (2 GB RSS); 200 MB of text or of tool-call arguments were kept (1.4–1.6 GB RSS, 16–27 s); one SSE
// line of 40 MB blocked the event loop 146 s (10 MB: 12.5 s); keep-alives for ever held the turn
// for ever.
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import { RecordingHost } from '../../support/recordingHost';

type Reply = (res: ServerResponse) => Promise<void>;

/** A chat-completions server answering each request with the next scripted reply, and logging it. */
class ScriptedServer {
  readonly bodies: Array<{ messages: Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }> }> = [];
  /** Bytes each reply wrote, and whether the client closed the connection before the reply ended. */
  readonly replies: Array<{ written: number; closedEarly: boolean }> = [];
  private readonly queue: Reply[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  enqueue(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  reset(): void {
    this.queue.length = 0;
    this.bodies.length = 0;
    this.replies.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Only the chat route is scripted; anything else (the agent's look for Ollama's /api/ps) is not found.
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    this.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const log = { written: 0, closedEarly: false };
    this.replies.push(log);
    res.on('close', () => {
      if (!res.writableFinished) log.closedEarly = true;
    });
    const write = res.write.bind(res);
    res.write = ((chunk: string | Buffer, ...rest: never[]) => {
      log.written += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    const reply = this.queue.shift() ?? ((r: ServerResponse) => Promise.resolve(void r.writeHead(500).end('{"error":{"message":"no scripted reply"}}')));
    await reply(res).catch(() => res.destroy());
  }
}

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
/** Writes `text`, waiting for the socket as a real server does; false once the client has gone. */
async function put(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (!res.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !res.destroyed;
}
const data = (res: ServerResponse, json: unknown) => put(res, `data: ${typeof json === 'string' ? json : JSON.stringify(json)}\n\n`);
const delta = (d: Record<string, unknown>, finish_reason: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason }] });
async function finish(res: ServerResponse, reason = 'stop'): Promise<void> {
  await data(res, delta({}, reason));
  await data(res, '[DONE]');
  res.end();
}
const text = (words: string): Reply => async (res) => {
  sse(res);
  await data(res, delta({ content: words }));
  await finish(res);
};
const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest the event loop was held while `work` ran. */
async function longestBlock<T>(work: () => Promise<T>): Promise<{ value: T; blockedMs: number }> {
  let last = Date.now();
  let blockedMs = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    blockedMs = Math.max(blockedMs, now - last);
    last = now;
  }, 10);
  try {
    return { value: await work(), blockedMs };
  } finally {
    clearInterval(timer);
  }
}

describe('OpenAI-compatible agent: what a model server sends is bounded and checked before it is decoded (decision 717)', function () {
  this.timeout(60_000);
  const server = new ScriptedServer();
  let dir: string;
  let ws: string;
  let adapter: OpenAIAdapter;
  let host: RecordingHost;

  before(() => server.start());
  after(() => server.stop());
  beforeEach(async () => {
    server.reset();
    dir = mkdtempSync(path.join(tmpdir(), 'rawp-openai-bounded-'));
    ws = path.join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    adapter = new OpenAIAdapter({ baseUrl: server.url, model: 'm', idleTimeoutMs: 5_000 });
    host = new RecordingHost(ws, () => ({ kind: 'response', selected_value: 'allow_once' }));
    await host.open(adapter);
  });
  afterEach(async () => {
    await adapter.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const errorOf = (frames: Awaited<ReturnType<RecordingHost['turn']>>['frames']) => host.ofType('agent.error', frames).map((e) => e.payload);

  it('a tool call whose arguments nest deeper than 64 levels is refused with a clear error and the turn ends: no tool of that answer runs, the next request holds each call as refused, and 64 levels still run', async () => {
    const file = path.join(ws, 'a.txt');
    const toolCall = (args: string) => async (res: ServerResponse) => {
      sse(res);
      await data(res, delta({ content: 'Reading.' }));
      await data(res, delta({ tool_calls: [{ index: 0, id: 'call_deep', type: 'function', function: { name: 'Read', arguments: args } }] }));
      await data(res, delta({ tool_calls: [{ index: 1, id: 'call_fine', type: 'function', function: { name: 'LS', arguments: JSON.stringify({ path: ws }) } }] }));
      await finish(res, 'tool_calls');
    };
    server.enqueue(toolCall(`{"file_path":${JSON.stringify(file)},"x":${nest(5000)}}`), text('Understood.'));
    const t = await host.turn(adapter, 'read a.txt');
    assert.equal(t.outcome.stop_reason, 'error');
    const [e] = errorOf(t.frames);
    assert.equal(e.error_code, 'API_ERROR');
    assert.match(e.message, /sent a tool call \("Read"\) whose arguments hold arrays and objects nested deeper than 64 levels; no tool of that answer was run and the turn was stopped$/);
    assert.equal(host.ofType('tool.invoke.request', t.frames).length, 0, 'no tool ran');
    assert.equal(host.validate().errors, 0, host.problems());

    // The conversation stays one the server accepts: each call of the refused answer is answered.
    const next = await host.turn(adapter, 'go on');
    assert.equal(next.outcome.stop_reason, 'end_turn');
    const msgs = server.bodies[1].messages;
    const assistant = msgs.find((m) => m.tool_calls)!;
    assert.deepEqual(assistant.tool_calls!.map((c) => [c.id, c.function.arguments]), [
      ['call_deep', '{}'],
      ['call_fine', JSON.stringify({ path: ws })],
    ]);
    assert.deepEqual(msgs.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]), [
      ['call_deep', 'Refused: the arguments hold arrays and objects nested deeper than 64 levels.'],
      ['call_fine', 'Not run: another tool call of this answer was refused.'],
    ]);

    // 64 levels in all (the object is one, `x` 63 more) are decoded and the call runs.
    server.enqueue(toolCall(`{"file_path":${JSON.stringify(file)},"x":${nest(63)}}`), text('Read.'));
    const fine = await host.turn(adapter, 'again');
    assert.deepEqual(host.ofType('tool.invoke.request', fine.frames).map((r) => r.payload.tool_name), ['Read', 'LS']);
    assert.equal(fine.outcome.stop_reason, 'end_turn');
  });

  it('a chunk, or a stream error, nesting deeper than 64 levels ends the turn with API_ERROR in words, never "Maximum call stack size exceeded"', async () => {
    server.enqueue(
      async (res) => {
        sse(res);
        await data(res, delta({ content: 'Hi' }));
        await data(res, `{"choices":[{"index":0,"delta":{"content":"!"}}],"x":${nest(5000)}}`);
        await finish(res);
      },
      async (res) => {
        sse(res);
        await data(res, `{"error":{"message":${nest(5000)}}}`);
        res.end();
      },
    );
    for (const prompt of ['deep chunk', 'deep error']) {
      const t = await host.turn(adapter, prompt);
      assert.equal(t.outcome.stop_reason, 'error', prompt);
      const [e] = errorOf(t.frames);
      assert.equal(e.error_code, 'API_ERROR', prompt);
      assert.match(e.message, /the stream from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions sent a chunk holding arrays and objects nested deeper than 64 levels, so the turn was stopped$/, prompt);
    }
    assert.equal(host.validate().errors, 0, host.problems());
  });

  it('an HTTP error whose message nests 5,000 deep, or whose body is 50 MB, is an API_ERROR of the server\'s words cut at 500 characters; only the first 64 KiB of the body are read', async () => {
    server.enqueue(
      async (res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(`{"error":{"message":${nest(5000)}}}`);
      },
      async (res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        await put(res, '{"error":{"message":"');
        const mb = 'e'.repeat(1 << 20);
        for (let i = 0; i < 50; i++) if (!(await put(res, mb))) return;
        res.end('"}}');
      },
    );
    const deep = await host.turn(adapter, 'deep');
    assert.equal(deep.outcome.stop_reason, 'error');
    const [d] = errorOf(deep.frames);
    assert.equal(d.error_code, 'API_ERROR');
    assert.match(d.message, /^HTTP 500 from \S+: \{"error":\{"message":\[{480}…$/);

    const big = await host.turn(adapter, 'big');
    const [b] = errorOf(big.frames);
    assert.equal(b.error_code, 'API_ERROR');
    assert.match(b.message, /^HTTP 500 from \S+: \{"error":\{"message":"e{479}…$/);
    await sleep(100);
    assert.equal(server.replies[1].closedEarly, true, 'the body was not read to its end');
    assert.ok(server.replies[1].written < 20 << 20, `${server.replies[1].written} bytes written`);
    assert.equal(host.validate().errors, 0, host.problems());
  });

  it('one SSE line longer than 16 MiB ends the turn with API_ERROR at once, and reading it never holds the event loop (one 40 MB line held it 146 s)', async () => {
    server.enqueue(async (res) => {
      sse(res);
      await data(res, delta({ content: 'Start.' }));
      await put(res, 'data: {"choices":[{"index":0,"delta":{"content":"');
      const mb = 'x'.repeat(1 << 20);
      for (let i = 0; i < 20; i++) if (!(await put(res, mb))) return;
      await put(res, '"}}]}\n\n');
      await finish(res);
    });
    const started = Date.now();
    const { value: t, blockedMs } = await longestBlock(() => host.turn(adapter, 'long line'));
    assert.equal(t.outcome.stop_reason, 'error');
    const [e] = errorOf(t.frames);
    assert.equal(e.error_code, 'API_ERROR');
    assert.match(e.message, /sent a line longer than 16,777,216 characters, so the turn was stopped$/);
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    assert.ok(blockedMs < 1_000, `the event loop was held ${blockedMs} ms`);
    assert.equal(host.ofType('agent.text.delta', t.frames).map((f) => f.payload.text).join(''), 'Start.', 'what came before is kept');
    assert.equal(host.validate().errors, 0, host.problems());
  });

  it('an answer growing past 16 MiB of text, or of one tool call\'s arguments, ends the turn with API_ERROR and the stream is closed (200 MB were kept whole: 1.4–1.6 GB)', async () => {
    const mb = 'x'.repeat(1 << 20);
    server.enqueue(
      async (res) => {
        sse(res);
        for (let i = 0; i < 40; i++) if (!(await data(res, delta({ content: mb })))) return;
        await finish(res);
      },
      async (res) => {
        sse(res);
        await data(res, delta({ tool_calls: [{ index: 0, id: 'call_big', type: 'function', function: { name: 'Write', arguments: '{"file_path":"b.txt","content":"' } }] }));
        for (let i = 0; i < 40; i++) if (!(await data(res, delta({ tool_calls: [{ index: 0, function: { arguments: mb } }] })))) return;
        await data(res, delta({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }));
        await finish(res, 'tool_calls');
      },
    );
    for (const prompt of ['text', 'arguments']) {
      const t = await host.turn(adapter, prompt);
      assert.equal(t.outcome.stop_reason, 'error', prompt);
      const [e] = errorOf(t.frames);
      assert.equal(e.error_code, 'API_ERROR', prompt);
      assert.match(e.message, /the answer from \S+ grew past 16,777,216 characters of text, thinking and tool calls, so the turn was stopped$/, prompt);
      const shown = host.ofType('agent.text.delta', t.frames).reduce((n, f) => n + f.payload.text.length, 0);
      assert.ok(shown <= 16 << 20, `${shown} characters of text shown`);
      assert.equal(host.ofType('tool.invoke.request', t.frames).length, 0, prompt);
    }
    await sleep(100);
    for (const r of server.replies) assert.ok(r.closedEarly && r.written < 30 << 20, JSON.stringify(r));
    assert.equal(host.validate().errors, 0, host.problems());
  });

  it('an answer making more than 1,000 tool calls ends the turn with API_ERROR before any of them runs', async () => {
    server.enqueue(async (res) => {
      sse(res);
      for (let i = 0; i < 1_001; i++) if (!(await data(res, delta({ tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: 'LS', arguments: JSON.stringify({ path: ws }) } }] })))) return;
      await finish(res, 'tool_calls');
    }, text('never asked for'));
    const t = await host.turn(adapter, 'many');
    assert.equal(t.outcome.stop_reason, 'error');
    const [e] = errorOf(t.frames);
    assert.equal(e.error_code, 'API_ERROR');
    assert.match(e.message, /the answer from \S+ made more than 1,000 tool calls, so the turn was stopped$/);
    assert.equal(host.ofType('tool.invoke.request', t.frames).length, 0);
    assert.equal(host.validate().errors, 0, host.problems());
  });

  it('a stream of nothing but keep-alives and empty chunks ends the turn with API_TIMEOUT after the idle limit (it held the turn for ever); text arriving slowly is not stopped', async () => {
    const quiet = new OpenAIAdapter({ baseUrl: server.url, model: 'm', idleTimeoutMs: 600 });
    const h = new RecordingHost(ws);
    await h.open(quiet);
    try {
      server.enqueue(
        async (res) => {
          sse(res);
          await data(res, delta({ role: 'assistant', content: 'Thinking' }));
          for (let i = 0; i < 400 && !res.destroyed; i++) {
            await put(res, i % 2 ? ': keep-alive\n\n' : `data: ${JSON.stringify(delta({ content: '' }))}\n\n`);
            await sleep(50);
          }
          await finish(res);
        },
        async (res) => {
          sse(res);
          for (let i = 0; i < 6; i++) {
            await data(res, delta({ content: `${i} ` }));
            await sleep(250);
          }
          await finish(res);
        },
      );
      const started = Date.now();
      const t = await Promise.race([h.turn(quiet, 'wait'), sleep(8_000).then(() => undefined)]);
      assert.ok(t, 'the turn ended');
      assert.equal(t.outcome.stop_reason, 'error');
      const [e] = h.ofType('agent.error', t.frames).map((f) => f.payload);
      assert.equal(e.error_code, 'API_TIMEOUT');
      assert.match(e.message, /sent nothing but keep-alives and chunks that add nothing for 0\.6 s, so the turn was stopped$/);
      assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
      assert.equal(h.ofType('agent.text.delta', t.frames).map((f) => f.payload.text).join(''), 'Thinking');

      const slow = await h.turn(quiet, 'slowly');
      assert.equal(slow.outcome.stop_reason, 'end_turn', JSON.stringify(h.ofType('agent.error', slow.frames)));
      assert.equal(h.ofType('agent.text.delta', slow.frames).map((f) => f.payload.text).join(''), '0 1 2 3 4 5 ');
      assert.equal(h.validate().errors, 0, h.problems());
    } finally {
      await quiet.dispose();
    }
  });
});
