// `expandSlashCommand` (slash-commands §6): only for text starting with `/`; the name is the first
// token; the rest is split by parseCommandArgs; the placeholders and the `{ args, ARGUMENTS,
// arguments }` template are filled in one pass (placeholders.ts). No match: the text comes back
// unchanged (§7).
import { parseCommandArgs } from './args';
import { fillPlaceholders } from './placeholders';

export interface ExpandableCommand {
  name: string;
  content: string;
}

export interface SlashInvocation {
  name: string;
  /** Everything after the whitespace that ends the name, unchanged. */
  argsText: string;
}

/**
 * Splits `/name rest`. The name ends at the first whitespace of any kind (space, tab, newline), so
 * a command followed by a new line of instructions is still recognised.
 */
export function parseInvocation(text: string): SlashInvocation | undefined {
  if (!text.startsWith('/')) return undefined;
  const m = /\s/.exec(text);
  if (!m) return { name: text.slice(1), argsText: '' };
  return { name: text.slice(1, m.index), argsText: text.slice(m.index + 1) };
}

/**
 * Fills a command body with the arguments; inserted arguments are never expanded again. Throws
 * ExpansionTooLargeError past MAX_EXPANSION_LENGTH (admission refuses the prompt with its message).
 */
export function applyArguments(content: string, argsText: string): string {
  return fillPlaceholders(content, parseCommandArgs(argsText));
}

export function findCommand<C extends ExpandableCommand>(text: string, commands: readonly C[]): { command: C; argsText: string } | undefined {
  const inv = parseInvocation(text);
  if (!inv || !inv.name) return undefined;
  const command = commands.find((c) => c.name === inv.name);
  return command ? { command, argsText: inv.argsText } : undefined;
}

export function expandSlashCommand(text: string, commands: readonly ExpandableCommand[]): string {
  const hit = findCommand(text, commands);
  return hit ? applyArguments(hit.command.content, hit.argsText) : text;
}
