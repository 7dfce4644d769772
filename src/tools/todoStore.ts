// The task list of §8.1, one per session, kept in memory for TodoRead/TodoWrite.
import { randomUUID } from 'node:crypto';

export type TodoStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';
export type TodoPriority = 'critical' | 'high' | 'medium' | 'low';

/** §8.1 task object. */
export interface Todo {
  id: string;
  content: string;
  status: TodoStatus;
  priority?: TodoPriority;
  created_at?: string;
  updated_at?: string;
  parent_id?: string;
  metadata?: Record<string, unknown>;
}

export type TodoInput = Omit<Todo, 'id' | 'created_at' | 'updated_at'> & { id?: string; activeForm?: string };

export class TodoStore {
  private readonly lists = new Map<string, Todo[]>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  read(session: string): Todo[] {
    return (this.lists.get(session) ?? []).map((t) => ({ ...t }));
  }

  /** Replaces the list (TodoWrite semantics); ids and created_at of known tasks are kept. */
  write(session: string, todos: readonly TodoInput[]): Todo[] {
    const prev = new Map((this.lists.get(session) ?? []).map((t) => [t.id, t]));
    const at = this.now().toISOString();
    const next = todos.map((t) => {
      const { activeForm, ...rest } = t;
      const id = t.id ?? randomUUID();
      const old = prev.get(id);
      const changed = !old || old.content !== t.content || old.status !== t.status || old.priority !== t.priority;
      const todo: Todo = { ...rest, id, created_at: old?.created_at ?? at, updated_at: changed ? at : (old?.updated_at ?? at) };
      if (activeForm !== undefined) todo.metadata = { ...todo.metadata, activeForm };
      return todo;
    });
    this.lists.set(session, next);
    return next.map((t) => ({ ...t }));
  }
}
