// Decision 725: an ACP agent's session title (`session_info_update`) names the session. The adapter
// turned it into a session.renamed the engine dropped as engine-owned, logging a warning for each:
// the title was lost, and a flood of titles was a flood of log lines (`rawp serve` writes each to
// stderr). Now the engine renames the session itself (renamed_by 'edge', §7.6), never over a name a
// person gave, at most once per TITLE_EVERY_MS with the latest title winning. A real AgentSession
// runs a real ACP adapter over a child process; time is driven by hand.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { validateText } from '../../../src/protocol/conformance';
import { AgentSession } from '../../../src/session/engine';
import { TITLE_EVERY_MS } from '../../../src/session/agentTitles';
import { recordingLogger, type LogLine } from '../../support/engineHarness';
import { ManualTimers } from '../../support/manualTimers';
import { until } from '../../support/settle';

// The prompt says what to do: "title <words>" sends that title (twice), "flood <n>" n distinct titles.
const AGENT = `
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const title = (title) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'session_info_update', title } } });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    const text = m.params.prompt.map((b) => b.text || '').join('');
    const [verb, ...rest] = text.split(' ');
    if (verb === 'title') { title(rest.join(' ')); title(rest.join(' ')); }
    if (verb === 'flood') for (let i = 0; i < Number(rest[0]); i++) title('Title number ' + i);
    send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } } });
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  }
});`;

describe('session: an ACP agent titles its session (decision 725)', function () {
  this.timeout(60_000);
  let dir: string;
  let session: AgentSession | undefined;
  let frames: Frame[];
  let logs: LogLine[];
  let timers: ManualTimers;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-agent-title-'));
    writeFileSync(join(dir, 'agent.js'), AGENT);
    frames = [];
    logs = [];
    timers = new ManualTimers();
  });
  afterEach(async () => {
    await session?.end();
    session = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(name?: string): Promise<AgentSession> {
    const adapter = new AcpAdapter({ id: 'acp:fake', displayName: 'Fake ACP', command: process.execPath, args: [join(dir, 'agent.js')], fs: 'none', killGraceMs: 500 });
    session = new AgentSession({ adapter, out: (f) => void frames.push(f), workspacePath: dir, timers, logger: recordingLogger(logs), toolRecheckMs: 3_600_000, ...(name !== undefined ? { name } : {}) });
    await session.start();
    return session;
  }
  async function turn(s: AgentSession, text: string): Promise<void> {
    const ends = frames.filter((f) => f.type === 'session.turn.end').length;
    s.prompt({ prompt_text: text });
    await until(() => frames.filter((f) => f.type === 'session.turn.end').length > ends, 'the turn to end', 20_000);
  }
  const renames = () => frames.filter((f): f is FrameOf<'session.renamed'> => f.type === 'session.renamed').map((f) => f.payload);
  const droppedWarnings = () => logs.filter((l) => /only the engine sends/.test(l.message));
  const assertValid = () => assert.deepEqual(validateText(frames.map((f) => JSON.stringify(f)).join('\n')).problems.filter((p) => p.severity === 'error'), []);

  it('the agent\'s title names the session: one session.renamed from the engine, the name cleaned, renamed_by edge; the same title again is nothing; no warning logged', async () => {
    const s = await open();
    await turn(s, 'title   Fix\u202E the\nbuild  ');
    assert.deepEqual(renames(), [{ session_id: s.session_id, name: 'Fix the build', previous_name: 'Fake ACP', renamed_by: 'edge' }]);
    assert.equal(s.name, 'Fix the build');
    timers.advance(TITLE_EVERY_MS);
    await turn(s, 'title Fix the build');
    assert.equal(renames().length, 1, 'the same title twice, and again a turn later: no rename');
    assert.deepEqual(droppedWarnings(), []);
    assertValid();
  });

  it('a person named the session first (a /rename, or the create API\'s name): the agent\'s title is ignored, quietly', async () => {
    const s = await open();
    s.rename('My own name');
    await turn(s, 'title Agent title');
    timers.advance(TITLE_EVERY_MS);
    assert.equal(s.name, 'My own name');
    assert.deepEqual(renames().map((r) => [r.name, r.renamed_by]), [['My own name', 'client']]);
    await s.end();
    frames.length = 0;
    const named = await open('Given at creation');
    await turn(named, 'title Agent title');
    timers.advance(TITLE_EVERY_MS);
    assert.equal(named.name, 'Given at creation');
    assert.deepEqual(renames(), []);
    assert.deepEqual(droppedWarnings(), [], 'ignored quietly');
  });

  it('a name no person gave (the host names a session by its first prompt, decision 651) gives way to the agent\'s title', async () => {
    const s = await open();
    s.rename('fix the failing test in', 'client', false);
    await turn(s, 'title Fix the failing parser test');
    assert.equal(s.name, 'Fix the failing parser test');
    assert.deepEqual(renames().map((r) => [r.name, r.renamed_by]), [['fix the failing test in', 'client'], ['Fix the failing parser test', 'edge']]);
  });

  it('a person renames after the agent did: later titles, and one held back, are ignored', async () => {
    const s = await open();
    await turn(s, 'title First title');
    await turn(s, 'title Held title');
    s.rename('Mine', 'master');
    timers.advance(TITLE_EVERY_MS);
    await turn(s, 'title Late title');
    timers.advance(TITLE_EVERY_MS);
    assert.deepEqual(renames().map((r) => [r.name, r.renamed_by]), [['First title', 'edge'], ['Mine', 'master']]);
    assert.deepEqual(droppedWarnings(), []);
  });

  it('1,000 distinct titles in one turn: one rename at once, then the latest when the wait ends, and nothing more', async () => {
    const s = await open();
    await turn(s, 'flood 1000');
    assert.deepEqual(renames().map((r) => r.name), ['Title number 0']);
    timers.advance(TITLE_EVERY_MS);
    assert.deepEqual(renames().map((r) => r.name), ['Title number 0', 'Title number 999']);
    timers.advance(10 * TITLE_EVERY_MS);
    assert.equal(renames().length, 2);
    assert.equal(s.name, 'Title number 999');
    assert.deepEqual(droppedWarnings(), []);
    assertValid();
  });
});
