// The ACP translator classes Claude's subagent tools (Task / Agent, sent by claude-agent-acp as
// kind "think" with the name in _meta.claudeCode.toolName) as §5.3.3 category `agent`, so their
// results are agent_result (§10.4) without any subagent_context (§10.7). Other "think" calls stay
// custom/text: the kind alone does not make a subagent.
import { strict as assert } from 'node:assert';
import { AcpUpdateTranslator } from '../../../src/agents/acp/updates';
import type { AgentEvent } from '../../../src/session/agentAdapter';

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

function run(toolName: string | undefined): { out: AgentEvent[]; of: <T extends AgentEvent['type']>(type: T) => Of<T>[] } {
  const out: AgentEvent[] = [];
  const t = new AcpUpdateTranslator({ emit: (e) => out.push(e), roots: ['/ws'], session_id: 's1', toolStreaming: false });
  t.goLive([]);
  t.beginTurn();
  const _meta = toolName ? { claudeCode: { toolName } } : undefined;
  t.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'look around', kind: 'think', status: 'pending', rawInput: { description: 'look around', prompt: 'List the files' }, ...(_meta ? { _meta } : {}) });
  t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Only a.txt.' } }], ...(_meta ? { _meta } : {}) });
  t.endTurn('ended');
  return { out, of: <T extends AgentEvent['type']>(type: T) => out.filter((e): e is Of<T> => e.type === type) };
}

describe('ACP subagent tools (Task / Agent)', () => {
  for (const name of ['Agent', 'Task']) {
    it(`§5.3.3/§10.7 ${name === 'Agent' ? 'an' : 'a'} ${name} call is catalogued as category agent and its result is agent_result with the subagent's text, no subagent_context`, () => {
      const { out, of } = run(name);
      const entry = of('tool.catalog.publish').at(-1)?.payload.tools.find((t) => t.name === name);
      assert.deepEqual([entry?.category, entry?.output_type], ['agent', 'agent_result']);
      const res = of('tool.invoke.result')[0].payload;
      assert.deepEqual([res.tool_name, res.status, res.output_type, res.output], [name, 'success', 'agent_result', 'Only a.txt.']);
      assert.equal(of('tool.invoke.request')[0].payload.subagent, undefined);
      assert.deepEqual(out.filter((e) => e.metadata?.subagent_context != null || e.type.startsWith('agent.subagent.')), []);
    });
  }

  it('§5.3.3 a "think" call without a subagent tool name stays custom with text output', () => {
    const { of } = run(undefined);
    const res = of('tool.invoke.result')[0].payload;
    assert.deepEqual([res.tool_name, res.output_type], ['Think', 'text']);
  });
});
