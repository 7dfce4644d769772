// Registry items -> runtime `FileSlashCommand`s (slash-commands §3 loadSlashCommands): description,
// template body, display source, then the bundled fallback for names still free.
import { describeCommand, displaySource, oneLineDescription } from './description';
import { parseFrontmatter } from './frontmatter';
import type { BundledTemplate } from './bundled';
import type { RegistryResult } from './registry';
import type { CommandDiagnostic, FileSlashCommand, SlashCommandItem } from './types';

// The hint is shown and published (as parameters) like a description, so it is cut like one.
function argumentHintOf(frontmatter: Record<string, unknown>): string | undefined {
  const hint = frontmatter['argument-hint'] ?? frontmatter.argumentHint ?? frontmatter.argument_hint;
  if (typeof hint === 'string' && hint.trim()) return oneLineDescription(hint);
  // YAML reads `argument-hint: [message]` as a list; give it back its brackets.
  if (Array.isArray(hint)) return oneLineDescription(hint.map((h) => `[${String(h)}]`).join(' '));
  return undefined;
}

export function toFileCommand(item: SlashCommandItem): FileSlashCommand {
  const src = item._source;
  const base = {
    name: item.name,
    frontmatter: item.frontmatter,
    _source: { ...src, level: item.level },
    _shadowed: item._shadowed,
  };
  if (item.passthrough) {
    return {
      ...base,
      // Cut like a file's description: the agent's list is published and kept in history too.
      description: oneLineDescription(item.passthrough.description),
      content: '',
      source: `via ${src.providerName}`,
      argumentHint: item.passthrough.argumentHint,
      passthrough: true,
      ...(item.passthrough.parameters ? { parameters: item.passthrough.parameters } : {}),
    };
  }
  return {
    ...base,
    description: describeCommand(item.frontmatter, item.body),
    content: item.body,
    source: displaySource(src.providerName, src.scope),
    argumentHint: argumentHintOf(item.frontmatter),
  };
}

export interface MaterializedCommands {
  /** Active commands: registry winners, then bundled fallbacks. */
  commands: FileSlashCommand[];
  /** Everything, shadowed entries included (for an "all commands" view). */
  all: FileSlashCommand[];
  diagnostics: CommandDiagnostic[];
}

function fromBundled(t: BundledTemplate, diagnostics: CommandDiagnostic[]): FileSlashCommand {
  const name = t.name.replace(/\.md$/, '');
  // Bundled text is ours; a broken template is still reported rather than thrown.
  const parsed = parseFrontmatter(t.content, { level: 'user', path: `bundled:${name}` });
  if (parsed.warning) diagnostics.push({ severity: 'warning', provider: 'bundled', message: parsed.warning });
  return {
    name,
    description: describeCommand(parsed.frontmatter, parsed.body),
    content: parsed.body,
    source: 'bundled',
    argumentHint: argumentHintOf(parsed.frontmatter),
    frontmatter: parsed.frontmatter,
  };
}

export function materialize(result: RegistryResult, bundled: readonly BundledTemplate[]): MaterializedCommands {
  const diagnostics = [...result.diagnostics];
  const commands = result.items.map(toFileCommand);
  const all = result.all.map(toFileCommand);
  const taken = new Set(commands.map((c) => c.name));
  for (const t of bundled) {
    const cmd = fromBundled(t, diagnostics);
    if (taken.has(cmd.name)) {
      // Not active, but listed so the "all commands" view can show what a bundled name lost to.
      all.push({ ...cmd, _shadowed: true });
      continue;
    }
    taken.add(cmd.name);
    commands.push(cmd);
    all.push(cmd);
  }
  return { commands, all, diagnostics };
}
