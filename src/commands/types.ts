// Shared shapes of slash-command discovery (slash-commands §1–§3). A provider turns files (or an
// agent's report) into `SlashCommandItem`s; the registry ranks and de-duplicates them; the
// materializer turns the winners into `FileSlashCommand`s that expansion and publishing use.

import type { PayloadOf } from '../protocol/frameTypes';
import type { WatchTarget } from '../workspace/directoryWatcher';
import type { RefusalReason } from '../workspace/markdownDir';

/** A §12.1.1 command parameter, as published. */
export type PublishedParameter = NonNullable<PayloadOf<'agent.commands.publish'>['commands'][number]['parameters']>[number];

/**
 * Where an item comes from. `native` is our own `.rawp` provider: its frontmatter errors are fatal
 * (slash-commands §3, §9); `user` and `project` items only warn and fall back.
 */
export type CommandLevel = 'native' | 'user' | 'project';

/** The directory scope an item was found in; used for the display source ("via Claude Code Project"). */
export type CommandScope = 'user' | 'project' | 'agent';

export interface SourceMeta {
  /** Provider id: 'native', 'claude', 'claude-plugins', 'codex', 'agent'. */
  provider: string;
  /** Human name of the provider, e.g. "Claude Code". */
  providerName: string;
  /** Absolute file path (or `agent://<agent>/<name>` for agent-reported commands). */
  path: string;
  scope: CommandScope;
}

/** One discovered command before ranking. */
export interface SlashCommandItem {
  name: string;
  path: string;
  /** Whole file text (frontmatter included); '' for agent-reported commands. */
  content: string;
  level: CommandLevel;
  /** Parsed frontmatter (providers parse once so that errors surface at load time). */
  frontmatter: Record<string, unknown>;
  /** File text without the frontmatter block. */
  body: string;
  _source: SourceMeta;
  /** Agent-reported: the agent expands it itself, we pass the text through unchanged. */
  passthrough?: { description: string; argumentHint?: string; parameters?: PublishedParameter[] };
  /** Set by the registry on every item that lost its name to an earlier one (slash-commands §1). */
  _shadowed?: boolean;
}

export type DiagnosticSeverity = 'warning' | 'error';

/**
 * Why a command file was found but not loaded, for the views to say in their language (decision
 * 721). A diagnostic with one is a command the user expected and does not get.
 */
export type UnloadedReason =
  // A file or folder markdownDir.ts did not read on purpose, by its own code.
  | RefusalReason
  | 'frontmatter_invalid'
  | 'frontmatter_too_big'
  | 'unreadable'
  | 'invalid_name'
  | 'plugin_list'
  | 'provider_failed';

/** A problem found while loading; never thrown, always collected (slash-commands §9). */
export interface CommandDiagnostic {
  severity: DiagnosticSeverity;
  message: string;
  provider?: string;
  path?: string;
  /** Set when a command file (or a whole source of them) was not loaded. */
  reason?: UnloadedReason;
  /** What the reason alone does not say, with no path in it: the YAML parser's words, an errno code. */
  detail?: string;
}

export interface LoadContext {
  /** The user's home directory (injected: tests use temp dirs, never the real ~). */
  home: string;
  /** Workspace folders in VS Code order; the spec's single `cwd` generalised to many. */
  workspaceFolders: readonly string[];
}

export interface ProviderResult {
  items: SlashCommandItem[];
  diagnostics: CommandDiagnostic[];
}

/** A source of slash commands (slash-commands §1–§2). */
export interface CommandProvider {
  readonly id: string;
  readonly displayName: string;
  /** Higher loads first; ties keep registration order (slash-commands §1). */
  readonly priority: number;
  load(ctx: LoadContext): Promise<ProviderResult>;
  /**
   * Paths whose changes should trigger a refresh (command directories, registry files). They
   * need not exist yet. Not in the spec (§4 has no watcher); issue 5 asks for one. A plan
   * (`{ dir, name }`) watches one entry of a folder without following that entry (decision 712).
   */
  watchPaths?(ctx: LoadContext): Promise<WatchTarget[]> | WatchTarget[];
}

/** A command ready for expansion and publishing (slash-commands §3 `FileSlashCommand`). */
export interface FileSlashCommand {
  name: string;
  description: string;
  /** The template body (frontmatter stripped). */
  content: string;
  /** Display source: "via Claude Code Project", "via RAWP User", "bundled", … */
  source: string;
  /** From frontmatter `argument-hint`, when present. */
  argumentHint?: string;
  frontmatter: Record<string, unknown>;
  /** Provider data; absent for bundled commands. */
  _source?: SourceMeta & { level: CommandLevel };
  /** The agent expands it itself: send the typed text unchanged. */
  passthrough?: boolean;
  /** Parameters the agent reported, published as they are. */
  parameters?: PublishedParameter[];
  _shadowed?: boolean;
}
