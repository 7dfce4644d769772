// Task: hands a prompt to a subagent. The runner adds `subagent` to the request and the §10.3
// lifecycle frames around this; the result is `output_type: "agent_result"`.
import { z } from 'zod';
import { defineTool } from './types';

export const TaskInput = z.object({
  description: z.string().min(1).describe('A short (3-5 word) description of the task'),
  prompt: z.string().min(1).describe('The task for the subagent to perform'),
  subagent_type: z.string().optional().describe('The type of subagent (default "general-purpose")'),
  allowed_tools: z.array(z.string()).optional().describe('Tools the subagent may use (never more than the parent has, §15.2)'),
  model: z.string().optional(),
});

export const TaskTool = defineTool({
  name: 'Task',
  description: 'Delegates a task to a subagent that runs with its own context and reports back.',
  category: 'agent',
  output_type: 'agent_result',
  kind: 'other',
  requires_approval: false,
  startsSubagent: true,
  schema: TaskInput,
  async run(input, ctx) {
    if (!ctx.subagent) return { status: 'error', output: 'TOOL_UNAVAILABLE: this agent cannot run subagents', error_code: 'TOOL_UNAVAILABLE' };
    // depth and parent_invocation_id are filled in by the runner's SubagentRunner wrapper.
    const r = await ctx.subagent.run({
      description: input.description,
      prompt: input.prompt,
      agent_type: input.subagent_type ?? 'general-purpose',
      parent_invocation_id: ctx.invocation_id,
      depth: 0,
      allowed_tools: input.allowed_tools,
      signal: ctx.signal,
    });
    const status = r.status === 'completed' ? 'success' : r.status === 'cancelled' ? 'cancelled' : 'error';
    return { status, output: { status: r.status, result: r.result } };
  },
});
