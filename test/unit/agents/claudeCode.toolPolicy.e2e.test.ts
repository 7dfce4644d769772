// §6.3.2 §15 the engine's tool policy — the mode, a prompt's allowed_tools/denied_tools — holds at
// the source for the real Claude Code CLI (against the scripted model server): a refused call is
// never run, even one Claude Code runs without asking (Read) or one its own session rules allow
// after "Allow for this session". Before decision 623 the engine could only relabel such a call
// refused after it ran: the chat said "not allowed" while the file changed or went to the model.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claude } from '../../support/mockModel/anthropic';
import { Harness, of, useRealClaude } from '../../support/claudeHarness';

describe('agents/claude-code: the engine\'s tool policy holds at the source (real CLI, decision 623)', function () {
  this.timeout(120_000);
  let h: Harness;
  useRealClaude();

  /** The tool_result Claude Code sent the model after the call (the request after it). */
  const resultToModel = (): string => h.mainRequests().at(-1)!.rawBody;

  it('§6.3.2-1 review mode: an Edit is not run even after "Allow for this session" (whose rule would allow it); the model is told it was refused', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.answer = () => 'allow_session';
    h.script(claude.tool('Read', { file_path: file }), claude.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'hi' }), claude.text('ok'));
    await h.prompt('edit one');
    assert.equal(readFileSync(file, 'utf8'), 'hi\nworld\n', 'the first edit, allowed for the session, ran');

    const from = h.wire.length;
    h.master('control.mode.switch', { mode: 'review' });
    await h.next('agent.state.changed', (f) => f.payload.reason === 'mode_switch', from);
    h.script(claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'earth' }), claude.text('done'));
    const turn = await h.prompt('edit two in review mode');
    assert.equal(readFileSync(file, 'utf8'), 'hi\nworld\n', 'review mode: the file is unchanged');
    const edit = of(turn, 'tool.invoke.result').find((r) => r.payload.tool_name === 'Edit');
    assert.equal(edit?.payload.status, 'error');
    assert.match(resultToModel(), /Tool not allowed in current mode/, 'Claude Code got the refusal as the tool\'s result');
    h.assertValid();
  });

  it('§15-1 a prompt\'s denied_tools: Read (which Claude Code runs without asking) is not run; the file never reaches the model', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.text('I could not read it.'));
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'read a.txt', config_overrides: { denied_tools: ['Read'] } });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    const read = of(h.wire.slice(from), 'tool.invoke.result').find((r) => r.payload.tool_name === 'Read');
    assert.equal(read?.payload.status, 'error');
    const body = resultToModel();
    assert.doesNotMatch(body, /world/, 'the file\'s text did not go to the model');
    assert.match(body, /not allowed for this prompt/);

    // The next prompt has no such list: Read runs again (the hook says nothing for allowed calls).
    h.script(claude.tool('Read', { file_path: file }), claude.text('It says hello.'));
    await h.prompt('read a.txt again');
    assert.match(resultToModel(), /world/, 'allowed again: the file\'s text reached the model');
    h.assertValid();
  });

  it('§15-1 a prompt\'s allowed_tools without Bash: Claude Code\'s Bash never runs, though the user would allow it', async () => {
    h = await Harness.create();
    h.answer = () => 'allow';
    h.script(claude.tool('Bash', { command: 'touch made.txt' }), claude.text('Tried.'));
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'make a file', config_overrides: { allowed_tools: ['Read'] } });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    assert.throws(() => readFileSync(join(h.ws, 'made.txt')), /ENOENT/, 'the command did not run');
    assert.equal(of(h.wire.slice(from), 'agent.interaction.request').length, 0, 'nobody was asked about a call the list refuses');
  });

  it('§17.3.1-1 a master\'s control.interaction.timeout on Claude Code\'s permission question answers "deny": the Edit does not run and the model is told it timed out', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.answer = () => 'none'; // nobody answers: the master's timeout does
    h.script(claude.tool('Read', { file_path: file }), claude.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'bye' }), claude.text('It timed out.'));
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'edit a.txt' });
    const ask = await h.next('agent.interaction.request', () => true, from);
    assert.equal(ask.payload.interaction_type, 'PERMISSION');
    h.master('control.interaction.timeout', { interaction_id: ask.payload.interaction_id });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    assert.equal(readFileSync(file, 'utf8'), 'hello\nworld\n', 'the timed-out Edit did not run');
    assert.match(resultToModel(), /timed out/, 'Claude Code was answered "deny" with the reason');
    const edit = of(h.wire.slice(from), 'tool.invoke.result').find((r) => r.payload.tool_name === 'Edit');
    assert.equal(edit?.payload.status, 'error');
    h.assertValid();
  });
});
