// Slash commands of Claude Code (§12.1.1): from the `initialize` control response, or — when only
// a captured stdout is at hand — from the names in `system/init`.
import type { CommandEntry } from '../../session/agentAdapter';
import { InitializeResponse } from './streamJson';

const CATEGORY: Record<string, CommandEntry['category']> = {
  compact: 'session',
  clear: 'session',
  context: 'session',
  usage: 'session',
  cost: 'session',
  resume: 'session',
  config: 'config',
  model: 'config',
  permissions: 'config',
};

function entry(name: string, description: string, argumentHint?: string): CommandEntry {
  const e: CommandEntry = { name, description };
  if (argumentHint && argumentHint.trim()) e.parameters = [{ name: 'args', type: 'string', required: false, description: argumentHint.trim() }];
  const category = CATEGORY[name];
  if (category) e.category = category;
  return e;
}

/** `initialize` response `{ commands: [{ name, description, argumentHint }] }` -> entries. */
export function commandsFromInitialize(response: unknown): CommandEntry[] | undefined {
  const parsed = InitializeResponse.safeParse(response);
  if (!parsed.success) return undefined;
  const out: CommandEntry[] = [];
  const seen = new Set<string>();
  for (const c of parsed.data.commands) {
    const name = c?.name.replace(/^\//, '');
    if (!c || !name || seen.has(name)) continue;
    seen.add(name);
    out.push(entry(name, c.description ?? '', c.argumentHint ?? undefined));
  }
  return out;
}

/** `system/init` `slash_commands: ["compact", …]` -> entries without descriptions. */
export function commandsFromNames(names: readonly string[]): CommandEntry[] {
  return [...new Set(names.map((n) => n.replace(/^\//, '')).filter(Boolean))].map((n) => entry(n, ''));
}
