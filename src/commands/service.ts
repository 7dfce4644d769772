// The one object the engine and the VS Code host hold: discovers commands from every provider,
// refreshes them (on start, on workspace-folder change, on command-file change, on a new agent
// list), runs the prompt pipeline over the latest list and announces every refresh with a fresh
// `agent.commands.publish` payload (§12.1.1).
import type { PayloadOf } from '../protocol/frameTypes';
import { BUNDLED_COMMANDS, type BundledTemplate } from './bundled';
import { HOST_COMMANDS, type HostCommand } from './hostCommands';
import { materialize } from './materialize';
import { PromptPipeline, type CustomCommand, type PromptTemplate } from './pipeline';
import { AgentReportedProvider, type AgentCommand } from './providers/agentReported';
import { claudeProvider } from './providers/claude';
import { claudePluginsProvider } from './providers/claudePlugins';
import { codexProvider } from './providers/codex';
import { nativeProvider } from './providers/native';
import { buildCommandsPublish } from './publish';
import { CommandRegistry } from './registry';
import { unloadedFiles } from './unloaded';
import type { CommandDiagnostic, CommandProvider, FileSlashCommand, LoadContext } from './types';
import { DirectoryWatcher, type WatchTarget } from '../workspace/directoryWatcher';

export type RefreshReason = 'start' | 'workspace' | 'files' | 'agent' | 'custom' | 'manual';

export interface CommandSnapshot {
  /** Increases with every refresh. */
  generation: number;
  reason: RefreshReason;
  /** Active file-level commands (registry winners, then bundled fallbacks). */
  commands: readonly FileSlashCommand[];
  /** Every discovered command, shadowed ones included. */
  all: readonly FileSlashCommand[];
  diagnostics: readonly CommandDiagnostic[];
  publish: PayloadOf<'agent.commands.publish'>;
}

/** One row of the "all commands" view. */
export interface CommandListing {
  name: string;
  description: string;
  source: string;
  kind: 'host' | 'custom' | 'file' | 'agent' | 'bundled' | 'template';
  shadowed: boolean;
  path?: string;
}

export interface CommandServiceOptions {
  /** Home directory (required: the service never guesses it, so tests never touch the real ~). */
  home: string;
  workspaceFolders?: readonly string[];
  /** File providers; default native, claude, claude-plugins, codex (in that registration order). */
  providers?: readonly CommandProvider[];
  bundled?: readonly BundledTemplate[];
  hostCommands?: readonly HostCommand[];
  customCommands?: readonly CustomCommand[];
  templates?: readonly PromptTemplate[];
  /** Watch command directories (default true). */
  watch?: boolean;
  debounceMs?: number;
  /** Handler exceptions and listener failures (besides the error action the pipeline returns). */
  report?: (error: unknown, where: string) => void;
}

export function defaultProviders(): CommandProvider[] {
  // Registration order matters for ties: claude-plugins before codex (slash-commands §1).
  return [nativeProvider(), claudeProvider(), claudePluginsProvider(), codexProvider()];
}

const EMPTY: CommandSnapshot = { generation: 0, reason: 'start', commands: [], all: [], diagnostics: [], publish: { commands: [] } };

export class CommandService {
  readonly pipeline: PromptPipeline;
  private readonly registry = new CommandRegistry();
  private readonly agent = new AgentReportedProvider();
  private readonly watcher: DirectoryWatcher | undefined;
  private readonly listeners = new Set<(s: CommandSnapshot) => void>();
  private folders: readonly string[];
  private custom: readonly CustomCommand[];
  private templates: readonly PromptTemplate[];
  private current: CommandSnapshot = EMPTY;
  private chain: Promise<unknown> = Promise.resolve();
  private queued: Promise<CommandSnapshot> | undefined;
  private disposed = false;
  private bundledOffered = true;

  constructor(private readonly options: CommandServiceOptions) {
    this.folders = options.workspaceFolders ?? [];
    this.custom = options.customCommands ?? [];
    this.templates = options.templates ?? [];
    for (const p of options.providers ?? defaultProviders()) this.registry.register(p);
    this.registry.register(this.agent);
    if (options.watch !== false) {
      this.watcher = new DirectoryWatcher(() => {
        this.refresh('files').catch((err: unknown) => options.report?.(err, 'refresh after a file change'));
      }, options.debounceMs);
    }
    this.pipeline = new PromptPipeline({
      hostCommands: this.hostCommands,
      customCommands: () => this.custom,
      fileCommands: () => this.current.commands,
      templates: () => this.templates,
      report: (err, command) => this.options.report?.(err, `/${command}`),
    });
  }

  private get hostCommands(): readonly HostCommand[] {
    return this.options.hostCommands ?? HOST_COMMANDS;
  }

  get snapshot(): CommandSnapshot {
    return this.current;
  }

  get context(): LoadContext {
    return { home: this.options.home, workspaceFolders: this.folders };
  }

  /** Directories the watcher currently listens on. */
  get watchedDirs(): string[] {
    return this.watcher?.watchedDirs ?? [];
  }

  /** Called after every refresh with the new list and its publish payload. */
  onDidRefresh(listener: (s: CommandSnapshot) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  start(): Promise<CommandSnapshot> {
    return this.refresh('start');
  }

  /** The host calls this when VS Code's workspace folders change. */
  setWorkspaceFolders(folders: readonly string[]): Promise<CommandSnapshot> {
    this.folders = [...folders];
    return this.refresh('workspace');
  }

  /** Claude Code initialize response / ACP `available_commands_update`: the full current list. */
  setAgentCommands(agent: { id: string; name: string }, commands: readonly AgentCommand[]): Promise<CommandSnapshot> {
    this.agent.setCommands(agent, commands);
    return this.refresh('agent');
  }

  /** Whether the bundled prompts are offered (not to an agent without a model: AgentInfo.grammarOnly). Takes effect at the next refresh: the caller's setAgentCommands makes it. */
  offerBundled(offered: boolean): void {
    this.bundledOffered = offered;
  }

  setCustomCommands(commands: readonly CustomCommand[]): Promise<CommandSnapshot> {
    this.custom = [...commands];
    return this.refresh('custom');
  }

  setTemplates(templates: readonly PromptTemplate[]): Promise<CommandSnapshot> {
    this.templates = [...templates];
    return this.refresh('custom');
  }

  /**
   * Reloads everything. Refreshes run one at a time; requests made while one is waiting to run
   * share it, so a burst of file events costs one reload.
   */
  refresh(reason: RefreshReason = 'manual'): Promise<CommandSnapshot> {
    if (this.disposed) return Promise.resolve(this.current);
    if (this.queued) return this.queued;
    const run = this.chain.then(() => {
      this.queued = undefined;
      return this.load(reason);
    });
    this.queued = run;
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async load(reason: RefreshReason): Promise<CommandSnapshot> {
    const ctx = this.context;
    // Arm before reading too, so a file written while we read is not missed.
    if (this.watcher) this.watcher.sync(await this.watchTargets(ctx));
    const result = materialize(await this.registry.load(ctx), this.bundledOffered ? (this.options.bundled ?? BUNDLED_COMMANDS) : []);
    const snapshot: CommandSnapshot = {
      generation: this.current.generation + 1,
      reason,
      commands: result.commands,
      all: result.all,
      diagnostics: result.diagnostics,
      publish: buildCommandsPublish({ host: this.hostCommands, custom: this.custom, files: result.commands, templates: this.templates, unloaded: unloadedFiles(result.diagnostics, ctx) }),
    };
    if (this.disposed) return snapshot;
    this.current = snapshot;
    if (this.watcher) this.watcher.sync(await this.watchTargets(ctx));
    for (const l of this.listeners) {
      try {
        l(snapshot);
      } catch (err) {
        this.options.report?.(err, 'onDidRefresh listener');
      }
    }
    return snapshot;
  }

  private async watchTargets(ctx: LoadContext): Promise<WatchTarget[]> {
    const targets: WatchTarget[] = [];
    for (const p of this.registry.ranked()) {
      try {
        targets.push(...(await (p.watchPaths?.(ctx) ?? [])));
      } catch {
        // a provider that cannot say what to watch is simply not watched
      }
    }
    return targets;
  }

  /** Every command for an "all commands" view: active ones first, then shadowed ones, in rank order. */
  allCommands(): CommandListing[] {
    const out: CommandListing[] = [];
    const taken = new Set<string>();
    const push = (l: Omit<CommandListing, 'shadowed'>, shadowed = false) => {
      out.push({ ...l, shadowed: shadowed || taken.has(l.name) });
      taken.add(l.name);
    };
    for (const c of this.hostCommands) push({ name: c.name, description: c.description, source: 'built-in', kind: 'host' });
    for (const c of this.custom) push({ name: c.name, description: c.description ?? '', source: 'custom', kind: 'custom' });
    for (const c of this.current.all) {
      const kind = c.passthrough ? 'agent' : c._source ? 'file' : 'bundled';
      push({ name: c.name, description: c.description, source: c.source, kind, path: c._source?.path }, c._shadowed === true);
    }
    for (const t of this.templates) push({ name: t.name, description: t.description ?? '', source: 'template', kind: 'template' });
    return out;
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.dispose();
    this.listeners.clear();
  }
}
