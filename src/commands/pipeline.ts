// The prompt pipeline (slash-commands §5): host commands -> custom (code) commands -> file
// commands (expandSlashCommand) -> prompt templates. It returns what to do; it does nothing itself.
// An unknown `/x` passes through literally (§7). Handler exceptions are reported and count as
// handled, so a broken command never falls through to another one by accident (§9).
import type { PayloadOf } from '../protocol/frameTypes';
import type { HelpEntry, PipelineAction } from './actions';
import { parseCommandArgs } from './args';
import { escapeUserText } from '../protocol/fileReference';
import { applyArguments, findCommand, parseInvocation } from './expand';
import { HOST_COMMANDS, type HostCommand } from './hostCommands';
import type { FileSlashCommand } from './types';

type PromptPayload = PayloadOf<'control.prompt.request'>;

export interface CustomCommandContext {
  /** The raw text after the command name. */
  argsText: string;
  /** The whole typed text. */
  text: string;
}

/** A command implemented in code. A string result replaces the prompt; no result means handled. */
export interface CustomCommand {
  name: string;
  description?: string;
  execute(args: string[], ctx: CustomCommandContext): string | void | Promise<string | void>;
}

/** A `/name` prompt template, applied after file commands (slash-commands §5). */
export interface PromptTemplate {
  name: string;
  content: string;
  description?: string;
}

export interface PipelineOptions {
  hostCommands?: readonly HostCommand[];
  customCommands?: () => readonly CustomCommand[];
  /** The active file commands of the latest refresh. */
  fileCommands: () => readonly FileSlashCommand[];
  templates?: () => readonly PromptTemplate[];
  /** Where handler exceptions go besides the returned error action (logger / error channel). */
  report?: (error: unknown, command: string) => void;
}

/** Fields a caller adds to every prompt (file references, context files, overrides). */
export type PromptExtras = Omit<PromptPayload, 'prompt_text' | 'input_type'>;

/**
 * True when the typed text reads as a command: `/` and a name with no further `/` (so a path like
 * `/usr/bin is slow` stays a text prompt). Such input is sent with input_type "slash_command"
 * even when nobody here knows the name: the agent may (§6.1.1, slash-commands §7).
 */
export function looksLikeCommand(text: string): boolean {
  const inv = parseInvocation(text);
  return !!inv && inv.name.length > 0 && !inv.name.includes('/');
}

export class PromptPipeline {
  private readonly host: readonly HostCommand[];

  constructor(private readonly options: PipelineOptions) {
    this.host = options.hostCommands ?? HOST_COMMANDS;
  }

  /** Host, custom, active file commands and templates, for `/help` and completion. */
  listCommands(): HelpEntry[] {
    const seen = new Set<string>();
    const out: HelpEntry[] = [];
    const add = (name: string, description: string, source: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      out.push({ name, description, source });
    };
    for (const c of this.host) add(c.name, c.description, 'built-in');
    for (const c of this.options.customCommands?.() ?? []) add(c.name, c.description ?? '', 'custom');
    for (const c of this.options.fileCommands()) add(c.name, c.description, c.source);
    for (const t of this.options.templates?.() ?? []) add(t.name, t.description ?? '', 'template');
    return out;
  }

  /**
   * Whether `/name …` names a command known here (host, custom, file or template) — what the
   * spec's isKnownSlashCommand answers when replaying queued input (slash-commands §8).
   */
  isKnownCommand(text: string): boolean {
    const inv = parseInvocation(text);
    return !!inv && this.listCommands().some((c) => c.name === inv.name);
  }

  async run(typed: string, extras: PromptExtras = {}): Promise<PipelineAction> {
    let text = typed;
    let command: string | undefined;
    const inv = parseInvocation(text);

    // 1. Host commands: consumed here, never expanded or sent as text.
    const host = inv && this.host.find((c) => c.name === inv.name);
    if (inv && host) return host.toAction(inv.argsText, { listCommands: () => this.listCommands() });

    // 2. Custom (code) commands.
    const custom = inv && this.options.customCommands?.().find((c) => c.name === inv.name);
    if (inv && custom) {
      let result: string | void;
      try {
        result = await custom.execute(parseCommandArgs(inv.argsText), { argsText: inv.argsText, text });
      } catch (err) {
        this.options.report?.(err, custom.name);
        return { kind: 'error', command: custom.name, message: `/${custom.name} failed: ${err instanceof Error ? err.message : String(err)}` };
      }
      if (typeof result !== 'string') return { kind: 'handled', command: custom.name };
      text = result;
      command = custom.name;
    }

    // 3. File commands (only while the text still starts with `/`).
    const file = findCommand(text, this.options.fileCommands());
    if (file) {
      command = file.command.name;
      // Agent-reported commands are expanded by the agent: the text goes as typed.
      // §16.2.2: the body is literal text (escaped like typed text); the arguments keep the
      // sender's encoding, so their file-reference tokens stay tokens.
      if (!file.command.passthrough) text = applyArguments(escapeUserText(file.command.content), file.argsText);
    }

    // 4. Prompt templates.
    const template = findCommand(text, this.options.templates?.() ?? []);
    if (template) {
      command = template.command.name;
      text = applyArguments(escapeUserText(template.command.content), template.argsText);
    }

    const input_type = command !== undefined || looksLikeCommand(typed) ? 'slash_command' : 'text';
    const payload: PromptPayload = { ...extras, prompt_text: text, input_type };
    return command !== undefined ? { kind: 'prompt', payload, command } : { kind: 'prompt', payload };
  }
}
