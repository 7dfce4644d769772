import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { until } from '../../support/settle';

async function asked(h: EngineHarness, from: number) {
  await until(() => h.ofType('agent.interaction.request', from).length === 1, 'the interaction request');
  return h.ofType('agent.interaction.request', from)[0].payload;
}

describe('session/engine: interactions (§4.3, §6.2, §17.3.1)', () => {
  it('§13.3 tool request → permission ask → response "allow" → the tool runs and returns its result', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Edit', input: { file_path: 'a.ts' }, ask: {}, output: '--- a\n+++ b' }] }] });
    const from = h.frames.length;
    h.prompt();
    const req = await asked(h, from);
    assert.equal(req.interaction_type, 'PERMISSION');
    assert.equal(req.context?.tool_name, 'Edit', '§17.3.1 the ask names the tool');
    assert.equal(h.session.agentState(), 'awaiting_input');
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: 'allow' });
    await h.turnEnded();
    assert.deepEqual(h.types(from).filter((t) => t.startsWith('tool.') || t.startsWith('agent.interaction')), ['tool.invoke.request', 'agent.interaction.request', 'tool.invoke.result']);
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.status, 'success');
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'response', selected_value: 'allow' });
  });

  it('§17.3.1-1 control.interaction.timeout is a denial for a permission, even with a default_value', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {}, ask: { default_value: 'allow' } }] }] });
    const from = h.frames.length;
    h.prompt();
    const req = await asked(h, from);
    h.control('control.interaction.timeout', { interaction_id: req.interaction_id });
    await h.turnEnded();
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'timeout' });
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.status, 'error');
  });

  it('§4.3.1 timeout_sec elapsing picks the default_value (non-permission questions)', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'ask', request: { interaction_type: 'SELECT', timeout_sec: 30, options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }], default_value: 'b' } }] }] });
    const from = h.frames.length;
    h.prompt();
    await asked(h, from);
    h.timers.advance(29_999);
    assert.equal(h.adapter.answers.length, 0, 'not before timeout_sec');
    h.timers.advance(1);
    await h.turnEnded();
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'response', selected_value: 'b', by_default: true });
  });

  it('§4.3.1 timeout_sec elapsing without a default_value is a rejection (timeout)', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'ask', request: { interaction_type: 'YN', timeout_sec: 5 } }] }] });
    const from = h.frames.length;
    h.prompt();
    await asked(h, from);
    h.timers.advance(5000);
    await h.turnEnded();
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'timeout' });
  });

  it('§6.2.1 a response to an unknown interaction is a non-fatal UNKNOWN_INTERACTION; the first answer wins', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'ask', request: { interaction_type: 'TEXT_INPUT' } }] }] });
    const from = h.frames.length;
    h.prompt();
    const req = await asked(h, from);
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: '', text_input: 'from A' });
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: '', text_input: 'from B' });
    await h.turnEnded();
    assert.deepEqual(h.errors(from), ['UNKNOWN_INTERACTION']);
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'response', selected_value: '', text_input: 'from A' });
  });

  it('§6.2.1 a selected_value that is not one of the options is refused and the question stays open', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'ask', request: { interaction_type: 'SELECT', options: [{ value: 'x', label: 'X' }] } }] }] });
    const from = h.frames.length;
    h.prompt();
    const req = await asked(h, from);
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: 'nope' });
    assert.deepEqual(h.errors(from), ['INVALID_INTERACTION_RESPONSE']);
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: 'x' });
    await h.turnEnded();
    assert.deepEqual(h.adapter.answers[0].answer, { kind: 'response', selected_value: 'x' });
  });

  it('§4.6.1 while waiting the agent is awaiting_input, and returns to its previous state after the answer', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'ask', request: {} }] }] });
    const from = h.frames.length;
    h.prompt();
    const req = await asked(h, from);
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: 'yes' });
    await h.turnEnded();
    const states = h.ofType('agent.state.changed', from).map((f) => f.payload.current_state);
    assert.deepEqual(states, ['thinking', 'awaiting_input', 'thinking', 'idle']);
  });
});
