// The §18 fallback: one `claude -p` process per prompt (prompt on stdin), `--resume {session_id}`
// from the second turn on. No process between turns; no interactive permissions (the CLI applies
// its permission mode and reports denials in the tool results).
import { CLAUDE_MENTIONS, promptText } from '../promptText';
import type { AgentAdapter, AgentCapabilities, AgentEvent, AgentHost, AgentPrompt, CatalogTool, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import type { AgentModeName } from '../../protocol/common';
import { SingleTurnRunner } from '../process';
import { claudeEnv, oneShotArgs, resolveClaudeCommand, turnFlagsOf, type TurnFlags } from './args';
import { CLAUDE_CODE_ONESHOT_INFO, claudeCapabilities } from './capabilities';
import { commandsFromNames } from './commands';
import { defaultCatalog } from './tools';
import { ClaudeTranslator } from './translate';
import type { ClaudeCodeOptions } from './adapter';
import { malformedLineWarning } from './items';
import { TurnOutput } from './turnOutput';

export interface ClaudeCodeOneShotOptions extends Omit<ClaudeCodeOptions, 'controlTimeoutMs'> {
  /** Claude's permission mode for every run (default: `plan` in plan mode, else `default`). */
  permissionMode?: string;
}

export class ClaudeCodeOneShotAdapter implements AgentAdapter {
  readonly info = CLAUDE_CODE_ONESHOT_INFO;
  private host: AgentHost | undefined;
  private runner: SingleTurnRunner | undefined;
  private translator = new ClaudeTranslator();
  private mode: AgentModeName = 'default';
  private promptText = '';
  private flags: TurnFlags = {};
  private outcome: TurnOutcome | undefined;
  private catalogJson = '';
  private commandsJson = '[]';
  /** Output after the run's `result` dropped, warnings bounded per turn (decision 715). */
  private readonly output = new TurnOutput();
  private resultSeen = false;

  constructor(private readonly options: ClaudeCodeOneShotOptions = {}) {}

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; commands: CommandEntry[] }> {
    this.host = host;
    this.mode = host.mode;
    this.translator = new ClaudeTranslator({ workspacePath: host.workspacePath });
    this.runner = new SingleTurnRunner({
      agent: 'claude-code',
      command: resolveClaudeCommand(this.options.command),
      resume_flag: this.info.resume_flag!,
      buildArgs: ({ resumeArgs }) => oneShotArgs({ mode: this.mode, resumeArgs, model: this.options.model, extraArgs: this.options.extraArgs, permissionMode: this.options.permissionMode, overrides: this.flags }),
      stdinText: () => this.promptText,
      session_id: host.session_id,
      workspacePath: host.workspacePath,
      env: claudeEnv(this.options.env),
      killGraceMs: this.options.killGraceMs,
      onMessage: (v) => this.onLine(v),
    });
    this.runner.agentSessionId = this.options.resumeSessionId;
    // §18.4: idle means no process. The real tool list arrives with the first run's init.
    const tools = defaultCatalog();
    this.catalogJson = JSON.stringify(tools);
    return { capabilities: claudeCapabilities(this.options.resumeSessionId, true), tools, commands: [] };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const runner = this.runner!;
    this.promptText = this.host ? await promptText(prompt, this.host, CLAUDE_MENTIONS) : prompt.text;
    // §6.1.1 / §11: this run's --json-schema and --max-turns (one process per prompt).
    this.flags = turnFlagsOf(prompt);
    this.outcome = undefined;
    this.resultSeen = false;
    this.output.begin();
    const run = await runner.runTurn(signal);
    // A process that died mid-turn leaves open blocks and calls: close them before the error
    // (after a `result`, only what was opened past it: dropped as it was).
    for (const e of this.translator.abortTurn(run.stop_reason !== 'end_turn')) this.emit(e);
    for (const e of run.events) this.host?.emit(e);
    for (const e of this.output.summary()) this.host?.emit(e);
    const sid = runner.agentSessionId ? { agent_session_id: runner.agentSessionId } : {};
    if (run.stop_reason === 'cancelled') return { stop_reason: 'cancelled', ...sid };
    if (run.stop_reason === 'error') return { ...(this.outcome ?? {}), stop_reason: 'error', ...sid };
    return { ...(this.outcome ?? { stop_reason: 'end_turn' }), ...sid };
  }

  async setMode(mode: AgentModeName): Promise<void> {
    // Takes effect with the next process (§18: there is none between turns).
    this.mode = mode;
  }

  async dispose(): Promise<void> {
    await this.runner?.dispose();
  }

  /** The turn is over once its `result` came; what the process writes after it is not the turn's. */
  private emit(event: AgentEvent): void {
    for (const e of this.output.pass(event, !this.resultSeen)) this.host?.emit(e);
  }

  private onLine(value: unknown): void {
    const host = this.host;
    if (!host) return;
    for (const item of this.translator.translate(value)) {
      if (item.kind === 'event') this.emit(item.event);
      else if (item.kind === 'malformed') {
        if (this.output.admit('MALFORMED_NATIVE_LINE')) host.emit(malformedLineWarning(item));
      } else if (item.kind === 'init') {
        // §18.3: keep the agent's session id for the next respawn.
        if (item.init.agent_session_id) this.runner!.agentSessionId = item.init.agent_session_id;
        const json = JSON.stringify(item.init.tools);
        if (json !== this.catalogJson) {
          this.catalogJson = json;
          host.emit({ type: 'tool.catalog.publish', payload: { tools: item.init.tools } });
        }
        const commands = commandsFromNames(item.init.slash_commands);
        if (JSON.stringify(commands) !== this.commandsJson) {
          this.commandsJson = JSON.stringify(commands);
          host.emit({ type: 'agent.commands.publish', payload: { commands } });
        }
      } else if (item.kind === 'result') {
        this.resultSeen = true;
        this.outcome = item.outcome;
        if (item.outcome.agent_session_id) this.runner!.agentSessionId = item.outcome.agent_session_id;
      }
    }
  }
}
