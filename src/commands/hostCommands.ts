// Commands the client handles itself, before any file command (slash-commands §5, §7: the
// interactive layer consumes its built-ins before prompt expansion). Each maps to a DPS control
// frame where one exists (§6.3.1, §6.3.2) or to a local action the host performs.
import { AgentMode } from '../protocol/common';
import type { PayloadOf } from '../protocol/frameTypes';
import type { HelpEntry, PipelineAction } from './actions';

type CommandEntry = PayloadOf<'agent.commands.publish'>['commands'][number];

export interface HostCommandContext {
  /** Everything the user can run, for `/help`. */
  listCommands(): HelpEntry[];
}

export interface HostCommand extends CommandEntry {
  toAction(argsText: string, ctx: HostCommandContext): PipelineAction;
}

const MODES = AgentMode.options;

export const HOST_COMMANDS: readonly HostCommand[] = [
  {
    name: 'compact',
    description: 'Compact the conversation context',
    category: 'session',
    parameters: [{ name: 'instruction', type: 'string', required: false, description: 'What the summary must keep' }],
    toAction(argsText) {
      const instruction = argsText.trim();
      return { kind: 'control', command: 'compact', type: 'control.session.compact', payload: instruction ? { instruction } : {} };
    },
  },
  {
    name: 'mode',
    description: `Switch the agent mode (${MODES.join(', ')})`,
    category: 'config',
    parameters: [{ name: 'mode', type: 'string', required: true, description: MODES.join(' | ') }],
    toAction(argsText) {
      const wanted = argsText.trim().split(/\s+/)[0] ?? '';
      const parsed = AgentMode.safeParse(wanted);
      if (!parsed.success) {
        const what = wanted ? `Unknown mode "${wanted}"` : 'No mode given';
        return { kind: 'error', command: 'mode', message: `${what}. Usage: /mode ${MODES.join('|')}` };
      }
      return { kind: 'control', command: 'mode', type: 'control.mode.switch', payload: { mode: parsed.data } };
    },
  },
  {
    name: 'clear',
    description: 'Start a new conversation',
    category: 'session',
    toAction: () => ({ kind: 'local', command: 'clear', action: 'clear' }),
  },
  {
    name: 'cost',
    description: 'Show token usage and cost of this session',
    category: 'display',
    toAction: () => ({ kind: 'local', command: 'cost', action: 'cost' }),
  },
  {
    name: 'rename',
    description: 'Rename this session',
    category: 'session',
    parameters: [{ name: 'name', type: 'string', required: true, description: 'New session name' }],
    toAction(argsText) {
      const name = argsText.trim();
      if (!name) return { kind: 'error', command: 'rename', message: 'Usage: /rename <new name>' };
      return { kind: 'local', command: 'rename', action: 'rename', name };
    },
  },
  {
    name: 'stop',
    description: 'Cancel the running turn',
    category: 'session',
    toAction: () => ({ kind: 'local', command: 'stop', action: 'cancel' }),
  },
  {
    name: 'help',
    description: 'List the available slash commands',
    category: 'display',
    toAction: (_args, ctx) => ({ kind: 'local', command: 'help', action: 'help', commands: ctx.listCommands() }),
  },
];

/** The publishable part of a host command (no handler). */
export function hostCommandEntry(c: HostCommand): CommandEntry {
  const entry: CommandEntry = { name: c.name, description: c.description };
  if (c.parameters) entry.parameters = c.parameters;
  if (c.category) entry.category = c.category;
  return entry;
}
