// The agents `rawp serve` can offer, as the host's AgentChoice list: detected once (the CLIs on
// PATH, the OpenAI-compatible endpoint of the flags, the ACP command line the operator gave with
// --agent, the built-in agent). A master names one by id; its string is never run as a command
// (issue 12 #5). A name that cannot run is an error, never a silent fallback.
import { chooseAgent, createAgent, detectAgents, executableStillThere, type AgentCandidate } from '../agents/selection';
import { unavailableOf, type AgentChoice } from './agentChoice';
import { discoverAgentDirs, type DiscoveryOptions } from './agentDiscovery';

export interface DetectedAgentsOptions {
  openai: { baseUrl?: string; model?: string; vision?: boolean; contextWindow?: number };
  /** ACP command lines the operator configured (never a master's). */
  acpCommands: string[];
  /** The login shell and the usual install folders (decision 380); default: the real ones. */
  discovery?: DiscoveryOptions;
  /** The language the person reads (the environment's locale): the built-in agent speaks it (decision 572). */
  language?: string;
}

export class DetectedAgents {
  private candidates?: Promise<AgentCandidate[]>;
  private known: AgentCandidate[] = [];
  private env: Record<string, string> = {};

  constructor(private readonly o: DetectedAgentsOptions) {}

  /** The id of the agent `requested` names (detecting once); throws why it cannot run. */
  async resolve(requested: string): Promise<string> {
    await this.detect();
    const choice = chooseAgent(this.known, { requested });
    if (!choice.ok) throw new Error(choice.error);
    return choice.agent.id;
  }

  /** Detects again: an agent's executable went away since (decision 644). Never rejects. */
  async detectAgain(): Promise<void> {
    this.candidates = undefined;
    await this.detect().catch(() => undefined);
  }

  private async detect(): Promise<void> {
    this.candidates ??= discoverAgentDirs(this.o.discovery).then((found) => {
      if (found.fallbackDirs.length > 0) this.env = { PATH: found.agentPath };
      return detectAgents({ openai: this.o.openai, acpCommands: this.o.acpCommands, fallbackDirs: found.fallbackDirs, ...(this.o.discovery?.env ? { env: this.o.discovery.env } : {}) });
    });
    this.known = await this.candidates;
  }

  choices(): AgentChoice[] {
    return this.known.map((c) => ({
      id: c.id,
      name: c.version ? `${c.displayName} ${c.version}` : c.displayName,
      available: c.status === 'available',
      ...(c.status !== 'available' ? unavailableOf(undefined, c) : {}),
      rank: 0,
      create: (options) => createAgent(c, { openai: this.o.openai, env: this.env, language: this.o.language, ...(options?.toolState ? { shared: options.toolState } : {}), ...(options?.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}) }),
      stillThere: () => executableStillThere(c),
    }));
  }
}
