// §18.3 when the agent's own conversation cannot be continued — Claude Code deletes transcripts
// after 30 days, keys them by the workspace's path (a moved folder), and neither it nor Codex has
// them on another machine: the agent starts a new conversation instead of failing the restored
// session, and the user is told in the turn where it matters, since the chat above is no longer in
// the agent's memory (decision 624).
import type { AgentEvent } from '../session/agentAdapter';

/** Claude Code: "No conversation found with session ID: …"; Codex: "no rollout found for thread id …". */
export const CONVERSATION_GONE = /no conversation found|no rollout found/i;

export function lostConversationWarning(agent: string, agentSessionId: string): AgentEvent {
  return {
    type: 'agent.error',
    payload: {
      error_code: 'RESUME_FAILED',
      message: `${agent} could not continue its earlier conversation (it no longer has it); this turn starts a new one, so what the chat shows above is not in its memory.`,
      severity: 'warning',
      recoverable: true,
      details: { agent_session_id: agentSessionId },
    },
  };
}
