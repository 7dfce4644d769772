// TodoRead / TodoWrite: the §8 task list, results as `output_type: "structured"` (§8.2).
import { z } from 'zod';
import { defineTool } from './types';

export const TodoItemInput = z.object({
  id: z.string().min(1).optional().describe('Keep the id of an existing task; omitted for new ones'),
  content: z.string().min(1).describe('What to do'),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
  priority: z.enum(['critical', 'high', 'medium', 'low']).optional(),
  activeForm: z.string().optional().describe('Present-tense form shown while in progress (Claude Code)'),
  parent_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const TodoWriteInput = z.object({
  todos: z.array(TodoItemInput).describe('The whole updated task list'),
});

export const TodoReadInput = z.object({});

export const TodoReadTool = defineTool({
  name: 'TodoRead',
  description: "Reads this session's task list.",
  category: 'task_management',
  output_type: 'structured',
  kind: 'other',
  requires_approval: false,
  schema: TodoReadInput,
  run: async (_input, ctx) => ({ status: 'success', output: { todos: ctx.todos.read(ctx.actor) } }),
});

export const TodoWriteTool = defineTool({
  name: 'TodoWrite',
  description: "Replaces this session's task list with the given tasks.",
  category: 'task_management',
  output_type: 'structured',
  kind: 'other',
  requires_approval: false,
  schema: TodoWriteInput,
  async run(input, ctx) {
    const todos = ctx.todos.write(ctx.actor, input.todos);
    return { status: 'success', output: { success: true, count: todos.length, todos } };
  },
});
