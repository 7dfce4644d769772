// What the status-bar item says: the active session's agent state and the attached masters. Pure;
// its words come through the Words port (vscode.l10n in the editor).
import { englishWords, type Words } from './words';

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

const stateWords = (w: Words): Record<string, string> => ({
  idle: w.t('ready'),
  thinking: w.t('thinking'),
  tool_executing: w.t('using a tool'),
  tool_calling: w.t('using a tool'),
  awaiting_input: w.t('waiting for you'),
  error: w.t('error'),
});

export function statusText(s: StatusInput, w: Words = englishWords): { text: string; tooltip: string } {
  if (s.blocked) return { text: `$(shield) ${w.t('RAWP: restricted')}`, tooltip: s.blocked };
  if (!s.state) return { text: '$(comment-discussion) RAWP', tooltip: w.t('RAWP Agent Client: no session') };
  const state = stateWords(w)[s.state] ?? s.state.replace(/_/g, ' ');
  const icon = STATE_ICON[s.state] ?? '$(circle-outline)';
  const masters = s.masters > 0 ? ` $(broadcast) ${s.masters}` : s.shared ? ' $(broadcast) 0' : '';
  return {
    text: `${icon} ${s.agentName ?? 'RAWP'}: ${state}${masters}`,
    tooltip: s.shared ? w.t('RAWP Agent Client — {0}: {1}; shared, {2} master(s) attached', s.agentName ?? 'RAWP', state, s.masters) : w.t('RAWP Agent Client — {0}: {1}', s.agentName ?? 'RAWP', state),
  };
}
