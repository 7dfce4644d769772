// The session host's pure pieces: agent selection.
import assert from 'node:assert/strict';
import { selectAgent, type AgentChoice } from '../../../src/host/agentChoice';
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
