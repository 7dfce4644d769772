// The mock model server the real-CLI tests rely on: its core (routes, queues, log, errors, hanging
// streams) and the Anthropic Messages SSE route, checked over real HTTP on 127.0.0.1.
import { strict as assert } from 'node:assert';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic, lastUserText, type AnthropicReply } from '../../support/mockModel/anthropic';

interface Sse {
  event?: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): Sse[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const ev = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]) as Record<string, unknown>;
      return ev ? { event: ev, data } : { data };
    });
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('mock model server (core + Anthropic Messages route)', () => {
  let s: MockModelServer;
  let key: string;
  beforeEach(async () => {
    s = await MockModelServer.start();
    key = installAnthropic(s);
  });
  afterEach(async () => s.stop());

  it('binds 127.0.0.1 on a free port', () => {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(s.port > 0);
  });

  it('streams the Anthropic event sequence for thinking, text and tool_use; the JSON deltas rebuild the input', async () => {
    const reply: AnthropicReply = {
      blocks: [
        { type: 'thinking', thinking: 'consider the file' },
        { type: 'text', text: 'Reading a file now, in several pieces.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/tmp/x', limit: 10 } },
      ],
      usage: { input_tokens: 11, output_tokens: 22 },
      chunkSize: 5,
    };
    s.enqueue(key, reply);
    const res = await post(`${s.url}/v1/messages?beta=true`, { model: 'claude-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'message_start');
    assert.deepEqual(names.slice(-2), ['message_delta', 'message_stop']);
    assert.deepEqual(events.filter((e) => e.event === 'content_block_start').map((e) => (e.data.content_block as { type: string }).type), ['thinking', 'text', 'tool_use']);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta as Record<string, string>);
    assert.equal(deltas.filter((d) => d.type === 'text_delta').map((d) => d.text).join(''), 'Reading a file now, in several pieces.');
    assert.ok(deltas.filter((d) => d.type === 'text_delta').length > 3);
    assert.equal(deltas.filter((d) => d.type === 'thinking_delta').map((d) => d.thinking).join(''), 'consider the file');
    assert.ok(deltas.some((d) => d.type === 'signature_delta'));
    assert.deepEqual(JSON.parse(deltas.filter((d) => d.type === 'input_json_delta').map((d) => d.partial_json).join('')), { file_path: '/tmp/x', limit: 10 });
    const md = events.find((e) => e.event === 'message_delta')!.data;
    assert.deepEqual(md.delta, { stop_reason: 'tool_use', stop_sequence: null });
    assert.deepEqual(md.usage, { output_tokens: 22 });
    assert.equal(((events[0].data.message as { model: string }).model), 'claude-test');
    // The log keeps what the client sent.
    assert.equal(s.requests.length, 1);
    assert.equal(s.requests[0].query.get('beta'), 'true');
    assert.equal(lastUserText(s.requests[0]), 'hi');
    assert.equal(s.requests[0].completed, true);
    assert.equal(s.pending(key), 0);
  });

  it('answers a non-streaming request with one JSON message', async () => {
    s.enqueue(key, claude.text('plain'));
    const res = await post(`${s.url}/v1/messages`, { model: 'm', messages: [] });
    const body = (await res.json()) as { content: Array<{ text: string }>; stop_reason: string };
    assert.equal(body.content[0].text, 'plain');
    assert.equal(body.stop_reason, 'end_turn');
  });

  it('injects scripted API errors in the provider shape, and says clearly when the script ran out', async () => {
    s.enqueue(key, claude.error(529, 'overloaded_error', 'Overloaded'));
    const a = await post(`${s.url}/v1/messages`, { stream: true });
    assert.equal(a.status, 529);
    assert.deepEqual(await a.json(), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const b = await post(`${s.url}/v1/messages`, { stream: true });
    assert.equal(b.status, 500);
    assert.match(((await b.json()) as { error: { message: string } }).error.message, /no scripted reply left for request #2/);
  });

  it('a mid-stream error event after N blocks', async () => {
    s.enqueue<AnthropicReply>(key, { blocks: [claude.text('one').blocks[0], claude.text('two').blocks[0]], streamErrorAfterBlocks: 1 });
    const events = parseSse(await (await post(`${s.url}/v1/messages`, { stream: true })).text());
    assert.equal(events.at(-1)!.event, 'error');
    assert.equal(events.filter((e) => e.event === 'content_block_start').length, 1);
  });

  it('replies with `match` go to the requests they match; the fallback answers the rest', async () => {
    s.enqueue(key, { ...claude.text('for B'), match: (r) => lastUserText(r) === 'B' }, claude.text('for anyone'));
    s.setFallback(key, claude.text('fallback'));
    const ask = async (q: string) => ((await (await post(`${s.url}/v1/messages`, { messages: [{ role: 'user', content: q }] })).json()) as { content: Array<{ text: string }> }).content[0].text;
    assert.equal(await ask('A'), 'for anyone');
    assert.equal(await ask('B'), 'for B');
    assert.equal(await ask('C'), 'fallback');
  });

  it('a hanging reply keeps the stream open mid-block until the client goes away, and the log says it was aborted', async () => {
    s.enqueue(key, { ...claude.text('never finishes'), hang: true });
    const ac = new AbortController();
    const res = await fetch(`${s.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ stream: true }), signal: ac.signal });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('text_delta')) seen += new TextDecoder().decode((await reader.read()).value);
    assert.ok(!seen.includes('content_block_stop'));
    ac.abort();
    await reader.cancel().catch(() => {});
    for (let i = 0; i < 100 && !s.requests[0].aborted; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(s.requests[0].aborted, true);
    assert.equal(s.requests[0].completed, false);
  });

  it('routes are pluggable: exact, :param and RegExp paths; unknown paths get a 404 naming the path', async () => {
    const seen: Array<Record<string, string>> = [];
    const k1 = s.route('POST', '/v1beta/models/:model', ({ res, params }) => {
      seen.push(params);
      res.end('ok');
    });
    s.route('POST', /^\/v1beta\/models\/(?<model>[^/:]+):countTokens$/, ({ res, params }) => {
      seen.push(params);
      res.end('ok');
    });
    s.route('POST', '/v1beta/models/:model:streamGenerateContent', ({ res, params }) => {
      seen.push(params);
      res.end('ok');
    });
    assert.equal(k1, 'POST /v1beta/models/:model');
    await post(`${s.url}/v1beta/models/gemini-x`, {});
    await post(`${s.url}/v1beta/models/gemini-y:streamGenerateContent?alt=sse`, {});
    await post(`${s.url}/v1beta/models/gemini-z:countTokens`, {});
    assert.deepEqual(seen, [{ model: 'gemini-x' }, { model: 'gemini-y' }, { model: 'gemini-z' }]);
    const nf = await post(`${s.url}/nope`, {});
    assert.equal(nf.status, 404);
    assert.match(await nf.text(), /no route for POST \/nope/);
    assert.throws(() => s.enqueue('POST /missing', claude.text('x')), /no route "POST \/missing"/);
  });
});
