import { strict as assert } from 'node:assert';
import type { AgentEvent } from '../../../src/session/agentAdapter';
import { promptText } from '../../../src/agents/promptText';

const host = (events: AgentEvent[]) => ({ workspacePath: '/nonexistent-workspace', emit: (e: AgentEvent) => void events.push(e) });

describe('agents: the prompt text an external agent gets', () => {
  it('§16.2.2 escapes are undone even when the prompt has no token (\\\\ → \\, \\<@ → <@)', async () => {
    const events: AgentEvent[] = [];
    const text = await promptText({ text: 'C:\\\\dir and \\<@user:x>', file_references: [] }, host(events), { kind: 'label' });
    assert.equal(text, 'C:\\dir and <@user:x>');
    assert.deepEqual(events, []);
  });

  it('§16.3-2 §16.3-3 a token that cannot be resolved is sent as its display path, with a warning to the user', async () => {
    const events: AgentEvent[] = [];
    const text = await promptText(
      { text: 'look at <@file:r1|src/gone.ts>', file_references: [{ ref_id: 'r1', path: 'src/gone.ts', name: 'gone.ts', workspace_relative_path: 'src/gone.ts' }] },
      host(events),
      { kind: 'label' },
    );
    assert.equal(text, 'look at src/gone.ts');
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'agent.error');
    assert.equal(events[0].type === 'agent.error' && events[0].payload.severity, 'warning');
  });

  it('plain text without backslashes or tokens passes untouched', async () => {
    assert.equal(await promptText({ text: 'just words <not a token>', file_references: [] }, host([]), { kind: 'label' }), 'just words <not a token>');
  });
});
