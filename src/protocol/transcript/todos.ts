// §8: the task list that TodoRead/TodoWrite (or an equivalent tool) report in a structured tool
// result. A task is not a frame, so its schema lives here, next to the one place that reads it.
import { z } from 'zod';

/** §8.1 task object. Unknown keys are kept (Postel, §2.2). */
export const TodoItem = z.looseObject({
  id: z.string().min(1),
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
  priority: z.enum(['critical', 'high', 'medium', 'low']).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  parent_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type TodoItem = z.infer<typeof TodoItem>;

export interface ExtractedTodos {
  items: TodoItem[];
  invalidItems: number;
}

/**
 * §8.2: `{ todos: [...] }` (TodoRead) or `{ success, count, todos? }` (TodoWrite) with
 * `output_type: "structured"`. Returns undefined when the result carries no task list, or a
 * TodoWrite reports `success: false` (nothing was written, the old list still holds).
 */
export function extractTodos(outputType: string, output: unknown): ExtractedTodos | undefined {
  if (outputType !== 'structured' || typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const record = output as Record<string, unknown>;
  if (!Array.isArray(record.todos)) return undefined;
  if (record.success === false) return undefined;
  const items: TodoItem[] = [];
  let invalidItems = 0;
  for (const raw of record.todos) {
    const parsed = TodoItem.safeParse(raw);
    if (parsed.success) items.push(parsed.data);
    else invalidItems++;
  }
  return { items, invalidItems };
}
