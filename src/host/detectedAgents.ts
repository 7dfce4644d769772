// The agents `rawp serve` can offer, as the host's AgentChoice list: detected once (the CLIs on
// PATH, the OpenAI-compatible endpoint of the flags, the ACP command line the operator gave with
// --agent, the built-in agent). A master names one by id; its string is never run as a command
// (issue 12 #5). A name that cannot run is an error, never a silent fallback.
import { chooseAgent, createAgent, detectAgents, type AgentCandidate } from '../agents/selection';
import type { AgentChoice } from './agentChoice';

export interface DetectedAgentsOptions {
  openai: { baseUrl?: string; model?: string };
  /** ACP command lines the operator configured (never a master's). */
  acpCommands: string[];
}

export class DetectedAgents {
  private candidates?: Promise<AgentCandidate[]>;
  private known: AgentCandidate[] = [];

  constructor(private readonly o: DetectedAgentsOptions) {}

  /** The id of the agent `requested` names (detecting once); throws why it cannot run. */
  async resolve(requested: string): Promise<string> {
    this.candidates ??= detectAgents({ openai: this.o.openai, acpCommands: this.o.acpCommands });
    this.known = await this.candidates;
    const choice = chooseAgent(this.known, { requested });
    if (!choice.ok) throw new Error(choice.error);
    return choice.agent.id;
  }

  choices(): AgentChoice[] {
    return this.known.map((c) => ({
      id: c.id,
      name: c.version ? `${c.displayName} ${c.version}` : c.displayName,
      available: c.status === 'available',
      ...(c.status !== 'available' ? { unavailable_reason: c.reason ?? 'not available' } : {}),
      rank: 0,
      create: (options) => createAgent(c, { openai: this.o.openai, ...(options?.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}) }),
    }));
  }
}
