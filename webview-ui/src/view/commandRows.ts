// The slash-command picker's rows (composer.tsx): which published commands match what is typed
// after "/", a command's argument hint, and whether a command was typed whole.
import type { PayloadOf } from '../../../src/protocol/frameTypes';

type Command = PayloadOf<'agent.commands.publish'>['commands'][number];

export function argumentHint(c: Command): string {
  return (c.parameters ?? []).map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(' ');
}

export function matchingCommands(commands: Command[] | undefined, query: string): Command[] {
  const q = query.toLowerCase();
  const list = commands ?? [];
  return [...list.filter((c) => c.name.toLowerCase().startsWith(q)), ...list.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q))].slice(0, 30);
}

/** `query` is the command's whole name and the command needs no argument: Enter sends it as typed. */
export function typedWhole(c: Command | undefined, query: string): boolean {
  return c !== undefined && c.name === query && !(c.parameters ?? []).some((p) => p.required);
}

