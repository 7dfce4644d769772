import { strict as assert } from 'node:assert';
import { UUID_V4 } from '../../../src/protocol/common';
import { EngineHarness } from '../../support/engineHarness';
import { settle } from '../../support/settle';

describe('session/engine: turns (§7.5, §7.3, §17.3.2)', () => {
  it('§7.5.1 each turn has a UUID v4 turn_id and turn_index counting from 0', async () => {
    const h = await EngineHarness.start();
    await h.runTurn('one');
    await h.runTurn('two');
    const starts = h.ofType('session.turn.start').map((f) => f.payload);
    assert.deepEqual(starts.map((s) => s.turn_index), [0, 1]);
    for (const s of starts) assert.match(s.turn_id, UUID_V4);
    assert.notEqual(starts[0].turn_id, starts[1].turn_id);
  });

  it('§2.1 every frame of a turn carries that turn\'s turn_id, and turn.start answers the prompt (parent_id)', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'thinking', chunks: ['hm'] }, { kind: 'text', chunks: ['a', 'b'] }] }] });
    const from = h.frames.length;
    const prompt = h.prompt('go');
    await h.turnEnded();
    const start = h.ofType('session.turn.start', from)[0];
    assert.equal(start.parent_id, prompt.message_id);
    const turnId = start.payload.turn_id;
    const end = h.frames.findIndex((f) => f.type === 'session.usage');
    for (const f of h.frames.slice(from, end + 1)) assert.equal(f.turn_id, turnId, `${f.type} has the turn id`);
  });

  it('§7.5.2-1 §7.3.1-1 session.turn.end is followed immediately by session.usage for that turn', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'text', chunks: ['hi'] }], outcome: { usage: { input_tokens: 12, output_tokens: 7, cost_usd: 0.5 } } }] });
    const from = await h.runTurn();
    const types = h.types(from);
    const i = types.indexOf('session.turn.end');
    assert.equal(types[i + 1], 'session.usage');
    const usage = h.ofType('session.usage', from)[0].payload;
    const end = h.ofType('session.turn.end', from)[0].payload;
    assert.equal(usage.turn_id, end.turn_id);
    assert.equal(usage.token_usage.input_tokens, 12);
    assert.equal(usage.token_usage.output_tokens, 7);
    assert.equal(usage.cost_usage.used, 0.5);
    assert.equal(usage.message_usage.used, 1);
    assert.equal(end.stop_reason, 'end_turn');
  });

  it('§13.2 a prompt-response turn: turn.start, thinking, text, turn.end, usage, then idle', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'thinking', chunks: ['plan'] }, { kind: 'text', chunks: ['Hel', 'lo'] }] }] });
    const from = await h.runTurn();
    assert.deepEqual(
      h.types(from).filter((t) => t !== 'agent.state.changed'),
      ['session.turn.start', 'agent.thinking.delta', 'agent.thinking.done', 'agent.text.delta', 'agent.text.delta', 'agent.text.done', 'session.turn.end', 'session.usage'],
    );
    const states = h.ofType('agent.state.changed', from).map((f) => f.payload.current_state);
    assert.deepEqual(states, ['thinking', 'idle']);
  });

  it('§17.3.2-1 §17.3.2-2 a prompt during a turn gets a non-fatal PROMPT_IN_PROGRESS and is not run', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'waitFor', promise: gate }] }] });
    h.prompt('first');
    await settle();
    const second = h.prompt('second');
    const err = h.ofType('session.error').at(-1);
    assert.equal(err?.payload.error_code, 'PROMPT_IN_PROGRESS');
    assert.equal(err?.payload.fatal, false);
    assert.equal(err?.parent_id, second.message_id);
    release();
    await h.turnEnded();
    assert.equal(h.adapter.prompts.length, 1, 'the second prompt never reached the agent');
    assert.equal(h.ofType('session.turn.start').length, 1);
  });

  it('§15.3 redacted thinking passes with redacted: true', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'thinking', chunks: ['[redacted]'], redacted: true }] }] });
    const from = await h.runTurn();
    const d = h.ofType('agent.thinking.delta', from)[0].payload;
    assert.equal(d.redacted, true);
    assert.equal(d.text, '[redacted]');
  });

  it('§5.3.3 output_type: a catalog declaration wins over what the adapter says', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'TodoWrite', output: { success: true, count: 1 }, output_type: 'text' }] }] });
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.output_type, 'structured');
  });

  it('§5.3.3 output_type: left out by the adapter, the category default applies (Read → file_content, Bash → text)', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'tool', name: 'Read', output: 'line', output_type: null }, { kind: 'tool', name: 'Bash', output: 'ok', output_type: null }] }],
    });
    const from = await h.runTurn();
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => f.payload.output_type), ['file_content', 'text']);
  });

  it('§5.3.3 output_type: a valid type from the adapter is kept when the catalog declares none', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Grep', output: ['a.ts'], output_type: 'file_list' }] }] });
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.output_type, 'file_list');
  });

  it('§5.3.2 tool output streams in order before the result, with a duration on the result', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Bash', stream: ['a\n', 'b\n'], output: 'a\nb\n' }] }] });
    const from = await h.runTurn();
    const types = h.types(from).filter((t) => t.startsWith('tool.'));
    assert.deepEqual(types, ['tool.invoke.request', 'tool.invoke.stream', 'tool.invoke.stream', 'tool.invoke.result']);
    assert.deepEqual(h.ofType('tool.invoke.stream', from).map((f) => f.payload.sequence), [0, 1]);
    assert.equal(typeof h.ofType('tool.invoke.result', from)[0].payload.duration_ms, 'number');
    assert.equal(h.ofType('session.turn.end', from)[0].payload.tool_invocation_count, 1);
  });

  it('an adapter that throws ends the turn with agent.error and stop_reason error; the session stays usable', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'text', chunks: ['par'], done: false }, { kind: 'throw', message: 'boom' }] }, { steps: [{ kind: 'text', chunks: ['fine'] }] }] });
    const from = await h.runTurn();
    const err = h.ofType('agent.error', from)[0].payload;
    assert.match(err.message, /boom/);
    assert.equal(err.severity, 'error');
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'error');
    assert.ok(h.types(from).indexOf('agent.text.done') < h.types(from).indexOf('session.turn.end'), 'the open text block is closed first');
    const again = await h.runTurn('again');
    assert.equal(h.ofType('session.turn.end', again)[0].payload.stop_reason, 'end_turn');
  });

  it('§11.1 structured output from the agent is carried on session.turn.end', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [], outcome: { structured_output: { data: { ok: true }, validation_status: 'valid' } } }] });
    const from = await h.runTurn();
    assert.deepEqual(h.ofType('session.turn.end', from)[0].payload.structured_output, { data: { ok: true }, validation_status: 'valid' });
  });

  it('§2.2 adapter frames that break their schema are dropped and logged, never sent', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'emit', event: { type: 'agent.text.delta', payload: { content_index: -1, text: 'bad' } } }, { kind: 'text', chunks: ['good'] }] }],
    });
    const from = await h.runTurn();
    assert.deepEqual(h.ofType('agent.text.delta', from).map((f) => f.payload.text), ['good']);
    assert.ok(h.logs.some((l) => l.level === 'error' && /invalid agent\.text\.delta/.test(l.message)));
  });

  it('the engine owns turn framing: an adapter emitting session.turn.end itself is ignored', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'emit', event: { type: 'session.turn.end', payload: { turn_id: 'x', stop_reason: 'end_turn' } } }] }],
    });
    const from = await h.runTurn();
    assert.equal(h.ofType('session.turn.end', from).length, 1);
    assert.notEqual(h.ofType('session.turn.end', from)[0].payload.turn_id, 'x');
  });
});
