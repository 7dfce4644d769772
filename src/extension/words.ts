// The host's words port: `vscode.l10n` in the editor (l10n/bundle.l10n.*.json, keyed by the English
// text), plain English with `{0}` arguments where no VS Code runs (unit tests, decision 370). Code that
// stays vscode-free (the chat controller) takes it as an option, so its notices are localised too.
import { agentReasonIn, type HostLanguage } from '../protocol/hostPhrases';
import type { AgentSummary } from '../protocol/webviewMessages';
export interface Words {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

export const englishWords: Words = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (whole, n: string) => (args[Number(n)] === undefined ? whole : String(args[Number(n)]))),
};

/** "<agent> cannot run: <why>." with the agent's reason in the editor's language (decision 609). */
export function cannotRunText(words: Words, agent: Pick<AgentSummary, 'name' | 'unavailable_reason' | 'unavailable_words'>, language: HostLanguage = 'en'): string {
  return words.t('{0} cannot run: {1}.', agent.name, agentReasonIn(agent, language) ?? words.t('not available'));
}
