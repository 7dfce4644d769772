// Client clauses of the engine and the hub, black-box: a real `rawp serve --agent builtin` child
// process (the built bundle), masters that are real WebSocket clients on loopback. Each test
// cites the clause id it guards and fails when the clause breaks; every stream a master recorded
// must also pass `rawp validate` (the engine is checked by its own validator).
import { strict as assert } from 'node:assert';
import { FRAME_TYPES, type Frame, type FrameOf, type FrameType, type VendorFrame } from '../../../src/protocol/frameTypes';
import { validateText } from '../../../src/protocol/conformance';
import { serve, type Served, waitFor } from '../../security/serveChild';
import { TestMaster } from '../remote/harness';

function ofType<T extends FrameType>(frames: readonly (Frame | VendorFrame)[], type: T): FrameOf<T>[] {
  return frames.filter((f) => f.type === type) as FrameOf<T>[];
}

/** A second master with its own announced features (the helper's master announces every one). */
async function masterWith(s: Served, features: Record<string, boolean>): Promise<TestMaster> {
  const m = new TestMaster({ server: { attachUrl: (id: string) => `${s.url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token: s.token, session: { session_id: s.session_id } }, { features });
  await m.open();
  return m;
}

/** The master's recorded stream passes the validator with no error. */
function assertValid(m: TestMaster, what: string): void {
  const text = m.frames.map((f) => JSON.stringify(f)).join('\n');
  const r = validateText(text);
  const errors = r.problems.filter((p) => p.severity === 'error');
  assert.deepEqual(errors, [], `${what}: the engine's stream breaks a MUST`);
}

/** The turn this prompt started is over and the agent is idle again (not the idle of the turn before). */
function idleAfterTurn(frames: (Frame | VendorFrame)[]): boolean {
  const start = frames.findIndex((f) => f.type === 'session.turn.start');
  return start >= 0 && frames.slice(start).some((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'idle');
}

/** Sends a prompt; answers every permission question with allow_once until `until` holds. */
async function promptUntil(m: TestMaster, text: string, until: (frames: (Frame | VendorFrame)[]) => boolean, bound = 60_000): Promise<FrameOf<'session.turn.start'>> {
  const from = m.frames.length;
  const answered = new Set<string>();
  m.client.send('control.prompt.request', { prompt_text: text });
  const started = Date.now();
  for (;;) {
    const frames = m.frames.slice(from);
    for (const f of frames) {
      if (f.type !== 'agent.interaction.request' || answered.has(f.payload.interaction_id)) continue;
      answered.add(f.payload.interaction_id);
      m.client.send('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: 'allow_once' });
    }
    if (until(frames)) break;
    if (Date.now() - started > bound) throw new Error(`gave up waiting after prompt ${JSON.stringify(text)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const start = ofType(m.frames.slice(from), 'session.turn.start')[0];
  assert.ok(start, 'the turn started');
  return start;
}

describe('conformance: engine and hub clauses against a real rawp serve', function () {
  this.timeout(180_000);
  let s: Served | undefined;
  afterEach(() => {
    s?.close();
    s = undefined;
  });

  it('§2.1-1 §2.1-3 §3.1.1-1 every frame of a whole session (read, edit, command, subagent, plan mode, compaction) has the full envelope, millisecond timestamps and a type of the spec', async () => {
    s = await serve({ 'a.txt': 'a\n' });
    const m = await s.master();
    await promptUntil(m, 'read a.txt\nreplace `a` with `b` in a.txt\nrun `echo hi`', (fs) => fs.some((f) => f.type === 'session.usage'));
    await promptUntil(m, 'delegate: read a.txt', idleAfterTurn);
    m.client.send('control.mode.switch', { mode: 'plan' });
    await waitFor(() => m.frames.some((f) => (f.type === 'agent.state.changed' && f.payload.reason === 'mode_switch') || f.type === 'session.error'), 'the switch');
    assert.deepEqual(ofType(m.frames, 'session.error').map((f) => f.payload.message), []);
    await promptUntil(m, 'run `echo no`', (fs) => fs.some((f) => f.type === 'session.usage'));
    m.client.send('control.session.compact', {});
    await waitFor(() => m.frames.some((f) => f.type === 'session.compacted'), 'the compaction');
    for (const f of m.frames) {
      assert.equal(f.v, 1);
      for (const k of ['type', 'message_id', 'timestamp', 'session_id'] as const) assert.equal(typeof f[k], 'string', `${f.type} has ${k}`);
      assert.equal(f.session_id, s.session_id);
      assert.ok(typeof f.payload === 'object' && f.payload !== null);
      assert.match(f.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'ISO 8601 with milliseconds');
      assert.ok(f.type in FRAME_TYPES || f.type.startsWith('x-'), `${f.type} is a spec type or x-{vendor}`);
    }
    assert.ok(m.frames.some((f) => f.type === 'agent.subagent.started'));
    assertValid(m, 'a whole session');
  });

  it('§6.1.2-1 cancel while a command runs (no text block open): agent.text.done with is_cancelled: true, the call cancelled, the turn ends cancelled', async () => {
    s = await serve({ 'a.txt': 'a\n' });
    const m = await s.master();
    const from = m.frames.length;
    const start = await promptUntil(m, 'run `sleep 30`', (fs) => fs.some((f) => f.type === 'tool.invoke.request'));
    // The command is running; no text block is open.
    await waitFor(() => m.frames.slice(from).some((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'tool_calling'), 'the call to run');
    m.client.send('control.prompt.cancel', { target_turn_id: start.payload.turn_id, reason: 'user_cancelled' });
    await waitFor(() => m.frames.slice(from).some((f) => f.type === 'session.usage'), 'the turn to end', 60_000);
    const frames = m.frames.slice(from);
    const done = ofType(frames, 'agent.text.done').filter((f) => f.payload.is_cancelled === true);
    assert.equal(done.length, 1, 'one agent.text.done with is_cancelled: true');
    const end = ofType(frames, 'session.turn.end')[0];
    assert.equal(end.payload.stop_reason, 'cancelled');
    const result = ofType(frames, 'tool.invoke.result')[0];
    assert.equal(result.payload.status, 'cancelled');
    assert.ok(frames.indexOf(done[0]) < frames.indexOf(end), 'the cancelled text.done comes before turn.end');
    assertValid(m, 'cancel mid-command');
  });

  it('§4.6.1 while a Bash command runs the state is tool_calling (from its request to its result), and thinking again once it answered', async () => {
    s = await serve();
    const m = await s.master();
    const from = m.frames.length;
    await promptUntil(m, 'run `echo hi`', idleAfterTurn);
    const frames = m.frames.slice(from);
    const states = ofType(frames, 'agent.state.changed').map((f) => f.payload.current_state);
    const request = frames.findIndex((f) => f.type === 'tool.invoke.request');
    const result = frames.findIndex((f) => f.type === 'tool.invoke.result');
    const calling = frames.findIndex((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'tool_calling');
    assert.ok(calling >= 0 && calling < request && request < result, `tool_calling as the call goes out, before its result (states: ${states.join(' → ')})`);
    assert.ok(!frames.slice(calling, result).some((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'thinking'), 'tool_calling all the while the command runs');
    const back = frames.findIndex((f, i) => i > result && f.type === 'agent.state.changed' && f.payload.current_state === 'thinking');
    assert.ok(back > result, 'thinking again after the result');
    assert.equal(states[states.length - 1], 'idle');
    assertValid(m, 'state while a command runs');
  });

  it('§6.3.2-5 plan → default with no turn between: the next session.turn.start carries mode default', async () => {
    s = await serve();
    const m = await s.master();
    const switches = () => ofType(m.frames, 'agent.state.changed').filter((f) => f.payload.reason === 'mode_switch').length;
    m.client.send('control.mode.switch', { mode: 'plan' });
    await waitFor(() => switches() === 1, 'the switch to plan');
    m.client.send('control.mode.switch', { mode: 'default' });
    await waitFor(() => switches() === 2, 'the switch back to default');
    const start = await promptUntil(m, 'help', (fs) => fs.some((f) => f.type === 'session.usage'));
    assert.equal(start.payload.mode, 'default');
    const again = await promptUntil(m, 'help', (fs) => fs.some((f) => f.type === 'session.usage'));
    assert.equal(again.payload.mode, undefined, 'only the first turn after the switch names it');
    assertValid(m, 'mode round trip');
  });

  it('§2.4-3 §12.2.1-1 §14.2-4 a control.mode.switch from master A reaches master B, which announced no plan_mode; B still gets no frame of a feature it did not announce', async () => {
    s = await serve();
    const a = await s.master();
    const b = await masterWith(s, { thinking_stream: true });
    const sent = a.client.send('control.mode.switch', { mode: 'plan' });
    assert.ok(sent);
    await waitFor(() => b.frames.some((f) => f.message_id === sent.message_id), 'the relayed switch at B');
    assert.ok(!a.frames.some((f) => f.message_id === sent.message_id), 'never echoed to A (§2.4-6)');
    // B still gets no frame of a feature it did not announce (§12.2.1-1): no subagent frames, no streams.
    await promptUntil(a, 'run `echo x`', (fs) => fs.some((f) => f.type === 'session.usage'));
    await waitFor(() => b.frames.some((f) => f.type === 'session.usage'), 'the turn at B');
    assert.ok(!b.frames.some((f) => f.type === 'tool.invoke.stream'), 'no tool.invoke.stream to a master without tool_streaming');
  });

  it('§7.5.3-1 §7.7.1-1 a master\'s session.error with fatal: true ends the session: cancelled results, turn.end (error), usage, session.deleted, then the close', async () => {
    s = await serve();
    const m = await s.master();
    const from = m.frames.length;
    await promptUntil(m, 'run `sleep 30`', (fs) => fs.some((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'tool_calling'));
    m.client.send('session.error', { error_code: 'MASTER_GONE_WRONG', message: 'the master cannot go on', fatal: true });
    await waitFor(() => m.ended !== undefined, 'the connection to close', 60_000);
    const types = m.frames.slice(from).map((f) => f.type);
    const tail = types.slice(types.lastIndexOf('tool.invoke.result'));
    assert.deepEqual(
      tail.filter((t) => t !== 'agent.state.changed' && t !== 'agent.text.done'),
      ['tool.invoke.result', 'session.turn.end', 'session.usage', 'session.deleted'],
    );
    const result = ofType(m.frames.slice(from), 'tool.invoke.result')[0];
    assert.equal(result.payload.status, 'cancelled');
    assert.equal(ofType(m.frames, 'session.turn.end')[0].payload.stop_reason, 'error');
    const deleted = ofType(m.frames, 'session.deleted')[0];
    assert.equal(deleted.payload.reason, 'error');
    assert.equal(deleted.payload.deleted_by, 'master');
    assertValid(m, 'fatal master error');
  });

  it('§10.3.1-1 a refused subagent call starts no subagent: its request goes out without `subagent`, no agent.subagent.started, an error result', async () => {
    s = await serve({ 'a.txt': 'a\n' });
    const m = await s.master();
    const from = m.frames.length;
    m.client.send('control.prompt.request', { prompt_text: 'delegate: read a.txt', config_overrides: { denied_tools: ['Task'] } });
    await waitFor(() => m.frames.slice(from).some((f) => f.type === 'session.usage'), 'the turn to end', 60_000);
    const frames = m.frames.slice(from);
    const task = ofType(frames, 'tool.invoke.request').find((f) => f.payload.tool_name === 'Task');
    assert.ok(task, 'the agent asked for its subagent');
    assert.equal(task.payload.subagent, undefined);
    assert.equal(ofType(frames, 'agent.subagent.started').length, 0);
    const result = ofType(frames, 'tool.invoke.result').find((f) => f.payload.invocation_id === task.payload.invocation_id);
    assert.equal(result?.payload.status, 'error');
    assertValid(m, 'refused subagent');
  });

  it('§5.3.3-1 a write refused in plan mode carries our message, tagged text — not the diff of a change that never happened', async () => {
    s = await serve({ 'a.txt': 'a\n' });
    const m = await s.master();
    m.client.send('control.mode.switch', { mode: 'plan' });
    await waitFor(() => m.frames.some((f) => f.type === 'agent.state.changed' && f.payload.reason === 'mode_switch'), 'the switch');
    const from = m.frames.length;
    await promptUntil(m, 'replace `a` with `b` in a.txt', (fs) => fs.some((f) => f.type === 'session.usage'));
    const results = ofType(m.frames.slice(from), 'tool.invoke.result').filter((f) => f.payload.tool_name === 'Edit');
    assert.equal(results.length, 1);
    assert.equal(results[0].payload.status, 'error');
    assert.equal(results[0].payload.output, 'Tool not allowed in current mode');
    assert.equal(results[0].payload.output_type, 'text');
    assertValid(m, 'refused write');
  });
});
