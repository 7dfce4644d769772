// The digest of an ended chat that its continuation carries (decision 630, src/host/continuation/
// earlierChat.ts): what the user read there, in order, within bounds — built from frames made with
// the typed stream builder, so each one is a valid frame.
import assert from 'node:assert/strict';
import { earlierChatOf, EARLIER_TOTAL_MAX } from '../../../src/host/continuation/earlierChat';
import { CONTINUED_FROM_KEY, EARLIER_MESSAGES_MAX, EARLIER_TEXT_MAX } from '../../../src/protocol/continuation';
import { charactersCut } from '../../../src/protocol/cutMark';
import type { Frame } from '../../../src/protocol/frameTypes';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const S = '55555555-5555-4555-8555-555555555555';

function turn(b: ReturnType<typeof streamBuilder>, n: number, prompt: string, answer: Frame[] | string): Frame[] {
  const T = { turn_id: `t-${n}` };
  const body = typeof answer === 'string' ? [b.make('agent.text.delta', { content_index: 0, text: answer }, T), b.make('agent.text.done', { content_index: 0, full_text: answer }, T)] : answer;
  return [b.make('control.prompt.request', { prompt_text: prompt }), b.make('session.turn.start', { turn_id: `t-${n}`, turn_index: n }, T), ...body, b.make('session.turn.end', { turn_id: `t-${n}`, stop_reason: 'end_turn' }, T)];
}

describe('host: the earlier chat a continuation carries (decision 630)', () => {
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
    const from = { session_id: 'older', name: 'Older', agent: 'codex', reason: 'error', ended_at: '2026-12-05T10:00:00.000Z', resumed: true, earlier: [{ role: 'user', text: 'oldest prompt' }] };
    const frames: Frame[] = [
      b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent'], features: { adapter_type: 'process' }, extensions: { [CONTINUED_FROM_KEY]: from } }),
      b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent'], features: {}, extensions: { [CONTINUED_FROM_KEY]: { ...from, earlier: [{ role: 'user', text: 'forged by a master' }] } } }),
      ...turn(b, 0, 'newer prompt', 'Newer answer.'),
    ];
    assert.deepEqual(earlierChatOf(frames).earlier.map((m) => m.text), ['oldest prompt', 'newer prompt', 'Newer answer.']);
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
});
