// Decision 725: TOOL_RAN_UNASKED (decision 632) was one warning per forbidden call an ACP agent ran
// without asking, with no bound: 1,000 such calls in a turn made 1,000 warnings. Now per turn the
// first WARNINGS_PER_KIND are said, the rest counted in one summary as the turn ends, and the next
// turn starts afresh. A real child process writes the lines.
import { strict as assert } from 'node:assert';
import { WARNINGS_PER_KIND } from '../../../src/agents/process/warningBudget';
import { AgentError } from '../../../src/protocol/payloads/agent';
import type { Frame } from '../../../src/protocol/frameTypes';
import type { RecordingHost } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

const AGENT = `${FAKE_ACP_PREAMBLE}
let turns = 0;
const read = (id) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'tool_call', toolCallId: id, title: 'Read a.txt', kind: 'read', status: 'completed', rawInput: { file_path: 'a.txt' }, content: [{ type: 'content', content: { type: 'text', text: 'secret' } }] } } });
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    turns++;
    const n = turns === 1 ? 1000 : 25;
    for (let i = 0; i < n; i++) read('t' + turns + '-' + i);
    say('done');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  }
});`;

describe('agents/acp: TOOL_RAN_UNASKED is bounded per turn (decision 725)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-unasked-', AGENT);
  const unasked = (host: RecordingHost, frames: Frame[]) => host.ofType('agent.error', frames).filter((e) => e.payload.error_code === 'TOOL_RAN_UNASKED').map((e) => e.payload);

  it('1,000 forbidden reads run unasked in one turn: 20 warnings and 1 summary counting the other 980; 25 in the next turn: 20 and a summary of 5', async () => {
    const { host, adapter } = await agent.open('reads');
    host.toolPolicy = { denied_tools: ['Read'] };
    const t1 = await turnWithin(host, adapter, 40_000);
    assert.equal(host.ofType('tool.invoke.result', t1.frames).length, 1000, 'every call still answered');
    const w1 = unasked(host, t1.frames);
    assert.equal(w1.length, WARNINGS_PER_KIND + 1, `${w1.length} warnings`);
    assert.ok(w1.slice(0, WARNINGS_PER_KIND).every((w) => /ran Read without asking first/.test(w.message) && w.details?.invocation_id !== undefined));
    const summary = w1[WARNINGS_PER_KIND];
    assert.match(summary.message, /Fake ACP ran 980 more tools without asking first in this turn[^]*only the first 20[^]*the last: Read/);
    assert.deepEqual([summary.severity, summary.details?.not_shown], ['warning', 980]);
    assert.ok(AgentError.safeParse(summary).success);
    const t2 = await turnWithin(host, adapter, 40_000);
    const w2 = unasked(host, t2.frames);
    assert.equal(w2.length, WARNINGS_PER_KIND + 1, 'a fresh count in the next turn');
    assert.equal(w2[WARNINGS_PER_KIND].details?.not_shown, 5);
    assertStreamValid(host);
  });

  it('the same reads with Read allowed: no warning, no summary (the verdict is the engine\'s, decision 632)', async () => {
    const { host, adapter } = await agent.open('reads');
    host.toolPolicy = { denied_tools: ['Bash'] };
    const t = await turnWithin(host, adapter, 40_000);
    assert.deepEqual(unasked(host, t.frames), [], 'allowed calls are no news');
  });
});
