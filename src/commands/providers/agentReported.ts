// Commands the running agent reports itself: Claude Code lists them in its initialize response,
// ACP agents send `available_commands_update`. They join the registry as one more provider so the
// user sees a single list. The agent expands them itself, so they are passed through unchanged.
// Priority 60: below every file provider (a file command we can expand locally wins a clash),
// above the bundled fallback (which only fills names nobody took).
import type { PayloadOf } from '../../protocol/frameTypes';
import type { CommandProvider, ProviderResult, SlashCommandItem } from '../types';

type CommandEntry = PayloadOf<'agent.commands.publish'>['commands'][number];

/** What an agent reports; a §12.1.1 command entry (as adapters build them) fits as it is. */
export interface AgentCommand {
  name: string;
  description?: string;
  /** ACP `input.hint`, Claude Code `argumentHint`. */
  argumentHint?: string;
  /** Already-structured parameters (adapters that build §12.1.1 entries); win over the hint. */
  parameters?: CommandEntry['parameters'];
  category?: CommandEntry['category'];
}

export const AGENT_PROVIDER_PRIORITY = 60;

export class AgentReportedProvider implements CommandProvider {
  readonly id = 'agent';
  readonly priority = AGENT_PROVIDER_PRIORITY;
  private agentId = 'agent';
  private agentName = 'Agent';
  private commands: AgentCommand[] = [];

  get displayName(): string {
    return this.agentName;
  }

  /** Replaces the whole list (both sources send full lists). A leading `/` is tolerated. */
  setCommands(agent: { id: string; name: string }, commands: readonly AgentCommand[]): void {
    this.agentId = agent.id;
    this.agentName = agent.name;
    this.commands = commands.map((c) => ({ ...c, name: c.name.replace(/^\//, '') }));
  }

  clear(): void {
    this.commands = [];
  }

  async load(): Promise<ProviderResult> {
    const items: SlashCommandItem[] = this.commands.map((c) => {
      const path = `agent://${this.agentId}/${c.name}`;
      return {
        name: c.name,
        path,
        content: '',
        level: 'user',
        frontmatter: c.category ? { category: c.category } : {},
        body: '',
        _source: { provider: 'agent', providerName: this.agentName, path, scope: 'agent' },
        passthrough: { description: c.description ?? '', argumentHint: c.argumentHint, parameters: c.parameters },
      };
    });
    return { items, diagnostics: [] };
  }
}
