// Decision 716: what an ACP agent writes is held to bounds before anything reads it. A line nested
// 5,000 deep is refused by the line reader as unreadable; an answer to an id nobody waits for, or
// one without an id, is dropped by the pipe before the SDK (which console.error'd the id as the
// agent wrote it: escape sequences on the operator's terminal, a megabyte id whole, a line per
// answer), and so is every session/update the SDK's own schema would refuse (one console line
// each); the warnings about them are the first 20 of a kind in a turn, then one summary with the
// count. A real child process writes the lines.
import { strict as assert } from 'node:assert';
import { TOO_DEEP_REASON } from '../../../src/agents/process/jsonLines';
import { WARNINGS_PER_KIND } from '../../../src/agents/process/warningBudget';
import type { RecordingHost, TurnRecord } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

const AGENT = `${FAKE_ACP_PREAMBLE}
const nested = (n) => '['.repeat(n) + ']'.repeat(n);
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    say('before ');
    if (scenario === 'deep-update') {
      line('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fake-1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","kind":"execute","rawInput":{"x":' + nested(5000) + '}}}}');
    } else if (scenario === 'unasked') {
      send({ id: '\\u001b]0;PWNED\\u0007\\u001b[2J', result: {} });
      send({ id: 'i'.repeat(1 << 20), result: {} });
      for (let i = 0; i < 300; i++) send({ id: 'nobody-' + i, result: {} });
      send({ result: {} });
      send({ error: { code: 1, message: 'x' }, '\\u001b[2Jk': 1 });
      // Each fails the SDK's schema (no content): it logged one console line per update.
      for (let i = 0; i < 30; i++) send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk' } } });
      send({ method: 'session/update', params: { nope: 1 } });
    }
    say('after');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  }
});`;

describe('agents/acp: the agent\'s output is bounded before it is read (decision 716)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-bounded-', AGENT);
  const open = (scenario: string) => agent.open(scenario);

  /** What the SDK (or anything else in this process) wrote to the console during `run`. */
  async function consoleDuring<T>(run: () => Promise<T>): Promise<{ result: T; logged: unknown[][] }> {
    const logged: unknown[][] = [];
    const { error, warn } = console;
    console.error = (...a: unknown[]) => void logged.push(a);
    console.warn = (...a: unknown[]) => void logged.push(a);
    try {
      return { result: await run(), logged };
    } finally {
      console.error = error;
      console.warn = warn;
    }
  }

  const messages = (host: RecordingHost, turn: TurnRecord, code: string) => host.ofType('agent.error', turn.frames).filter((e) => e.payload.error_code === code).map((e) => e.payload.message);
  const text = (host: RecordingHost, turn: TurnRecord) => host.ofType('agent.text.delta', turn.frames).map((f) => f.payload.text).join('');

  it('a session/update nested 5,000 deep is one warning in words, read by nobody; the turn goes on and its stream is valid', async () => {
    const { host, adapter: a } = await open('deep-update');
    const turn = await turnWithin(host, a, 20_000);
    const w = messages(host, turn, 'UNPARSEABLE_OUTPUT');
    assert.equal(w.length, 1, JSON.stringify(w));
    assert.ok(w[0].startsWith(`Fake ACP wrote a line that could not be read (${TOO_DEEP_REASON}): {"jsonrpc":"2.0","method":"session/update"`), w[0]);
    assert.ok(w[0].length < 400);
    assert.equal(text(host, turn), 'before after');
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });

  it('answers to no request of ours and updates the SDK would refuse never reach the console; the first 20 of each kind are shown, escaped and short, then one count', async () => {
    const { host, adapter: a } = await open('unasked');
    const { result: turn, logged } = await consoleDuring(() => turnWithin(host, a, 30_000));
    // The SDK logged each of these, ids as the agent wrote them (a failure shows the start of each).
    assert.equal(logged.length, 0, `nothing on the console: ${JSON.stringify(logged.slice(0, 3).map((a) => a.map((x) => String(x).slice(0, 60))))}`);

    const unasked = messages(host, turn, 'UNPARSEABLE_OUTPUT');
    assert.equal(unasked.length, WARNINGS_PER_KIND + 1, JSON.stringify(unasked.map((m) => m.slice(0, 120))));
    assert.match(unasked[0], /^Fake ACP wrote a line that could not be read \(an answer to no request of ours: its id names none waiting for an answer\): \{"jsonrpc":"2\.0","id":"\\u001b\]0;PWNED\\u0007/);
    assert.match(unasked[WARNINGS_PER_KIND], new RegExp(`^Fake ACP wrote ${304 - WARNINGS_PER_KIND} more lines that could not be read \\(an answer to no request of ours\\), not shown`));
    for (const m of unasked) {
      assert.ok(m.length < 400, `${m.length} characters`);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f]/.test(m), 'no control character of the agent\'s: the line is quoted as the JSON text it was');
    }

    const updates = messages(host, turn, 'ACP_MALFORMED_UPDATE');
    assert.equal(updates.length, WARNINGS_PER_KIND + 1);
    assert.match(updates[0], /agent_message_chunk/);
    assert.match(updates[WARNINGS_PER_KIND], new RegExp(`^Fake ACP sent ${31 - WARNINGS_PER_KIND} more updates this client cannot read, not shown`));

    assert.equal(text(host, turn), 'before after', 'the good updates around them are read');
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });
});
