// Decision 730: the OpenAI-compatible agent keeps its conversation within the model's context
// window. Before, every message was sent back for the session's life: once past the window, the
// server refused every turn (HTTP 400 "maximum context length is N tokens") and the chat could
// only be abandoned; the agent announced no compaction, so /compact was refused too. A real local
// chat-completions server that counts a request's tokens (a quarter of its bytes), refuses what is
// over its window in each server's words, and reports the count it took as `prompt_tokens`.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../../src/agents/openai/adapter';
import { createAgent } from '../../../src/agents/selection';
import { contextOverflowOf } from '../../../src/agents/openai/contextOverflow';
import { CONVERSATION_MAX_CHARS, Conversation } from '../../../src/agents/openai/conversation';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { validateText } from '../../../src/protocol/conformance';
import { AgentSession } from '../../../src/session/engine';
import { chat, handleChat, type ChatReply } from '../../support/mockModel/chatCompletions';
import { jsonResponse, MockModelServer, type MockRequest } from '../../support/mockModel/server';
import { RecordingHost } from '../../support/recordingHost';
import { bigFilesWorkspace, openOpenAI, type BigFilesWorkspace } from '../../support/openaiScratch';
import { until } from '../../support/settle';

type Sent = { messages: Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>; tool_choice?: string };

/** The server's tokenizer: this many bytes a token (4 by default; 2 stands for text of denser tokens). */
let bytesPerToken = 4;
const tokensOf = (req: MockRequest) => Math.ceil(req.rawBody.length / bytesPerToken);

describe('OpenAI-compatible agent: the conversation fits the model\'s context window (decision 730)', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  let route: string;
  let scratch: BigFilesWorkspace;
  let ws: string;
  /** The server's window in tokens (Infinity: takes anything). */
  let limit: number;
  /** How the server words a refusal for length. */
  let refusal: (tokens: number) => unknown;
  let refused: number[];
  /** The answer's tokens the server reports. */
  let completionTokens: number;
  let adapter: OpenAIAdapter | undefined;

  before(async () => {
    server = await MockModelServer.start((s) => {
      route = s.route<ChatReply>('POST', '/v1/chat/completions', async (ctx) => {
        const tokens = tokensOf(ctx.req);
        if (tokens > limit) {
          refused.push(tokens);
          return jsonResponse(ctx.res, 400, refusal(tokens));
        }
        ctx.reply = ctx.reply ? { ...ctx.reply, usage: { prompt_tokens: tokens, completion_tokens: completionTokens } } : undefined;
        return handleChat(ctx);
      });
    });
  });
  after(() => server.stop());
  beforeEach(() => {
    server.reset();
    limit = Number.POSITIVE_INFINITY;
    refused = [];
    completionTokens = 10;
    bytesPerToken = 4;
    refusal = (tokens) => ({ error: { message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } });
    scratch = bigFilesWorkspace('rawp-openai-window-', 8);
    ws = scratch.ws;
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    scratch.remove();
  });

  /** Replies taken only by a request within the window (one over it gets the refusal). */
  const fits = (reply: ChatReply): ChatReply => ({ ...reply, match: (req) => tokensOf(req) <= limit });
  const sent = () => server.requestsFor(route).filter((r) => r.completed).map((r) => r.body as Sent);
  const opened = async (contextWindow?: number) => {
    const o = await openOpenAI(ws, { baseUrl: `${server.url}/v1`, model: 'mock-model', ...(contextWindow ? { contextWindow } : {}) });
    adapter = o.adapter;
    return o;
  };
  /** The server's count of a fresh agent's first call (the prompt `hi`): the tools and the system prompt. The agent is gone after, the server reset. */
  const firstCallTokens = async (): Promise<number> => {
    const probe = await opened();
    server.enqueue(route, fits(chat.text('hello')));
    await probe.host.turn(probe.adapter, 'hi');
    const tokens = tokensOf(server.requestsFor(route)[0]);
    await probe.adapter.dispose();
    server.reset();
    return tokens;
  };
  /** A turn that reads big-k.txt and says so. */
  const readTurn = (k: number) => [fits(chat.tool('Read', { file_path: path.join(ws, `big-${k}.txt`) })), fits(chat.text(`read ${k}`))];

  it('§7.4 past the window the server refuses for length; the agent learns the window from its words, leaves the oldest exchanges out, says so once a turn, and the turn goes on (it ended API_ERROR, and so did every later turn)', async () => {
    const { host, adapter: a } = await opened();
    server.enqueue(route, fits(chat.text('hello')));
    await host.turn(a, 'hi');
    limit = tokensOf(server.requestsFor(route)[0]) + 6_000;
    const warnings: string[] = [];
    for (let k = 1; k <= 6; k++) {
      server.enqueue(route, ...readTurn(k));
      const t = await host.turn(a, `read big-${k}.txt`);
      assert.equal(t.outcome.stop_reason, 'end_turn', `turn ${k}: ${JSON.stringify(host.ofType('agent.error', t.frames).map((e) => e.payload.message))}`);
      const errors = host.ofType('agent.error', t.frames).map((e) => e.payload);
      assert.ok(errors.every((e) => e.error_code === 'CONTEXT_TRIMMED' && e.severity === 'warning'), JSON.stringify(errors));
      assert.ok(errors.length <= 1, 'at most one warning a turn');
      warnings.push(...errors.map((e) => e.message));
    }
    assert.ok(refused.length >= 1, 'the server refused once: the window was learned from it');
    assert.ok(refused.length <= 2, `refused ${refused.length} times: after the first, the agent fits before sending`);
    assert.ok(warnings.length >= 1);
    assert.match(warnings[0], new RegExp(`context window \\(${limit.toLocaleString('en-US')} tokens\\): the oldest \\d+ messages? (is|are) no longer sent to the model`));
    const last = sent().at(-1)!;
    assert.ok(tokensOf(server.requestsFor(route).filter((r) => r.completed).at(-1)!) <= limit);
    assert.match(String(last.messages[0].content), /The \d+ oldest messages of this conversation were left out to fit your context window/);
    const texts = last.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
    assert.ok(texts.includes('read big-6.txt'), 'the prompt under way is sent');
    assert.ok(!texts.includes('hi'), 'the oldest exchange is not');
    // No tool result is sent without the call it answers.
    const calls = new Set(last.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)));
    for (const m of last.messages) if (m.role === 'tool') assert.ok(calls.has(m.tool_call_id!), `the call of ${m.tool_call_id} is sent`);
    assert.equal(last.messages[1].role, 'user', 'what follows the system prompt starts an exchange');
    assert.deepEqual(validateText(host.frames.map((f) => JSON.stringify(f)).join('\n')).problems.filter((p) => p.severity === 'error'), []);
  });

  it('§7.3.1 with the window given (rawp.openai.contextWindow, --context-window) nothing over it is ever sent, and each turn\'s usage says how full it is', async () => {
    const window = (await firstCallTokens()) + 6_000;
    limit = window;
    const given = await opened(window);
    for (let k = 1; k <= 5; k++) {
      server.enqueue(route, ...readTurn(k));
      const t = await given.host.turn(given.adapter, `read big-${k}.txt`);
      assert.equal(t.outcome.stop_reason, 'end_turn');
      assert.equal(t.outcome.usage?.context_capacity, window);
      const lastTokens = tokensOf(server.requestsFor(route).filter((r) => r.completed).at(-1)!);
      assert.equal(t.outcome.usage?.context_used, lastTokens + 10, 'the last call\'s prompt and answer, by the server\'s count');
    }
    assert.deepEqual(refused, [], 'never refused: the conversation was fitted before each call');
    assert.ok(sent().some((b) => /were left out/.test(String(b.messages[0].content))), 'the conversation did outgrow the window');
  });

  it('the setting and the flags reach the agent through the agent selection (rawp.openai.contextWindow → AgentCatalog, --context-window → DetectedAgents → createAgent)', async () => {
    const made = createAgent({ id: 'openai', displayName: 'OpenAI-compatible', adapter_type: 'sdk', status: 'available' }, { openai: { baseUrl: `${server.url}/v1`, model: 'mock-model', contextWindow: 123_456 } });
    adapter = made as OpenAIAdapter;
    const host = new RecordingHost(ws, () => ({ kind: 'response', selected_value: 'allow_once' }));
    await host.open(made);
    server.enqueue(route, fits(chat.text('hello')));
    const t = await host.turn(made, 'hi');
    assert.equal(t.outcome.usage?.context_capacity, 123_456);
  });

  it('§7.4 a refusal that does not name the window (llama.cpp) makes the agent guess below what was refused, and try again', async () => {
    refusal = () => ({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } });
    const { host, adapter: a } = await opened();
    server.enqueue(route, fits(chat.text('hello')));
    await host.turn(a, 'hi');
    limit = tokensOf(server.requestsFor(route)[0]) + 5_000;
    for (let k = 1; k <= 5; k++) {
      server.enqueue(route, ...readTurn(k));
      const t = await host.turn(a, `read big-${k}.txt`);
      assert.equal(t.outcome.stop_reason, 'end_turn', JSON.stringify(host.ofType('agent.error', t.frames).map((e) => e.payload.message)));
      assert.equal(t.outcome.usage?.context_capacity, undefined, 'a guess is not reported as the window');
    }
    assert.ok(refused.length >= 1 && refused.length <= 4, `refused ${refused.length} times`);
  });

  it('§7.4 content of denser tokens than the estimate so far (the server now counts two bytes a token): a refusal of what was fitted raises the estimate — from the server\'s own count where it says one — the given window stands, and the turn goes on', async () => {
    for (const form of ['openai', 'llama.cpp'] as const) {
      server.reset();
      refused = [];
      bytesPerToken = 4;
      limit = Number.POSITIVE_INFINITY;
      const window = (await firstCallTokens()) * 2 + 6_000;
      if (form === 'llama.cpp') refusal = () => ({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } });
      limit = window;
      const given = await opened(window);
      for (let k = 1; k <= 5; k++) {
        // Two turns calibrate the estimate at four bytes a token; then the content gets denser.
        if (k === 3) bytesPerToken = 2;
        server.enqueue(route, ...readTurn(k));
        const t = await given.host.turn(given.adapter, `read big-${k}.txt`);
        assert.equal(t.outcome.stop_reason, 'end_turn', `${form}, turn ${k}: ${JSON.stringify(given.host.ofType('agent.error', t.frames).map((e) => e.payload.message))}`);
        assert.equal(t.outcome.usage?.context_capacity, window, `${form}: the given window stands`);
      }
      assert.ok(refused.length >= 1, `${form}: the estimate was low once the content got denser, and a call was refused`);
      assert.ok(refused.length <= 3, `${form}: refused ${refused.length} times`);
      await given.adapter.dispose();
    }
  });

  it('§7.4 a prompt that does not fit the window alone is refused in words before anything is sent (CONTEXT_TOO_LONG)', async () => {
    const window = (await firstCallTokens()) + 1_000;
    const given = await opened(window);
    const t = await given.host.turn(given.adapter, `summarize this: ${'word '.repeat(8_000)}`);
    assert.equal(t.outcome.stop_reason, 'error');
    const [e] = given.host.ofType('agent.error', t.frames).map((f) => f.payload);
    assert.equal(e.error_code, 'CONTEXT_TOO_LONG');
    assert.match(e.message, new RegExp(`the prompt alone is about [\\d,]+ tokens, more than the model's context window of ${window.toLocaleString('en-US')} tokens holds`));
    assert.equal(server.requestsFor(route).length, 0, 'nothing was sent');
  });

  it('§6.3.1 /compact: the model summarizes the conversation (tool calls off), the summary stands for it from then on; session.compacted says so', async () => {
    adapter = new OpenAIAdapter({ baseUrl: `${server.url}/v1`, model: 'mock-model' });
    const frames: Frame[] = [];
    const session = new AgentSession({ adapter, out: (f) => void frames.push(f), workspacePath: ws, toolRecheckMs: 3_600_000 });
    try {
      await session.start();
      assert.equal((frames.find((f) => f.type === "session.capabilities") as FrameOf<"session.capabilities">).payload.features?.context_compaction, true);
      const turn = async (text: string) => {
        const ends = frames.filter((f) => f.type === 'session.turn.end').length;
        session.prompt({ prompt_text: text });
        await until(() => frames.filter((f) => f.type === 'session.turn.end').length > ends, 'the turn ends');
      };
      server.enqueue(route, fits(chat.text('The build uses esbuild.')), fits(chat.text('Goals: fix the build. Done: found esbuild.')), fits(chat.text('Next.')));
      await turn('how is it built?');
      await session.compact('requested', 'keep the build details');
      const compacted = frames.find((f): f is FrameOf<'session.compacted'> => f.type === 'session.compacted');
      assert.ok(compacted, JSON.stringify(frames.filter((f) => f.type === 'session.error').map((f) => f.payload)));
      assert.equal(compacted.payload.summary, 'Goals: fix the build. Done: found esbuild.');
      assert.equal(compacted.payload.trigger, 'requested');
      assert.ok(compacted.payload.current_token_count > 0);
      const summaryRequest = sent()[1];
      assert.equal(summaryRequest.tool_choice, 'none');
      assert.match(String(summaryRequest.messages.at(-1)!.content), /Summarize our conversation so far[\s\S]*Also: keep the build details/);
      await turn('go on');
      const next = sent()[2].messages.map((m) => [m.role, m.content]);
      assert.equal(next.length, 4, JSON.stringify(next));
      assert.match(String(next[1][1]), /^This conversation was compacted\. A summary of everything before this point:\n\nGoals: fix the build/);
      assert.equal(next[2][0], 'assistant');
      assert.deepEqual(next[3], ['user', 'go on']);
      assert.deepEqual(validateText(frames.map((f) => JSON.stringify(f)).join('\n')).problems.filter((p) => p.severity === 'error'), []);
    } finally {
      await session.end();
    }
  });

  it('§6.3.1 MUST: at 95% of a known window the engine compacts after the turn, trigger auto', async () => {
    const first = await firstCallTokens();
    // The first turn's call, with a long answer, holds 96% of this window (its prompt less than 95%).
    completionTokens = 1_000;
    adapter = new OpenAIAdapter({ baseUrl: `${server.url}/v1`, model: 'mock-model', contextWindow: Math.floor((first + 1_000) / 0.96) });
    const frames: Frame[] = [];
    const session = new AgentSession({ adapter, out: (f) => void frames.push(f), workspacePath: ws, toolRecheckMs: 3_600_000 });
    try {
      await session.start();
      server.enqueue(route, fits(chat.text('hello')), fits(chat.text('Summary: said hello.')));
      session.prompt({ prompt_text: 'hi' });
      await until(() => frames.some((f) => f.type === 'session.compacted'), 'the automatic compaction');
      const c = frames.find((f): f is FrameOf<'session.compacted'> => f.type === 'session.compacted')!;
      assert.equal(c.payload.trigger, 'auto');
      assert.equal(c.payload.summary, 'Summary: said hello.');
      const usage = frames.find((f): f is FrameOf<'session.usage'> => f.type === 'session.usage')!;
      assert.ok((usage.payload.context_window?.utilization ?? 0) >= 0.95, JSON.stringify(usage.payload.context_window));
    } finally {
      await session.end();
    }
  });
});

describe('OpenAI-compatible agent: what counts as a refusal for length (decision 730)', () => {
  it('each server\'s words, and the window where they name it', () => {
    assert.deepEqual(contextOverflowOf(400, JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", code: 'context_length_exceeded' } })), { capacity: 8192, requested: 9000 });
    assert.deepEqual(contextOverflowOf(400, '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion)."}'), { capacity: 4096, requested: 4000 });
    assert.deepEqual(contextOverflowOf(400, '{"error":{"message":"This endpoint\'s maximum context length is 32768 tokens. However, you requested about 40000 tokens."}}'), { capacity: 32768 });
    assert.deepEqual(contextOverflowOf(400, '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}'), { capacity: 4096, requested: 5000 });
    assert.deepEqual(contextOverflowOf(400, '{"error":"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough."}'), { capacity: 4096, requested: 5000 });
    assert.deepEqual(contextOverflowOf(400, '{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}'), { capacity: 200000, requested: 210000 });
    assert.deepEqual(contextOverflowOf(413, 'input is too long for this model'), {});
    assert.deepEqual(contextOverflowOf(undefined, '{"error":{"message":"the request exceeds the available context size, try increasing it"}}'), {});
  });

  it('other errors are not: a wrong key, a rate limit, a bad request about something else, a server error', () => {
    assert.equal(contextOverflowOf(401, '{"error":{"message":"Incorrect API key provided"}}'), undefined);
    assert.equal(contextOverflowOf(429, '{"error":{"message":"Rate limit reached: too many tokens per minute"}}'), undefined);
    assert.equal(contextOverflowOf(400, '{"error":{"message":"Invalid value for tool_choice"}}'), undefined);
    assert.equal(contextOverflowOf(500, "maximum context length is 8192 tokens"), undefined);
  });
});

describe('OpenAI-compatible agent: the conversation\'s bounds (decision 730)', () => {
  const tool = (id: string, chars: number) => [
    { role: 'assistant' as const, content: null, tool_calls: [{ id, type: 'function' as const, function: { name: 'Read', arguments: '{"file_path":"x"}' } }] },
    { role: 'tool' as const, tool_call_id: id, content: 'x'.repeat(chars) },
  ];

  it('a server that takes any length no longer lets it grow: past 32 MiB characters the oldest go, the prompt under way stays', () => {
    const c = new Conversation('system');
    for (let k = 0; k < 6; k++) {
      c.push({ role: 'user', content: `prompt ${k}` });
      for (const m of tool(`c${k}`, 8 * 1024 * 1024)) c.push(m);
    }
    const sentNow = c.forRequest();
    const chars = sentNow.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
    assert.ok(chars <= CONVERSATION_MAX_CHARS + 1000, `${chars} characters kept`);
    assert.equal(sentNow.filter((m) => m.role === 'user').at(-1)!.content, 'prompt 5');
    assert.ok(c.takeTrimmed().dropped > 0);
  });

  it('in the exchange under way, old tool outputs become a line saying how much was left out; the prompt is never cut, and a prompt too long alone does not fit', () => {
    const c = new Conversation('system', 0, 2_000);
    c.push({ role: 'user', content: 'read them all' });
    for (let k = 0; k < 4; k++) for (const m of tool(`c${k}`, 2_000)) c.push(m);
    assert.equal(c.fit(), true);
    const msgs = c.forRequest();
    assert.equal(msgs[1].content, 'read them all');
    assert.match(String(msgs[3].content), /^\[left out to fit the model's context window: 2,000 characters of tool output\]$/);
    assert.equal(msgs.at(-1)!.content, 'x'.repeat(2_000), 'the newest output is kept while the rest makes room');
    assert.equal(c.takeTrimmed().shortened >= 1, true);
    const alone = new Conversation('system', 0, 1_000);
    alone.push({ role: 'user', content: 'y'.repeat(10_000) });
    assert.equal(alone.fit(), false);
    assert.equal(alone.forRequest()[1].content, 'y'.repeat(10_000));
  });
});
