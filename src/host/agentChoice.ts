// What the host needs to know about an agent it can offer: how it is shown in the picker, whether
// it can run here (and why not), and how to make its adapter for a new session.
import type { AgentAdapter } from '../session/agentAdapter';
import type { AgentCandidate } from '../agents/selection';
import { phrasedReason } from '../protocol/hostPhrases';
import type { AgentSummary } from '../protocol/webviewMessages';
import type { SharedToolState } from '../tools/toolkit';

export interface AgentChoice extends AgentSummary {
  /** Higher wins when the setting says `auto`. */
  rank: number;
  /**
   * `resumeSessionId`: the agent's own session to continue (§18.3), for restored sessions;
   * `toolState`: the host's shared tool state (its ledger is the one a rewind reaches, issue 17).
   */
  create(options?: { resumeSessionId?: string; toolState?: SharedToolState }): AgentAdapter;
  /**
   * Whether the agent's executable is still where detection found it (selection.executableStillThere);
   * asked before a continuation starts, which may come long after detection. Absent: it always is.
   */
  stillThere?(): boolean;
}

/** `auto`: the best available agent; otherwise the named one if available, else the best. */
export function selectAgent(choices: readonly AgentChoice[], wanted: string | undefined): AgentChoice | undefined {
  const available = choices.filter((c) => c.available);
  if (wanted && wanted !== 'auto') {
    const named = available.find((c) => c.id === wanted);
    if (named) return named;
  }
  return [...available].sort((a, b) => b.rank - a.rank)[0];
}

/**
 * What a choice says when it cannot run: a block (Restricted Mode, in the editor's own words) wins
 * over the agent's reason, which comes with its phrases for a view in another language (decision 609).
 */
export function unavailableOf(blocked: string | undefined, c: AgentCandidate): Pick<AgentSummary, 'unavailable_reason' | 'unavailable_words'> {
  if (blocked) return { unavailable_reason: blocked };
  if (c.reason) return { unavailable_reason: c.reason, ...(c.reasonWords ? { unavailable_words: c.reasonWords } : {}) };
  const { reason, words } = phrasedReason(['agent_reason.not_available']);
  return { unavailable_reason: reason, unavailable_words: words };
}
