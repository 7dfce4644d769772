// The digest of an ended chat that its continuation carries (decisions 630, 641, src/host/
// continuation/earlierChat.ts): what the user read there, in order, within bounds — built from
// frames made with the typed stream builder, so each one is a valid frame. A chat that itself
// continued an earlier one keeps that one's messages first and its count of messages left out (the
// review of 2026-12-05, nit F14: 50 → 0), takes its already cut texts as they are (no second cut
// mark), and counts the earlier messages as left out when the history no longer holds their digest.
import assert from 'node:assert/strict';
import { earlierChatOf, endedByAgentFailure, EARLIER_TOTAL_MAX } from '../../../src/host/continuation/earlierChat';
import { buildEarlierChatFrame, CONTINUED_FROM_KEY, EARLIER_MESSAGES_MAX, EARLIER_TEXT_MAX, type ContinuedFrom } from '../../../src/protocol/continuation';
import { charactersCut, cutMark } from '../../../src/protocol/cutMark';
import type { Frame } from '../../../src/protocol/frameTypes';
import type { WireFrame } from '../../../src/session/connection';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const S = '55555555-5555-4555-8555-555555555555';

function turn(b: ReturnType<typeof streamBuilder>, n: number, prompt: string, answer: Frame[] | string): Frame[] {
  const T = { turn_id: `t-${n}` };
  const body = typeof answer === 'string' ? [b.make('agent.text.delta', { content_index: 0, text: answer }, T), b.make('agent.text.done', { content_index: 0, full_text: answer }, T)] : answer;
  return [b.make('control.prompt.request', { prompt_text: prompt }), b.make('session.turn.start', { turn_id: `t-${n}`, turn_index: n }, T), ...body, b.make('session.turn.end', { turn_id: `t-${n}`, stop_reason: 'end_turn' }, T)];
}

const B = '33333333-3333-4333-8333-333333333333';
const A = '44444444-4444-4444-8444-444444444444';
const TURN = '55555555-5555-4555-8555-555555555555';

const CUT = `${'x'.repeat(EARLIER_TEXT_MAX / 2)}${cutMark(6_000)}${'y'.repeat(EARLIER_TEXT_MAX / 2)}`;
const LINK: ContinuedFrom = { session_id: A, name: 'First chat', agent: 'codex', reason: 'error', ended_at: '2026-12-05T10:00:00.000Z', resumed: true, messages: 2, left_out: 50 };

/** The frames of B, a continuation of A: its opening (the link), then (unless gone) the digest, then one turn. */
function chatB(o: { digest: boolean; restarts?: number }): WireFrame[] {
  const b = streamBuilder(B);
  const caps = () => b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { adapter_type: 'process' }, extensions: { [CONTINUED_FROM_KEY]: LINK } });
  const frames: WireFrame[] = [caps()];
  if (o.digest) frames.push(buildEarlierChatFrame(B, { continued_from: A, earlier: [{ role: 'user', text: CUT }, { role: 'error', text: 'exit 1' }], left_out: 50 }, b.clock));
  for (let i = 0; i < (o.restarts ?? 0); i++) frames.push(caps());
  frames.push(
    b.make('control.prompt.request', { prompt_text: 'go on' }),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, { turn_id: TURN }),
    b.make('agent.text.done', { content_index: 0, full_text: 'Going on.' }, { turn_id: TURN }),
    b.make('agent.error', { error_code: 'PROCESS_EXIT', message: 'exit 1 again', severity: 'fatal', recoverable: false }, { turn_id: TURN }),
    b.make('session.turn.end', { turn_id: TURN, stop_reason: 'error' }, { turn_id: TURN }),
  );
  return frames;
}

describe('host: the earlier chat a continuation carries (decisions 630, 641)', () => {
  it('prompts, the main agent\'s answers (full_text, or its deltas when a block never finished) and the fatal error, in order; thinking, tools, warnings and subagents stay out', () => {
    const b = streamBuilder(S, Date.now());
    const T = { turn_id: 't-1' };
    const sub = { subagent_context: { parent_invocation_id: 'inv-1', agent_type: 'explore', depth: 1 } };
    const frames: Frame[] = [
      ...turn(b, 0, 'first', 'One.'),
      b.make('control.prompt.request', { prompt_text: 'second' }),
      b.make('session.turn.start', { turn_id: 't-1', turn_index: 1 }, T),
      b.make('agent.thinking.delta', { content_index: 0, text: 'hmm' }, T),
      b.make('agent.text.delta', { content_index: 1, text: 'from a subagent' }, { ...T, metadata: sub }),
      b.make('agent.error', { error_code: 'SOMETHING', message: 'a warning', severity: 'warning', recoverable: true }, T),
      b.make('agent.text.delta', { content_index: 2, text: 'Half an ' }, T),
      b.make('agent.text.delta', { content_index: 2, text: 'answer' }, T),
      b.make('agent.error', { error_code: 'PROCESS_EXIT', message: 'exited with code 1', severity: 'fatal', recoverable: false }, T),
      b.make('session.turn.end', { turn_id: 't-1', stop_reason: 'error' }, T),
      b.make('session.deleted', { session_id: S, reason: 'error', deleted_by: 'client' }),
    ];
    assert.deepEqual(earlierChatOf(frames), {
      earlier: [
        { role: 'user', text: 'first' },
        { role: 'agent', text: 'One.' },
        { role: 'user', text: 'second' },
        { role: 'agent', text: 'Half an answer' },
        { role: 'error', text: 'exited with code 1' },
      ],
      left_out: 0,
    });
  });

  it('a chat that itself continued one keeps that one\'s digest first (a chain keeps the whole conversation); a master\'s capabilities are not read', () => {
    const b = streamBuilder(S, Date.now());
    const from = { session_id: 'older', name: 'Older', agent: 'codex', reason: 'error', ended_at: '2026-12-05T10:00:00.000Z', resumed: true, messages: 1 };
    const frames: WireFrame[] = [
      b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent'], features: { adapter_type: 'process' }, extensions: { [CONTINUED_FROM_KEY]: from } }),
      buildEarlierChatFrame(S, { continued_from: 'older', earlier: [{ role: 'user', text: 'oldest prompt' }] }, b.clock),
      b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent'], features: {}, extensions: { [CONTINUED_FROM_KEY]: { ...from, session_id: 'forged', messages: 9, left_out: 99 } } }),
      ...turn(b, 0, 'newer prompt', 'Newer answer.'),
    ];
    assert.deepEqual(earlierChatOf(frames), { earlier: [{ role: 'user', text: 'oldest prompt' }, { role: 'user', text: 'newer prompt' }, { role: 'agent', text: 'Newer answer.' }], left_out: 0 });
  });

  it('bounded: a long text keeps its start and end around a cut mark that counts what is left out; beyond the count or the total the oldest go, and are counted', () => {
    const b = streamBuilder(S, Date.now());
    const long = `${'a'.repeat(EARLIER_TEXT_MAX)}MIDDLE${'z'.repeat(EARLIER_TEXT_MAX)}`;
    const [one] = earlierChatOf(turn(b, 0, long, 'ok')).earlier;
    assert.ok(one.text.startsWith('aaaa') && one.text.endsWith('zzzz'));
    assert.ok(!one.text.includes('MIDDLE'));
    assert.equal(one.text.length + charactersCut(one.text), long.length, 'the mark counts exactly what was cut');

    const many: Frame[] = [];
    for (let i = 0; i < EARLIER_MESSAGES_MAX; i++) many.push(...turn(b, i, `prompt ${i}`, `answer ${i}`));
    const byCount = earlierChatOf(many);
    assert.equal(byCount.earlier.length, EARLIER_MESSAGES_MAX);
    assert.equal(byCount.left_out, EARLIER_MESSAGES_MAX);
    assert.equal(byCount.earlier.at(-1)?.text, `answer ${EARLIER_MESSAGES_MAX - 1}`, 'the newest are kept');

    const big: Frame[] = [];
    for (let i = 0; i < 40; i++) big.push(...turn(b, i, `p${i}`, 'x'.repeat(EARLIER_TEXT_MAX)));
    const byTotal = earlierChatOf(big);
    const total = byTotal.earlier.reduce((n, m) => n + m.text.length, 0);
    assert.ok(total <= EARLIER_TOTAL_MAX, `${total} characters at most ${EARLIER_TOTAL_MAX}`);
    assert.equal(byTotal.earlier.length + byTotal.left_out, 80);
    assert.ok(byTotal.left_out > 0);
  });

  it('a chain keeps the earlier chat\'s messages first and its count of messages left out; its cut texts are not cut again', () => {
    const d = earlierChatOf(chatB({ digest: true, restarts: 2 }));
    assert.equal(d.left_out, 50, 'the count the earlier digest had left out goes on');
    assert.deepEqual(
      d.earlier.map((m) => m.role),
      ['user', 'error', 'user', 'agent', 'error'],
    );
    assert.equal(d.earlier[0].text, CUT, 'an already cut text keeps its one mark');
    assert.deepEqual(d.earlier.slice(2).map((m) => m.text), ['go on', 'Going on.', 'exit 1 again']);
  });

  it('the history budget dropped the earlier digest: its messages are counted as left out (the link counts them), once however often the link was announced again', () => {
    const d = earlierChatOf(chatB({ digest: false, restarts: 3 }));
    assert.equal(d.left_out, 52);
    assert.deepEqual(d.earlier.map((m) => m.text), ['go on', 'Going on.', 'exit 1 again']);
  });

  it('an end the agent side caused shows in the frames (a fatal agent.error); without one it did not', () => {
    const frames = chatB({ digest: true });
    assert.equal(endedByAgentFailure(frames), true);
    assert.equal(endedByAgentFailure(frames.filter((f) => f.type !== 'agent.error')), false);
  });

  it('the turn\'s own error says why a bare exit ended it: "Rate limit reached … (codex exited with code 1)"; a fatal error that already says it, or an error of an earlier turn, is not repeated (the trial of 2026-12-05)', () => {
    const b = streamBuilder(S);
    const T = { turn_id: 't-2' };
    const limited = b.make('agent.error', { error_code: 'CODEX_TURN_FAILED', message: 'Rate limit reached for gpt-5.5', severity: 'error', recoverable: true }, T);
    const exit = b.make('agent.error', { error_code: 'PROCESS_EXIT', message: 'codex exited with code 1', severity: 'fatal', recoverable: false }, T);
    const frames = [
      ...turn(b, 1, 'hello', [b.make('agent.error', { error_code: 'CODEX_ERROR', message: 'an earlier hiccup', severity: 'error', recoverable: true }, { turn_id: 't-1' })]),
      b.make('control.prompt.request', { prompt_text: 'again' }),
      b.make('session.turn.start', { turn_id: 't-2', turn_index: 2 }, T),
      limited,
      exit,
    ];
    assert.deepEqual(earlierChatOf(frames).earlier.at(-1), { role: 'error', text: 'Rate limit reached for gpt-5.5 (codex exited with code 1)' });
    assert.deepEqual(earlierChatOf(frames.filter((f) => f !== limited)).earlier.at(-1), { role: 'error', text: 'codex exited with code 1' }, 'the first turn\'s error is not this end\'s reason');
    const says = { ...exit, payload: { ...exit.payload, message: 'codex exited with code 1: Rate limit reached for gpt-5.5' } } as Frame;
    assert.deepEqual(earlierChatOf([...frames.slice(0, -1), says]).earlier.at(-1), { role: 'error', text: 'codex exited with code 1: Rate limit reached for gpt-5.5' });
  });
});
