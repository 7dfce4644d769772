// §18.3: the host keeps the agent's own session id with the session (decision 620). It hears each
// new id once, whoever learned it first: the adapter the moment the agent names it (Claude Code's
// init, Codex's thread.started — so a first turn a reload or a crash cuts off still resumes,
// decision 624), or a turn's outcome.
export function agentSessionReporter(onAgentSession: ((agent_session_id: string) => void) | undefined): (agent_session_id: string | undefined) => void {
  let last: string | undefined;
  return (id) => {
    if (!id || id === last) return;
    last = id;
    onAgentSession?.(id);
  };
}
