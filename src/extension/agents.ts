// The agents this window can offer. The built-in offline agent is always there (zero set-up);
// in Restricted Mode nothing runs and every entry says why.
import { BuiltinAgent } from '../agents/builtin';
import type { SharedToolState } from '../tools/toolkit';
import type { AgentChoice } from './agentChoice';

export interface AgentSources {
  /** Tool state every built-in session shares (one ledger, one rule store, the VS Code FsBackend). */
  shared: () => SharedToolState;
  rulesFile: string;
  /** Why nothing may run (Restricted Mode), or undefined. */
  blocked: () => string | undefined;
}

export function agentChoices(src: AgentSources): AgentChoice[] {
  const blocked = src.blocked();
  const choices: AgentChoice[] = [
    {
      id: 'builtin',
      name: 'Built-in (offline)',
      description: 'Deterministic, no model: read, find, replace, write, run, todo, plan, delegate — with the real tools and permission prompts.',
      available: true,
      rank: 0,
      create: () => new BuiltinAgent({ rulesFile: src.rulesFile, shared: src.shared() }),
    },
  ];
  return blocked ? choices.map((c) => ({ ...c, available: false, unavailable_reason: blocked })) : choices;
}
