// Decision 556, its parts by themselves: what a line's start shows (lineStart, read from a bounded
// head in linear time), which JSON values the SDK reads as messages (rpcShape, checked against the
// SDK's own predicates), and the pipe's answers with their bounds (an injected clock). The whole
// path with a real agent process is in acp.unreadableReplies.test.ts.
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { lineStart, responseIdAtStart } from '../../../src/agents/acp/badLines';
import { MAX_ECHOED_ID_CHARS, notAMessage, requestIdOf } from '../../../src/agents/acp/rpcShape';
import { messagePipe, SESSION_UPDATE_VIA } from '../../../src/agents/acp/stream';

describe('agents/acp lineStart: requests of the agent seen at the start of a line (decision 556)', () => {
  it('a string method and an id among the plain members before a nested value is a request with that id', () => {
    assert.deepEqual(lineStart('{"jsonrpc":"2.0","id":3,"method":"fs/write_text_file","params":{"content":"'), { kind: 'request', id: 3 });
    assert.deepEqual(lineStart(' { "method" : "fs/read_text_file" , "id" : "r-1" , "params" : ['), { kind: 'request', id: 'r-1' });
    assert.deepEqual(lineStart('{"method":"x","id":0}}'), { kind: 'request', id: 0 }, 'the last member, before the closing brace');
  });

  it('anything else is not a request: a notification, an id after a nested value, a method that is not a string, a response', () => {
    for (const line of [
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}}', // a notification
      '{"jsonrpc":"2.0","method":"fs/write_text_file","params":{},"id":3}}', // its id after params
      '{"id":3,"method":7,"params":{', // a method that is not a string
      '{"id":null,"method":"x","params":{', // an id JSON-RPC answers with null anyway
      '{"id":{"n":3},"method":"x",', // a nested id
      `{"jsonrpc":"2.0","x":"${'y'.repeat(200)}","id":3,"method":"x",`, // past the 200 characters read
      'Loading model... {"id":3,"method":"x",',
      '{"bad\\q":1,"id":3,"method":"x",', // an escape JSON does not accept
    ]) {
      assert.equal(lineStart(line).kind, 'unknown', line);
    }
    assert.deepEqual(lineStart('{"id":3,"method":"x","result":{'), { kind: 'answer' }, 'a result makes it a response, never answered');
    assert.deepEqual(lineStart('{"jsonrpc":"2.0","result":{},"id":3}}'), { kind: 'answer' });
    assert.equal(responseIdAtStart('{"id":3,"method":"x","result":{'), undefined, 'decision 551 unchanged');
  });

  it('reads only the head: a line of millions of members costs what 200 characters cost', () => {
    const line = '{' + '"a":1,'.repeat(2_000_000) + '"id":3,"method":"x",';
    const t = performance.now();
    for (let i = 0; i < 100; i++) lineStart(line);
    assert.ok(performance.now() - t < 500, 'bounded by the head');
    assert.equal(lineStart(line).kind, 'unknown');
  });
});

describe('agents/acp rpcShape: the values the SDK reads as messages (decision 556)', () => {
  const VALUES: unknown[] = [
    42, 'text', true, null, [], [{ jsonrpc: '2.0', id: 1, method: 'x' }],
    { jsonrpc: '2.0', id: 1, method: 'x' }, { jsonrpc: '2.0', id: null, method: 'x' }, { jsonrpc: '2.0', method: 'x' },
    { jsonrpc: '2.0', id: {}, method: 'x' }, { jsonrpc: '2.0', id: 1, method: 7 }, { id: 1, method: 'x' }, { jsonrpc: '1.0', method: 'x' },
    { jsonrpc: '2.0', id: 1, result: {} }, { id: 1 }, { result: 1 }, { error: {} }, { jsonrpc: '2.0' }, {},
  ];

  it('answers exactly what @agentclientprotocol/sdk would not read (its own predicates)', async () => {
    type Pred = (v: unknown) => boolean;
    const sdk = (await import(pathToFileURL(resolve('node_modules/@agentclientprotocol/sdk/dist/core/jsonrpc.js')).href)) as Record<'isRequestMessage' | 'isNotificationMessage' | 'isResponseShapedMessage', Pred>;
    for (const v of VALUES) {
      const read = !Array.isArray(v) && (sdk.isRequestMessage(v) || sdk.isNotificationMessage(v) || sdk.isResponseShapedMessage(v));
      assert.equal(notAMessage(v) === undefined, read, JSON.stringify(v));
    }
  });

  it('answers with the id of what meant to be a request, else null', () => {
    assert.equal(requestIdOf({ id: 'r1', method: 'x' }), 'r1');
    assert.equal(requestIdOf({ jsonrpc: '2.0', id: 5, method: 7 }), 5);
    assert.equal(requestIdOf({ jsonrpc: '2.0', id: {}, method: 'x' }), null);
    assert.equal(requestIdOf({ id: 5 }), null);
    assert.equal(requestIdOf([{ id: 5, method: 'x' }]), null);
    assert.equal(requestIdOf(42), null);
    assert.equal(requestIdOf({ id: 'i'.repeat(MAX_ECHOED_ID_CHARS), method: 'x' }), 'i'.repeat(MAX_ECHOED_ID_CHARS));
    assert.equal(requestIdOf({ id: 'i'.repeat(MAX_ECHOED_ID_CHARS + 1), method: 'x' }), null, 'a huge id is not echoed');
  });
});

describe('agents/acp messagePipe: answers to unreadable lines and their bounds (decision 556)', () => {
  function pipeAt(clock: { t: number }) {
    const sent: AnyMessage[] = [];
    let heldBack = 0;
    const pipe = messagePipe((m) => (sent.push(m), true), undefined, { limits: { withIdPerSecond: 2, withoutId: 1 }, now: () => clock.t, onRepliesHeldBack: () => heldBack++ });
    return { pipe, sent, ids: () => sent.map((m) => (m as { id: unknown }).id), heldBack: () => heldBack };
  }
  const request = (id: string) => `{"jsonrpc":"2.0","id":"${id}","method":"fs/write_text_file","params":{`;

  it('requests: a bucket of N, refilled at N a second; held back is said once', () => {
    const clock = { t: 0 };
    const p = pipeAt(clock);
    for (const id of ['a', 'b', 'c']) p.pipe.unreadable(request(id), 'not JSON: x');
    assert.deepEqual(p.ids(), ['a', 'b']);
    assert.equal(p.heldBack(), 1);
    clock.t = 500; // one more
    for (const id of ['d', 'e']) p.pipe.unreadable(request(id), 'not JSON: x');
    assert.deepEqual(p.ids(), ['a', 'b', 'd']);
    assert.equal(p.heldBack(), 1, 'said once');
    assert.deepEqual(p.sent[0], { jsonrpc: '2.0', id: 'a', error: { code: -32700, message: 'Parse error: the client could not read this line (not JSON: x)' } });
  });

  it('id null: only the first N in all, apart from the requests\' bucket', () => {
    const clock = { t: 0 };
    const p = pipeAt(clock);
    p.pipe.unreadable('log line 1', 'not JSON: x');
    p.pipe.unreadable('log line 2', 'not JSON: x');
    clock.t = 60_000;
    p.pipe.deliver(42);
    p.pipe.unreadable(request('a'), 'not JSON: x');
    assert.deepEqual(p.ids(), [null, 'a']);
  });

  it('never answered: a response, a line the handler (not the reader) failed on, anything once the SDK stopped reading', async () => {
    const p = pipeAt({ t: 0 });
    p.pipe.unreadable('{"jsonrpc":"2.0","id":"a","result":{"x":1}}}', 'not JSON: x');
    p.pipe.unreadable('{"jsonrpc":"2.0","result":{"x":1},"id":"a"}}', 'not JSON: x');
    p.pipe.unreadable('{"jsonrpc":"2.0","id":"a","error":{"code":1}}}', 'not JSON: x');
    p.pipe.unreadable(request('a'), 'handler failed: boom');
    assert.deepEqual(p.sent, []);
    await p.pipe.stream.readable.getReader().cancel(new Error('ACP connection closed'));
    p.pipe.unreadable(request('b'), 'not JSON: x');
    assert.equal(p.pipe.deliver({ id: 'c', method: 'x' }), 'its "jsonrpc" is not "2.0"');
    assert.deepEqual(p.sent, []);
  });

  it('a value that is not a message is kept from the SDK and answered once, by us, without echoing it', async () => {
    const p = pipeAt({ t: 0 });
    const big = { id: 'r1', method: 'fs/read_text_file', params: { pad: 'x'.repeat(100_000) } };
    assert.equal(p.pipe.deliver(big), 'its "jsonrpc" is not "2.0"');
    assert.equal(p.pipe.deliver({ jsonrpc: '2.0', method: 'session/update', params: {} }), undefined);
    assert.deepEqual(p.sent, [{ jsonrpc: '2.0', id: 'r1', error: { code: -32600, message: 'Invalid request: its "jsonrpc" is not "2.0"' } }]);
    const first = await p.pipe.stream.readable.getReader().read();
    // Under our method, which the SDK does not parse (decision 716): the translator reads it.
    assert.equal((first.value as { method?: string }).method, SESSION_UPDATE_VIA, 'the SDK saw only the message');
  });
});
