// The session host's pure pieces: agent selection and the transcript log's budget.
import assert from 'node:assert/strict';
import { selectAgent, type AgentChoice } from '../../../src/host/agentChoice';
import { TranscriptLog, type LoggedFrame } from '../../../src/host/transcriptLog';
import type { AgentAdapter } from '../../../src/session/agentAdapter';

describe('host: agent selection', () => {
  const choice = (id: string, rank: number, available = true): AgentChoice => ({ id, name: id, rank, available, create: () => ({}) as AgentAdapter });
  const choices = [choice('builtin', 0), choice('claude-code', 10), choice('codex', 5, false)];

  it('auto picks the best available agent', () => {
    assert.equal(selectAgent(choices, 'auto')?.id, 'claude-code');
    assert.equal(selectAgent(choices, undefined)?.id, 'claude-code');
  });

  it('a named agent wins when it is available; an unavailable one falls back to the best', () => {
    assert.equal(selectAgent(choices, 'builtin')?.id, 'builtin');
    assert.equal(selectAgent(choices, 'codex')?.id, 'claude-code');
    assert.equal(selectAgent([choice('builtin', 0, false)], 'auto'), undefined);
  });
});

describe('host: transcript log', () => {
  const frame = (i: number, pad = 0): LoggedFrame => ({ message_id: `m${i}`, type: 'agent.text.delta', payload: { delta: 'x'.repeat(pad) } });

  it('keeps the restored frames apart from the live ones', () => {
    const log = new TranscriptLog(1_000_000, [frame(1), frame(2)]);
    log.append(frame(3));
    const { restored, live } = log.parts();
    assert.deepEqual(restored.map((f) => f.message_id), ['m1', 'm2']);
    assert.deepEqual(live.map((f) => f.message_id), ['m3']);
    assert.equal(log.lastMessageId, 'm3');
  });

  it('drops the oldest frames beyond its byte budget and says it did', () => {
    const one = JSON.stringify(frame(1, 100)).length;
    const log = new TranscriptLog(one * 3 + 10, [frame(1, 100), frame(2, 100)]);
    assert.equal(log.truncated, false);
    log.append(frame(3, 100));
    log.append(frame(4, 100));
    assert.deepEqual(log.all().map((f) => f.message_id), ['m2', 'm3', 'm4']);
    assert.equal(log.truncated, true);
    assert.deepEqual(log.parts().restored.map((f) => f.message_id), ['m2']);
  });

  it('a zero budget keeps nothing', () => {
    const log = new TranscriptLog(0);
    log.append(frame(1));
    assert.equal(log.size, 0);
    assert.equal(log.lastMessageId, undefined);
  });
});
