// The login card's words in English and Korean, until they move into the chat's one catalogue
// (webview-ui/src/i18n, decision 370) — the ids there are `login.*`.
const en = {
  title: (agent: string) => `${agent} is not logged in.`,
  terminalStep: 'Log in once in a terminal:',
  thenRetry: 'Then send your message again.',
  keyStep: (provider: string, agent: string) => `Or use a ${provider} API key: it is kept in VS Code's secret storage and given only to ${agent}.`,
  terminalButton: 'Log in in a terminal',
  keyButton: (provider: string) => `Set ${provider} API key`,
  agentSaid: 'What the agent said',
};

const ko: typeof en = {
  title: (agent) => `${agent}에 로그인되어 있지 않습니다.`,
  terminalStep: '터미널에서 한 번 로그인하세요:',
  thenRetry: '그런 다음 메시지를 다시 보내세요.',
  keyStep: (provider, agent) => `또는 ${provider} API 키를 사용하세요. 키는 VS Code 보안 저장소에 보관되며 ${agent}에만 전달됩니다.`,
  terminalButton: '터미널에서 로그인',
  keyButton: (provider) => `${provider} API 키 설정`,
  agentSaid: '에이전트의 원래 메시지',
};

export function loginWords(): typeof en {
  const lang = (typeof document !== 'undefined' && document.documentElement.lang) || (typeof navigator !== 'undefined' ? navigator.language : 'en');
  return lang.toLowerCase().startsWith('ko') ? ko : en;
}
