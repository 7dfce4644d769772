// Decision 551: the ACP adapter listens to the line reader's bad lines. A line over the reader's
// limit (64 Mi characters, dropped whole, decision 543) or one that is not JSON is shown as a
// recoverable UNPARSEABLE_OUTPUT warning; when the line visibly starts as the answer to a request
// still waiting (here session/prompt), that request fails and the turn ends with an error instead
// of waiting forever. A real child process writes the lines; the limit is the real one.
import { strict as assert } from 'node:assert';
import { responseIdAtStart } from '../../../src/agents/acp/badLines';
import { messagePipe } from '../../../src/agents/acp/stream';
import { MAX_LINE_CHARS } from '../../../src/agents/process/jsonLines';
import type { RecordingHost, TurnRecord } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

// The scenario is the agent's first argument; the second prompt is always answered normally.
const AGENT = `${FAKE_ACP_PREAMBLE}let prompts = 0;
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt' && prompts++ > 0) {
    say('second turn');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  } else if (m.method === 'session/prompt') {
    say('before ');
    if (scenario === 'long-update') {
      long('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fake-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"', '"}}}}');
      say('after');
      send({ id: m.id, result: { stopReason: 'end_turn' } });
    } else if (scenario === 'long-answer') {
      long('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"stopReason":"end_turn","_meta":{"pad":"', '"}}}');
    } else if (scenario === 'garbled-answer') {
      line('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"stopReason":"end_turn"}}}');
    } else if (scenario === 'garbled-answer-id-last') {
      line('{"jsonrpc":"2.0","result":{"stopReason":"end_turn"},"id":' + JSON.stringify(m.id) + '}}');
    }
  }
});`;

describe('agents/acp: lines the reader could not read (decision 551)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-badlines-', AGENT);
  const open = (scenario: string) => agent.open(scenario);

  const errorsCoded = (code: string) => (host: RecordingHost, turn: TurnRecord) => host.ofType('agent.error', turn.frames).filter((e) => e.payload.error_code === code);
  const warnings = errorsCoded('UNPARSEABLE_OUTPUT');
  const promptFailures = errorsCoded('ACP_PROMPT_FAILED');
  const text = (host: RecordingHost, turn: TurnRecord) => host.ofType('agent.text.delta', turn.frames).map((f) => f.payload.text).join('');

  it('an over-long session/update is dropped and shown once as a warning; the turn goes on and ends end_turn', async () => {
    const { host, adapter: a } = await open('long-update');
    const turn = await turnWithin(host, a, 30_000);
    const w = warnings(host, turn);
    assert.equal(w.length, 1, JSON.stringify(host.ofType('agent.error', turn.frames).map((e) => e.payload.message)));
    assert.equal(w[0].payload.severity, 'warning');
    assert.equal(w[0].payload.recoverable, true);
    assert.equal(w[0].payload.details?.module, 'acp:fake');
    assert.match(w[0].payload.message, new RegExp(`^Fake ACP wrote a line that could not be read \\(line longer than ${MAX_LINE_CHARS} characters dropped\\): \\{"jsonrpc":"2\\.0","method":"session/update"`));
    assert.ok(w[0].payload.message.length < 400, 'only the start of the line is quoted');
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assert.equal(text(host, turn), 'before after');
    assertStreamValid(host);
  });

  it('an over-long answer to session/prompt fails the prompt: the turn ends with an error instead of waiting, and the session goes on', async () => {
    const { host, adapter: a } = await open('long-answer');
    const turn = await turnWithin(host, a, 30_000);
    assert.equal(warnings(host, turn).length, 1);
    assert.equal(turn.outcome.stop_reason, 'error');
    const failed = promptFailures(host, turn);
    assert.equal(failed.length, 1);
    assert.equal(failed[0].payload.message, `the answer to session/prompt could not be read (line longer than ${MAX_LINE_CHARS} characters dropped)`);
    assert.equal(failed[0].payload.recoverable, true);
    // The agent answered (its turn is over), so the next prompt is an ordinary turn.
    const next = await turnWithin(host, a, 20_000);
    assert.equal(next.outcome.stop_reason, 'end_turn');
    assert.equal(text(host, next), 'second turn');
    assertStreamValid(host);
  });

  it('an answer to session/prompt that is not JSON fails the prompt the same way', async () => {
    const { host, adapter: a } = await open('garbled-answer');
    const turn = await turnWithin(host, a, 20_000);
    const w = warnings(host, turn);
    assert.equal(w.length, 1);
    assert.match(w[0].payload.message, /^Fake ACP wrote a line that could not be read \(not JSON: .*\): \{"jsonrpc":"2\.0","id":\d+,"result":\{"stopReason":"end_turn"\}\}\}$/);
    assert.equal(turn.outcome.stop_reason, 'error');
    const failed = promptFailures(host, turn);
    assert.match(failed[0]?.payload.message ?? '', /^the answer to session\/prompt could not be read \(not JSON: /);
    assert.equal(text(host, turn), 'before ');
    assert.equal((await turnWithin(host, a, 20_000)).outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });

  it('a bad line whose start does not show its id is only shown: the prompt keeps waiting (here until cancelled)', async () => {
    const { host, adapter: a } = await open('garbled-answer-id-last');
    let shown: () => void = () => undefined;
    const warned = new Promise<void>((resolve) => (shown = resolve));
    const turn = await turnWithin(host, a, 20_000, {
      onFrame: (f) => f.type === 'agent.error' && f.payload.error_code === 'UNPARSEABLE_OUTPUT' && shown(),
      cancelAfter: warned.then(() => new Promise((r) => setTimeout(r, 300))),
    });
    assert.equal(warnings(host, turn).length, 1);
    assert.equal(promptFailures(host, turn).length, 0);
    assert.equal(turn.outcome.stop_reason, 'cancelled');
  });
});

describe('agents/acp responseIdAtStart (decision 551)', () => {
  it('reads the id of an answer from plain members before result or error', () => {
    assert.equal(responseIdAtStart('{"jsonrpc":"2.0","id":7,"result":{"x":'), 7);
    assert.equal(responseIdAtStart(' { "id" : "a-1" , "jsonrpc" : "2.0" , "error" : {'), 'a-1');
    assert.equal(responseIdAtStart('{"id":0,"result":null}'), 0);
  });

  it('says nothing when the start does not show an answer and its id', () => {
    for (const line of [
      '{"jsonrpc":"2.0","result":{"stopReason":"end_turn"},"id":3}', // id after the result
      '{"jsonrpc":"2.0","id":3,"method":"fs/write_text_file","params":{', // a request of the agent
      '{"jsonrpc":"2.0","method":"session/update","params":{', // a notification
      '{"jsonrpc":"2.0","id":12', // cut inside the id
      '{"jsonrpc":"2.0","id":null,"error":{', // an answer to no request
      '{"_meta":{"id":3},"id":4,"result":{', // a nested value first
      'WARNING: not a message {"id":3,"result":{',
      `{"jsonrpc":"2.0","x":"${'y'.repeat(200)}","id":3,"result":{`, // past the 200 characters read
      '{"bad\\q":1,"id":3,"result":{', // an escape JSON does not accept
    ]) {
      assert.equal(responseIdAtStart(line), undefined, line);
    }
  });
});

describe('agents/acp messagePipe: our requests waiting for an answer (decision 551)', () => {
  const LOST = '{"jsonrpc":"2.0","id":0,"result":{"stopReason":"end_turn"}}}';

  it('fails only a request still waiting, once, with an error answer that is not traced', async () => {
    const traced: unknown[] = [];
    const pipe = messagePipe(() => true, (_d, m) => traced.push(m));
    const writer = pipe.stream.writable.getWriter();
    await writer.write({ jsonrpc: '2.0', id: 0, method: 'session/prompt', params: {} });
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'session/set_mode', params: {} });
    pipe.deliver({ jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(pipe.answerLost(LOST.replace('"id":0', '"id":1'), 'not JSON'), undefined, 'answered already');
    assert.equal(pipe.answerLost(LOST.replace('"id":0', '"id":2'), 'not JSON'), undefined, 'never asked');
    assert.equal(pipe.answerLost(LOST, 'not JSON: x'), 'session/prompt');
    assert.equal(pipe.answerLost(LOST, 'not JSON: x'), undefined, 'failed once');
    const reader = pipe.stream.readable.getReader();
    assert.deepEqual((await reader.read()).value, { jsonrpc: '2.0', id: 1, result: {} });
    assert.deepEqual((await reader.read()).value, { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'the answer to session/prompt could not be read (not JSON: x)' } });
    assert.equal(traced.length, 3, 'two requests and the real answer; not the made-up one');
  });

  it('once the SDK stops reading, lines are neither queued nor thrown back at the line reader', async () => {
    const pipe = messagePipe(() => true);
    await pipe.stream.writable.getWriter().write({ jsonrpc: '2.0', id: 0, method: 'session/prompt', params: {} });
    await pipe.stream.readable.getReader().cancel(new Error('ACP connection closed'));
    assert.doesNotThrow(() => pipe.deliver({ jsonrpc: '2.0', method: 'session/update', params: {} }));
    assert.equal(pipe.answerLost(LOST, 'not JSON'), undefined);
  });
});
