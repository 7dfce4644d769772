// What the status-bar item says: the active session's agent state and the attached masters. Pure.
export interface StatusInput {
  agentName?: string;
  state?: string;
  masters: number;
  shared: boolean;
  blocked?: string;
}

const STATE_ICON: Record<string, string> = {
  idle: '$(check)',
  thinking: '$(loading~spin)',
  tool_executing: '$(gear~spin)',
  awaiting_input: '$(question)',
  error: '$(error)',
};

export function statusText(s: StatusInput): { text: string; tooltip: string } {
  if (s.blocked) return { text: '$(shield) RAWP: restricted', tooltip: s.blocked };
  if (!s.state) return { text: '$(comment-discussion) RAWP', tooltip: 'RAWP Agent Client: no session' };
  const icon = STATE_ICON[s.state] ?? '$(circle-outline)';
  const masters = s.masters > 0 ? ` $(broadcast) ${s.masters}` : s.shared ? ' $(broadcast) 0' : '';
  return {
    text: `${icon} ${s.agentName ?? 'RAWP'}: ${s.state.replace(/_/g, ' ')}${masters}`,
    tooltip: `RAWP Agent Client — ${s.agentName ?? 'agent'} is ${s.state}${s.shared ? `; shared, ${s.masters} master(s) attached` : ''}`,
  };
}
