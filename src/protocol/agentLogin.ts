// What a user does when an agent CLI has no credentials (issue 15, Why 4; decision 381): the
// `agent.error` code the adapters report for it, and per agent the command that logs in (run in
// a terminal, because every agent's login is interactive: a browser sign-in or a pasted code) and
// the provider whose API key is the other way in. Pure data, shared by the host and the chat view.

/** §4.4.1 `agent.error.error_code` of an agent that needs its user to log in (ours, not the spec's). */
export const AUTH_REQUIRED = 'AUTH_REQUIRED';

export type ApiKeyProvider = 'anthropic' | 'openai' | 'gemini';

export interface AgentLogin {
  /** Arguments after the agent's own executable, run in a terminal. */
  loginArgs: string[];
  /** The command as a person reads it. */
  loginDisplay: string;
  /** What to do in the terminal after it starts, when the command alone does not finish it. */
  loginFollowUp?: string;
  apiKey: { provider: ApiKeyProvider; env: string; label: string };
}

const CLAUDE: AgentLogin = { loginArgs: ['auth', 'login'], loginDisplay: 'claude auth login', apiKey: { provider: 'anthropic', env: 'ANTHROPIC_API_KEY', label: 'Anthropic' } };

const LOGINS: Record<string, AgentLogin> = {
  'claude-code': CLAUDE,
  // The ACP wrappers run Claude Code with its own credentials: the same login.
  'acp:claude-agent-acp': CLAUDE,
  'acp:claude-code-acp': CLAUDE,
  // `codex exec` reads an API key from CODEX_API_KEY only (0.17x ignores OPENAI_API_KEY; seen with
  // the real CLI, decision 440); codex-acp offers CODEX_API_KEY as one of its env_var auth methods.
  codex: { loginArgs: ['login'], loginDisplay: 'codex login', apiKey: { provider: 'openai', env: 'CODEX_API_KEY', label: 'OpenAI' } },
  'acp:codex-acp': { loginArgs: ['login'], loginDisplay: 'codex login', apiKey: { provider: 'openai', env: 'CODEX_API_KEY', label: 'OpenAI' } },
  // Gemini CLI logs in from its interactive start (it asks how to authenticate; `/auth` again later).
  'acp:gemini': { loginArgs: [], loginDisplay: 'gemini', loginFollowUp: 'choose “Login with Google” (or type /auth)', apiKey: { provider: 'gemini', env: 'GEMINI_API_KEY', label: 'Gemini' } },
};

/** How `agentId` logs in, or undefined for agents without a login (built-in, OpenAI-compatible). */
export function agentLogin(agentId: string | undefined): AgentLogin | undefined {
  return agentId ? LOGINS[agentId] : undefined;
}

/** The login command's executable for agents whose login lives in another CLI (the ACP wrappers). */
export function loginExecutableAgent(agentId: string): string {
  if (agentId === 'acp:claude-agent-acp' || agentId === 'acp:claude-code-acp') return 'claude-code';
  if (agentId === 'acp:codex-acp') return 'codex';
  return agentId;
}

/** The API key variable each agent reads: it gets only its own provider's key (decision 381). */
export function apiKeyEnvFor(agentId: string): { provider: ApiKeyProvider; env: string } | undefined {
  const l = agentLogin(agentId);
  return l ? { provider: l.apiKey.provider, env: l.apiKey.env } : undefined;
}
