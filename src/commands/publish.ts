// The `agent.commands.publish` payload (§12.1.1): every command the user can run, once per name,
// in the order the pipeline resolves them (host, custom, file, template), so what is published is
// exactly what `/name` will do.
import type { PayloadOf } from '../protocol/frameTypes';
import { payloads } from '../protocol';
import { hostCommandEntry, type HostCommand } from './hostCommands';
import { commandParameters } from './parameters';
import type { CustomCommand, PromptTemplate } from './pipeline';
import type { FileSlashCommand } from './types';
import type { UnloadedFiles } from './unloaded';

type CommandsPayload = PayloadOf<'agent.commands.publish'>;
type CommandEntry = CommandsPayload['commands'][number];

const CATEGORIES = payloads.CommandEntry.shape.category.unwrap();

function fileEntry(c: FileSlashCommand): CommandEntry {
  const entry: CommandEntry = { name: c.name, description: c.description };
  const parameters = c.parameters ?? commandParameters(c.argumentHint, c.passthrough ? '' : c.content);
  if (parameters.length > 0) entry.parameters = parameters;
  const category = CATEGORIES.safeParse(c.frontmatter.category);
  if (category.success) entry.category = category.data;
  return entry;
}

export interface PublishSources {
  host: readonly HostCommand[];
  custom?: readonly CustomCommand[];
  files: readonly FileSlashCommand[];
  templates?: readonly PromptTemplate[];
  /** Command files found but not loaded (unloaded.ts, decision 721). */
  unloaded?: UnloadedFiles;
}

export function buildCommandsPublish(src: PublishSources): CommandsPayload {
  const seen = new Set<string>();
  const commands: CommandEntry[] = [];
  const add = (e: CommandEntry) => {
    if (seen.has(e.name)) return;
    seen.add(e.name);
    commands.push(e);
  };
  src.host.forEach((c) => add(hostCommandEntry(c)));
  (src.custom ?? []).forEach((c) => add({ name: c.name, description: c.description ?? '' }));
  src.files.forEach((c) => add(fileEntry(c)));
  (src.templates ?? []).forEach((t) => {
    const parameters = commandParameters(undefined, t.content);
    add(parameters.length ? { name: t.name, description: t.description ?? '', parameters } : { name: t.name, description: t.description ?? '' });
  });
  return src.unloaded ? { commands, unloaded: src.unloaded } : { commands };
}
