// Decision 556: a line of an ACP agent that we cannot read (not JSON, over the reader's limit, or
// JSON that is not a JSON-RPC message) is answered on the agent's stdin with a JSON-RPC error
// (§5: -32700 Parse error / -32600 Invalid Request), with the id of the agent's request when the
// line's start shows one, so that request does not wait forever; with id null when no id can be
// seen; never for a response. The replies are bounded. A real child process writes the lines and
// reports, as its text, the answers it got; the reader's limit is the real one.
import { strict as assert } from 'node:assert';
import type { AcpAdapter } from '../../../src/agents/acp/adapter';
import { REPLY_LIMITS } from '../../../src/agents/acp/unreadableReplies';
import { MAX_LINE_CHARS } from '../../../src/agents/process/jsonLines';
import { WARNINGS_PER_KIND } from '../../../src/agents/process/warningBudget';
import type { RecordingHost, TurnRecord } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

// The scenario is the agent's first argument. During the first prompt it writes its lines, waits
// for the answer it needs, says as its text the answers it got (JSON), and ends the turn.
const AGENT = `${FAKE_ACP_PREAMBLE}/** Every answer the client wrote to us, and who waits for which id. */
const got = [];
const waiting = new Map();
const ask = (id, write) => new Promise((resolve) => { waiting.set(id, resolve); write(); });
/** A request the client's SDK answers (method not found): everything written before it is answered by then. */
const sync = () => ask('sync', () => send({ id: 'sync', method: 'x/sync', params: {} }));
const WRITE = '{"jsonrpc":"2.0","id":"w1","method":"fs/write_text_file","params":{"sessionId":"fake-1","path":"/tmp/a.txt","content":"';
async function run() {
  if (scenario === 'request-not-json') say(JSON.stringify(await ask('w1', () => line(WRITE + 'a"}}}'))));
  else if (scenario === 'request-too-long') say(JSON.stringify(await ask('w1', () => long(WRITE, '"}}'))));
  else if (scenario === 'request-invalid') {
    // Valid JSON, but no "jsonrpc": not a JSON-RPC request.
    say(JSON.stringify(await ask('r1', () => line(JSON.stringify({ id: 'r1', method: 'fs/read_text_file', params: { sessionId: 'fake-1', path: '/tmp/a.txt' } })))));
  } else if (scenario === 'no-id') {
    line('Loading model...');
    line('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fake-1"}}}');
    line('42');
    line('{"jsonrpc":"2.0","result":{"stopReason":"end_turn"},"id":99}}');
    await sync();
    say(JSON.stringify(got.filter((m) => m.id !== 'sync')));
  } else if (scenario === 'flood') {
    for (let i = 0; i < 30; i++) line('log line ' + i);
    await sync();
    say(JSON.stringify(got.filter((m) => m.id !== 'sync')));
  }
}
let promptId;
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (!('method' in m)) {
    if (m.id === promptId) return;
    got.push(m);
    const resolve = waiting.get(m.id);
    waiting.delete(m.id);
    resolve?.(m);
    return;
  }
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    promptId = m.id;
    void run().then(() => send({ id: m.id, result: { stopReason: 'end_turn' } }));
  }
});`;

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  error?: { code: number; message: string };
}

describe('agents/acp: unreadable lines are answered with a JSON-RPC error (decision 556)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-replies-', AGENT);

  async function open(scenario: string): Promise<{ host: RecordingHost; adapter: AcpAdapter; traced: unknown[] }> {
    const traced: unknown[] = [];
    return { ...(await agent.open(scenario, { trace: (d, m) => d === 'client->agent' && traced.push(m) })), traced };
  }

  const warnings = (host: RecordingHost, turn: TurnRecord) => host.ofType('agent.error', turn.frames).filter((e) => e.payload.error_code === 'UNPARSEABLE_OUTPUT').map((e) => e.payload.message);
  /** What the agent said it got: its text, as JSON. */
  const answers = (host: RecordingHost, turn: TurnRecord): unknown => JSON.parse(host.ofType('agent.text.delta', turn.frames).map((f) => f.payload.text).join(''));

  it('§5 -32700: a request of the agent that is not JSON, its id at the start, is answered with that id; the agent goes on', async () => {
    const { host, adapter: a, traced } = await open('request-not-json');
    const turn = await turnWithin(host, a, 20_000);
    const got = answers(host, turn) as Answer;
    assert.equal(got.id, 'w1');
    assert.equal(got.error?.code, -32700);
    assert.match(got.error?.message ?? '', /^Parse error: the client could not read this line \(not JSON: /);
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assert.equal(warnings(host, turn).length, 1, 'shown once, as before (decision 551)');
    assert.ok(traced.some((m) => (m as Answer).id === 'w1'), 'the answer is in the trace: the agent really got it');
    assertStreamValid(host);
  });

  it('§5 -32700: an over-long request of the agent (dropped by the reader) is answered with its id', async () => {
    const { host, adapter: a } = await open('request-too-long');
    const turn = await turnWithin(host, a, 30_000);
    const got = answers(host, turn) as Answer;
    assert.deepEqual(got, { jsonrpc: '2.0', id: 'w1', error: { code: -32700, message: `Parse error: the client could not read this line (line longer than ${MAX_LINE_CHARS} characters dropped)` } });
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });

  it('§5 -32600: JSON that is not a JSON-RPC request but has a method and an id is answered with that id, not null, and shown', async () => {
    const { host, adapter: a } = await open('request-invalid');
    const turn = await turnWithin(host, a, 20_000);
    assert.deepEqual(answers(host, turn), { jsonrpc: '2.0', id: 'r1', error: { code: -32600, message: 'Invalid request: its "jsonrpc" is not "2.0"' } });
    const w = warnings(host, turn);
    assert.equal(w.length, 1);
    assert.match(w[0], /^Fake ACP wrote a line that could not be read \(not a JSON-RPC message: its "jsonrpc" is not "2\.0"\): \{"id":"r1"/);
    assertStreamValid(host);
  });

  it('§5 "id: null" when no id can be seen (a log line, a garbled notification, a number); a garbled response gets no answer', async () => {
    const { host, adapter: a } = await open('no-id');
    const turn = await turnWithin(host, a, 20_000);
    const got = answers(host, turn) as Answer[];
    assert.deepEqual(
      got.map((m) => [m.id, m.error?.code]),
      [
        [null, -32700], // Loading model...
        [null, -32700], // the notification: JSON-RPC's own example answers an invalid one with id null
        [null, -32600], // 42
      ],
      JSON.stringify(got),
    );
    assert.equal(got[2].error?.message, 'Invalid request: a JSON number, not an object');
    assert.equal(warnings(host, turn).length, 4, 'each of the four lines is shown, the number too');
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });

  it(`bounded: of 30 lines without an id only the first ${REPLY_LIMITS.withoutId} are answered, and that is said once; the first ${WARNINGS_PER_KIND} are shown, the rest counted (decision 716)`, async () => {
    const { host, adapter: a } = await open('flood');
    const turn = await turnWithin(host, a, 20_000);
    const got = answers(host, turn) as Answer[];
    assert.equal(got.length, REPLY_LIMITS.withoutId);
    assert.ok(got.every((m) => m.id === null && m.error?.code === -32700));
    const w = warnings(host, turn);
    const heldBack = w.filter((m) => m.includes('get no JSON-RPC error back'));
    assert.equal(heldBack.length, 1);
    // Decision 716: the first WARNINGS_PER_KIND lines of a kind are shown, the rest counted in one summary at the turn's end.
    assert.equal(w.length, WARNINGS_PER_KIND + 2, 'the first lines, the note about answers, the summary');
    assert.equal(w.indexOf(heldBack[0]), REPLY_LIMITS.withoutId + 1, 'said right after the first line not answered');
    assert.match(w[w.length - 1], new RegExp(`^Fake ACP wrote ${30 - WARNINGS_PER_KIND} more lines that could not be read \\(not JSON\\), not shown`));
    assertStreamValid(host);
  });
});
