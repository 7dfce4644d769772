// Slash commands for one session (src/commands wiring notes): a CommandService that discovers the
// user's and the workspace's command files plus the agent's own commands, publishes the merged
// list as `agent.commands.publish` through the engine (by wrapping the adapter, so the engine
// stays the only one that stamps frames), and routes typed prompts through the pipeline and the
// follow-up queue. Host commands come back as actions for the chat controller to perform.
import type { AgentAdapter, AgentHost, CommandEntry } from '../session/agentAdapter';
import type { Frame, PayloadOf } from '../protocol/frameTypes';
import { CommandService, FollowUpQueue, type PipelineAction } from '../commands';
import type { PromptExtras } from '../commands/pipeline';

export interface SessionCommandsOptions {
  home: string;
  workspaceFolders: readonly string[];
  /** Sends a prompt the queue released (the controller builds the control.prompt.request). */
  send: (payload: PayloadOf<'control.prompt.request'>) => void;
  report: (error: unknown, where: string) => void;
  watch?: boolean;
}

export class SessionCommands {
  readonly service: CommandService;
  readonly queue: FollowUpQueue;
  private host?: AgentHost;
  /** The command list every connection last got (JSON), so an unchanged refresh sends nothing. */
  private published = '';

  constructor(options: SessionCommandsOptions) {
    this.service = new CommandService({ home: options.home, workspaceFolders: options.workspaceFolders, watch: options.watch, report: options.report });
    this.queue = new FollowUpQueue({ send: options.send });
    this.service.onDidRefresh((s) => {
      // Later refreshes (a command file changed) reach every connection through the engine, but
      // only when the list changed: each publish is kept in the session's history and journal, and
      // a refresh per write in the folder (an editor's save, a build's output) re-sent the whole
      // list every time (decision 712).
      if (s.reason === 'start' || !this.host) return;
      const json = JSON.stringify(s.publish);
      if (json === this.published) return;
      this.published = json;
      this.host.emit({ type: 'agent.commands.publish', payload: s.publish });
    });
  }

  /** The adapter as the engine sees it: its commands merged with the discovered ones. */
  wrap(adapter: AgentAdapter): AgentAdapter {
    const self = this;
    const agentRef = { id: adapter.info.id, name: adapter.info.displayName };
    const wrapped: AgentAdapter = {
      info: adapter.info,
      async start(host: AgentHost) {
        const proxy: AgentHost = Object.create(host, {
          emit: {
            value: (event: Parameters<AgentHost['emit']>[0]) => {
              // The agent's own command updates (ACP available_commands_update) are merged first.
              if (event.type === 'agent.commands.publish') void self.service.setAgentCommands(agentRef, toAgentCommands(event.payload.commands));
              else host.emit(event);
            },
          },
        });
        const started = await adapter.start(proxy);
        self.service.offerBundled(adapter.info.grammarOnly !== true);
        await self.service.setAgentCommands(agentRef, toAgentCommands(started.commands));
        self.host = host;
        const publish = self.service.snapshot.publish;
        self.published = JSON.stringify(publish);
        // The files that did not load ride on the opening publish (decision 721): sent while the
        // agent starts, the engine folds it into the list every connection opens with (§13.1),
        // and `commands` below replaces only the list.
        if (publish.unloaded) host.emit({ type: 'agent.commands.publish', payload: publish });
        return { ...started, commands: publish.commands };
      },
      prompt: (p, signal) => adapter.prompt(p, signal),
      dispose: async () => {
        self.dispose();
        await adapter.dispose();
      },
    };
    if (adapter.setMode) wrapped.setMode = (m) => adapter.setMode!(m);
    if (adapter.compact) wrapped.compact = (i, r) => adapter.compact!(i, r);
    return wrapped;
  }

  /** Every frame of the session, so the queue knows when a turn ends (slash-commands §8). */
  observe(frame: Frame): void {
    this.queue.observe(frame);
  }

  /** Typed text -> what to do (host commands, expansion); the caller submits prompts to the queue. */
  route(text: string, extras: PromptExtras): Promise<PipelineAction> {
    return this.service.pipeline.run(text, extras);
  }

  dispose(): void {
    this.service.dispose();
    this.queue.clear();
  }
}

function toAgentCommands(commands: readonly CommandEntry[]) {
  return commands.map((c) => ({
    name: c.name,
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.parameters !== undefined ? { parameters: c.parameters } : {}),
    ...(c.category !== undefined ? { category: c.category } : {}),
  }));
}
