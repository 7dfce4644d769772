import { strict as assert } from 'node:assert';
import { makeEnv } from './_env';
import { ToolRunner } from '../../../src/tools/runner';
import type { SubagentRequest, SubagentRunner } from '../../../src/tools/subagent';

describe('tools: Task (§10)', () => {
  it('§10.3 the runner frames a Task: request with subagent, started right after, ended right before the agent_result', async () => {
    const seen: SubagentRequest[] = [];
    const subagents: SubagentRunner = {
      run: async (req) => {
        seen.push(req);
        return { status: 'completed', result: 'found 3 files' };
      },
    };
    const env = makeEnv({ subagents });
    try {
      const r = await env.call('Task', { description: 'look around', prompt: 'find TODOs', subagent_type: 'Explore', allowed_tools: ['Read', 'Grep'] });
      assert.equal(r.status, 'success');
      assert.equal(r.output_type, 'agent_result');
      assert.deepEqual(r.output, { status: 'completed', result: 'found 3 files' });
      assert.deepEqual(env.host.types(), ['tool.invoke.request', 'agent.subagent.started', 'agent.subagent.ended', 'tool.invoke.result']);
      const req = env.host.ofType('tool.invoke.request')[0].payload;
      assert.deepEqual(req.subagent, { agent_type: 'Explore', description: 'look around' });
      assert.deepEqual(env.host.ofType('agent.subagent.started')[0].payload, { parent_invocation_id: r.invocation_id, agent_type: 'Explore', description: 'look around', depth: 1 });
      assert.equal(env.host.ofType('agent.subagent.ended')[0].payload.status, 'completed');
      assert.deepEqual([seen[0].parent_invocation_id, seen[0].depth, seen[0].agent_type, seen[0].prompt], [r.invocation_id, 1, 'Explore', 'find TODOs']);
      assert.deepEqual(seen[0].allowed_tools, ['Read', 'Grep']);
      env.host.assertAllFramesAccepted();
    } finally {
      env.cleanup();
    }
  });

  it('§15.2 a subagent runner refuses tools outside its allowed_tools, and its own subagents never get more', async () => {
    const seen: SubagentRequest[] = [];
    const env = makeEnv({ subagents: { run: async (req) => (seen.push(req), { status: 'failed', result: 'gave up' }) } });
    try {
      const child = new ToolRunner({ ...env.runner.options, subagentContext: { parent_invocation_id: 'inv-1', depth: 1, agent_type: 'Explore' }, allowedTools: ['Read', 'Task'] });
      const bash = await child.invoke('Bash', { command: 'echo hi' }, new AbortController().signal);
      assert.equal(bash.error_code, 'TOOL_NOT_ALLOWED');
      const nested = await child.invoke('Task', { description: 'deeper', prompt: 'x', allowed_tools: ['Read', 'Bash'] }, new AbortController().signal);
      assert.equal(nested.status, 'error', 'a failed subagent is an error result');
      assert.deepEqual(seen[0].allowed_tools, ['Read'], 'Bash is cut: the caller does not have it');
      assert.equal(seen[0].depth, 2);
      const frames = env.host.events;
      assert.ok(frames.every((e) => e.metadata?.subagent_context?.parent_invocation_id === 'inv-1'), '§10.2 every frame of the subagent carries its context');
      assert.equal(env.host.ofType('agent.subagent.started')[0].payload.depth, 2);
      assert.equal(env.host.ofType('agent.subagent.ended')[0].payload.status, 'failed');
      assert.deepEqual(env.host.checkToolCalls.map((c) => c.context?.parent_invocation_id), ['inv-1'], 'the host learns which subagent asks (only Task got that far)');
      env.host.assertAllFramesAccepted();
    } finally {
      env.cleanup();
    }
  });
});
