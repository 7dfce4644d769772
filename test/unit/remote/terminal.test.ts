// The terminal master's pure parts: what a typed line answers (§4.3 → §6.2.1), and the printer that
// writes a growing transcript without redrawing.
import { strict as assert } from 'node:assert';
import { answerFor, looksLikeLateAnswer } from '../../../src/cli/attach/answers';
import { TerminalPrinter, transcriptText } from '../../../src/cli/attach/render';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame, PayloadOf } from '../../../src/protocol/frameTypes';
import { createTranscript } from '../../../src/protocol/transcript';
import { applyFrame } from '../../../src/protocol/transcript/reduce';

const S = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';
const ask = (p: Partial<PayloadOf<'agent.interaction.request'>>): PayloadOf<'agent.interaction.request'> => ({
  interaction_id: 'i1',
  interaction_type: 'PERMISSION',
  question_text: 'Allow?',
  timeout_sec: 30,
  ...p,
});

describe('remote/terminal master: answers and printing', () => {
  it('§6.2.1 a number or an option value picks the option; out of range is refused with a hint', () => {
    const q = ask({ options: [{ value: 'allow_once', label: 'Allow once' }, { value: 'reject', label: 'Reject' }] });
    assert.deepEqual(answerFor(q, '2'), { ok: true, payload: { interaction_id: 'i1', selected_value: 'reject' } });
    assert.deepEqual(answerFor(q, ' allow_once '), { ok: true, payload: { interaction_id: 'i1', selected_value: 'allow_once' } });
    assert.deepEqual(answerFor(q, '3'), { ok: false, message: 'pick an option: 1-2' });
  });

  it('§6.2.1 MULTI_SELECT takes several numbers, YN without options takes y/n, TEXT_INPUT takes the line', () => {
    const multi = ask({ interaction_type: 'MULTI_SELECT', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }, { value: 'c', label: 'C' }] });
    assert.deepEqual(answerFor(multi, '1, 3'), { ok: true, payload: { interaction_id: 'i1', selected_value: ['a', 'c'] } });
    assert.equal(answerFor(multi, '1,9').ok, false);
    assert.deepEqual(answerFor(ask({ interaction_type: 'YN' }), 'Y'), { ok: true, payload: { interaction_id: 'i1', selected_value: 'yes' } });
    assert.equal(answerFor(ask({ interaction_type: 'YN' }), 'maybe').ok, false);
    assert.deepEqual(answerFor(ask({ interaction_type: 'TEXT_INPUT' }), 'blue'), { ok: true, payload: { interaction_id: 'i1', selected_value: 'blue', text_input: 'blue' } });
  });

  it('the printer, fed frame by frame, writes exactly the full transcript text (each item grows only at its end)', () => {
    const t = createTranscript({ sessionId: S });
    let out = '';
    const printer = new TerminalPrinter((s) => (out += s));
    const f = (frame: Frame) => {
      applyFrame(t, frame);
      printer.update(t);
    };
    const ctx = { session_id: S, turn_id: T };
    f(buildFrame('control.prompt.request', { prompt_text: 'hi' }, { session_id: S }) as Frame);
    f(buildFrame('session.turn.start', { turn_id: T, turn_index: 0 }, ctx) as Frame);
    f(buildFrame('agent.text.delta', { content_index: 0, text: 'Hel' }, ctx) as Frame);
    f(buildFrame('agent.text.delta', { content_index: 0, text: 'lo' }, ctx) as Frame);
    f(buildFrame('agent.text.done', { content_index: 0, full_text: 'Hello' }, ctx) as Frame);
    f(buildFrame('tool.invoke.request', { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'ls' } }, ctx) as Frame);
    f(buildFrame('tool.invoke.stream', { invocation_id: 'b1', tool_name: 'Bash', stream_type: 'stdout', chunk: 'a\n', sequence: 0 }, ctx) as Frame);
    f(buildFrame('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: 'a', output_type: 'text' }, ctx) as Frame);
    f(buildFrame('session.turn.end', { turn_id: T, stop_reason: 'end_turn' }, ctx) as Frame);
    assert.equal(out, transcriptText(t));
    // Issue 15 Why 7: the output printed live is not printed again with the result.
    assert.match(out, /› hi\nHello\n⚙ Bash \{"command":"ls"\}\n {2}│ a\n {2}⎿ success\n— turn 1 ended: end_turn\n$/);
  });

  it('a permission question is shown between its call and the call\'s result, live and when the history is replayed at once (a late attach printed the result first)', () => {
    const ctx = { session_id: S, turn_id: T };
    const frames = [
      buildFrame('control.prompt.request', { prompt_text: 'run ls' }, { session_id: S }),
      buildFrame('session.turn.start', { turn_id: T, turn_index: 0 }, ctx),
      buildFrame('tool.invoke.request', { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'ls' } }, ctx),
      buildFrame('agent.interaction.request', ask({ question_text: 'Allow Bash ls?', options: [{ value: 'allow_once', label: 'Allow once' }], context: { tool_name: 'Bash', tool_input: { command: 'ls' } } }), ctx),
      buildFrame('control.interaction.response', { interaction_id: 'i1', selected_value: 'allow_once' }, ctx),
      buildFrame('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: 'a.txt', output_type: 'text' }, ctx),
      buildFrame('session.turn.end', { turn_id: T, stop_reason: 'end_turn' }, ctx),
    ] as Frame[];
    const live = createTranscript({ sessionId: S });
    let printed = '';
    const printer = new TerminalPrinter((s) => (printed += s));
    for (const f of frames) {
      applyFrame(live, f);
      printer.update(live);
    }
    const replayed = createTranscript({ sessionId: S });
    for (const f of frames) applyFrame(replayed, f);
    const atOnce = transcriptText(replayed);
    assert.match(atOnce, /⚙ Bash \{"command":"ls"\}\n\? Allow Bash ls\? \(PERMISSION\)\n {4}1\) Allow once \[allow_once\]\n {2}✓ allow_once\n {2}⎿ success: a\.txt\n/);
    assert.equal(printed, atOnce, 'the same order live and replayed');
  });
});

describe('remote/terminal master: a late answer is not sent as a prompt (decision 586)', () => {
  it('option numbers typed when no question waits are held once in a session that asked questions; not in one that never did, and not other text', () => {
    assert.equal(looksLikeLateAnswer('4', 1), true);
    assert.equal(looksLikeLateAnswer(' 1, 3 ', 2), true);
    assert.equal(looksLikeLateAnswer('4', 0), false, 'no question was ever asked: a number is a prompt');
    assert.equal(looksLikeLateAnswer('read 4 files', 3), false);
    assert.equal(looksLikeLateAnswer('4.5', 3), false);
  });
});
