// Decision 719: an ACP agent's `notice` updates are bounded in the adapter, for every host. Each
// was one agent.error frame with its words whole: 10,000 notices made 10,000 frames, a 1 MB notice
// a 1 MB frame. Per turn and severity the first WARNINGS_PER_KIND are shown, cut to a bounded
// length; the rest are counted in one summary at the end of the turn; the next turn starts afresh,
// and notices while no turn runs have their own budget, summarised as the next turn begins. A real
// child process writes the lines.
import { strict as assert } from 'node:assert';
import { WARNINGS_PER_KIND } from '../../../src/agents/process/warningBudget';
import { WARNING_TEXT_CHARS } from '../../../src/agents/process/warningBudget';
import type { Frame } from '../../../src/protocol/frameTypes';
import type { RecordingHost } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

const AGENT = `${FAKE_ACP_PREAMBLE}
const notice = (severity, title, description) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'notice', severity, title, description } } });
const marker = (title) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'session_info_update', title } } });
let turns = 0;
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    turns++;
    say('before ');
    if (scenario === 'flood') {
      for (let i = 0; i < 10000; i++) notice(i % 3 === 0 ? 'error' : 'warning', 'notice ' + i, 'number ' + i);
    } else if (scenario === 'big') {
      notice('warning', 'Big', 'n'.repeat(1 << 20));
      notice('error', 'x'.repeat(1 << 20));
      // 20 more warnings, then a last one of 1 MB: held back, its words end the summary, cut too.
      for (let i = 0; i < 20; i++) notice('warning', 'w' + i);
      notice('warning', 'Last', 'l'.repeat(1 << 20));
    } else if (scenario === 'turns') {
      for (let i = 0; i < 30; i++) notice('warning', 'turn ' + turns + ' notice ' + i);
    }
    say('after');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
    // While no turn runs: 25 more, then a marker the test waits for.
    if (scenario === 'turns' && turns === 1) setTimeout(() => {
      for (let i = 0; i < 25; i++) notice('warning', 'idle notice ' + i);
      marker('idle-done');
    }, 100);
  }
});`;

const FIRST = `only the first ${WARNINGS_PER_KIND} of each kind are shown`;

describe('agents/acp: notices are bounded per turn (decision 719)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-notices-', AGENT);

  const notices = (host: RecordingHost, frames: Frame[], severity?: string) =>
    host.ofType('agent.error', frames).filter((e) => e.payload.error_code === 'ACP_NOTICE' && (severity === undefined || e.payload.severity === severity)).map((e) => e.payload);
  const text = (host: RecordingHost, frames: Frame[]) => host.ofType('agent.text.delta', frames).map((f) => f.payload.text).join('');

  it('10,000 notices in one turn: the first 20 of each severity, then one summary each counting the rest exactly', async () => {
    const { host, adapter } = await agent.open('flood');
    const turn = await turnWithin(host, adapter, 40_000);
    const errors = notices(host, turn.frames, 'error');
    const warnings = notices(host, turn.frames, 'warning');
    // i % 3 === 0: 3,334 errors and 6,666 warnings.
    assert.equal(errors.length, WARNINGS_PER_KIND + 1);
    assert.equal(warnings.length, WARNINGS_PER_KIND + 1);
    assert.deepEqual(errors.slice(0, 3).map((e) => e.message), ['notice 0: number 0', 'notice 3: number 3', 'notice 6: number 6']);
    assert.equal(warnings[0].message, 'notice 1: number 1');
    // The last of each kind (9,999 and 9,998) closes its summary: the last often says why it stopped.
    assert.equal(errors[WARNINGS_PER_KIND].message, `The agent sent ${3334 - WARNINGS_PER_KIND} more error notices in this turn, not shown (${FIRST}); the last: notice 9999: number 9999`);
    assert.equal(warnings[WARNINGS_PER_KIND].message, `The agent sent ${6666 - WARNINGS_PER_KIND} more warning notices in this turn, not shown (${FIRST}); the last: notice 9998: number 9998`);
    assert.deepEqual(errors[WARNINGS_PER_KIND].details, { module: 'acp', not_shown: 3334 - WARNINGS_PER_KIND });
    assert.deepEqual(warnings[WARNINGS_PER_KIND].details, { module: 'acp', not_shown: 6666 - WARNINGS_PER_KIND });
    assert.equal(host.ofType('agent.error').length, 2 * (WARNINGS_PER_KIND + 1), 'nothing else, and nothing outside the turn');
    // The summaries come before the turn's end, after the notices they count.
    const types = turn.frames.map((f) => f.type);
    assert.ok(types.lastIndexOf('agent.error') < types.indexOf('session.turn.end'));
    assert.equal(text(host, turn.frames), 'before after');
    assert.equal(turn.outcome.stop_reason, 'end_turn');
    assertStreamValid(host);
  });

  it('a 1 MB notice is cut, saying how much was left out', async () => {
    const { host, adapter } = await agent.open('big');
    const turn = await turnWithin(host, adapter, 20_000);
    const all = notices(host, turn.frames);
    assert.equal(all.length, 2 + 19 + 1);
    const [warning, error] = all;
    // Compared in parts: a failure must not print a megabyte.
    const cut = (m: string, head: string, left: number) => {
      assert.ok(m.length < WARNING_TEXT_CHARS + 50, `${m.length} characters`);
      assert.equal(m.slice(0, WARNING_TEXT_CHARS), head.slice(0, WARNING_TEXT_CHARS));
      assert.equal(m.slice(WARNING_TEXT_CHARS), `… (${left} more characters)`);
    };
    cut(warning.message, `Big: ${'n'.repeat(WARNING_TEXT_CHARS)}`, 'Big: '.length + (1 << 20) - WARNING_TEXT_CHARS);
    assert.equal(error.severity, 'error');
    cut(error.message, 'x'.repeat(WARNING_TEXT_CHARS), (1 << 20) - WARNING_TEXT_CHARS);
    const summary = all[all.length - 1].message;
    const head = `The agent sent 2 more warning notices in this turn, not shown (${FIRST}); the last: `;
    assert.equal(summary.slice(0, head.length), head);
    cut(summary.slice(head.length), `Last: ${'l'.repeat(WARNING_TEXT_CHARS)}`, 'Last: '.length + (1 << 20) - WARNING_TEXT_CHARS);
    for (const f of turn.frames) assert.ok(JSON.stringify(f).length < 4_000, `${f.type}: ${JSON.stringify(f).length} characters`);
    assertStreamValid(host);
  });

  it('the next turn starts with a fresh budget; notices between turns have their own, summarised as the next turn begins', async () => {
    const { host, adapter } = await agent.open('turns');
    const first = await turnWithin(host, adapter, 20_000);
    const one = notices(host, first.frames);
    assert.equal(one.length, WARNINGS_PER_KIND + 1);
    assert.equal(one[0].message, 'turn 1 notice 0');
    assert.equal(one[WARNINGS_PER_KIND].message, `The agent sent 10 more warning notices in this turn, not shown (${FIRST}); the last: turn 1 notice 29`);

    // The idle notices: the first 20 shown as they come, the other 5 only counted for now.
    const start = Date.now();
    while (!host.ofType('session.renamed').length) {
      assert.ok(Date.now() - start < 10_000, 'the idle notices came');
      await new Promise((r) => setTimeout(r, 20));
    }
    const idle = notices(host, host.frames.slice(host.frames.indexOf(first.frames[first.frames.length - 1]) + 1));
    assert.equal(idle.length, WARNINGS_PER_KIND);
    assert.equal(idle[WARNINGS_PER_KIND - 1].message, `idle notice ${WARNINGS_PER_KIND - 1}`);

    const second = await turnWithin(host, adapter, 20_000);
    const two = notices(host, second.frames);
    assert.equal(two.length, 1 + WARNINGS_PER_KIND + 1, two.map((n) => n.message).join('\n'));
    assert.equal(two[0].message, `The agent sent 5 more warning notices before this turn, not shown (${FIRST}); the last: idle notice 24`);
    assert.equal(two[1].message, 'turn 2 notice 0', 'the idle flood took nothing of the turn\'s own budget');
    assert.equal(two[WARNINGS_PER_KIND].message, `turn 2 notice ${WARNINGS_PER_KIND - 1}`);
    assert.equal(two[WARNINGS_PER_KIND + 1].message, `The agent sent 10 more warning notices in this turn, not shown (${FIRST}); the last: turn 2 notice 29`);
    assertStreamValid(host);
  });
});
