// The one `agent.error` every adapter reports when its agent has no usable credentials (issue 15
// Why 4, decisions 381 and 440): code AUTH_REQUIRED, recoverable, `details.module` = the agent id
// (the chat's login card reads its login command and API key from that), the CLI's own words in
// `details.trace`. Each adapter detects the state from its CLI's typed signal; this only words it.
import { AUTH_REQUIRED, agentLogin } from '../protocol/agentLogin';
import type { AgentEvent } from '../session/agentAdapter';

/**
 * ACP's `auth_required` JSON-RPC error code (the ACP schema's predefined ErrorCode -32000): what
 * gemini --acp and codex-acp answer `session/new` with, and claude-agent-acp `session/prompt`,
 * when they have no credentials.
 */
export const ACP_AUTH_REQUIRED_CODE = -32000;

/** A JSON-RPC error (as the ACP SDK rejects with it) that says the agent needs a login. */
export function isAcpAuthRequired(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === ACP_AUTH_REQUIRED_CODE;
}

export interface AuthRequiredOptions {
  /** The credentials were there and the API refused them (401), rather than missing. */
  refused?: boolean;
  /** What the CLI said (kept in the details, shown folded in the card). */
  trace?: string;
  /** Extra details (e.g. the HTTP status, the JSON-RPC code). */
  details?: Record<string, unknown>;
}

export function authRequiredError(agentId: string, displayName: string, o: AuthRequiredOptions = {}): AgentEvent {
  const login = agentLogin(agentId);
  const next = login ? ` Log in once in a terminal (${login.loginDisplay}), or set ${/^[AEIOU]/.test(login.apiKey.label) ? 'an' : 'a'} ${login.apiKey.label} API key.` : '';
  const message = o.refused ? `${displayName}’s credentials were refused.${next.replace(' Log in once', ' Log in again')}` : `${displayName} is not logged in.${next}`;
  return {
    type: 'agent.error',
    payload: { error_code: AUTH_REQUIRED, message, severity: 'error', recoverable: true, details: { module: agentId, ...o.details, ...(o.trace ? { trace: o.trace } : {}) } },
  };
}
