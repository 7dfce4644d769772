// How a Claude Code turn ended, from its `result` line (§6.1.2 stop reasons, §17.2.2 errors): an
// interrupt we asked for is `cancelled` (the CLI reports it as `error_during_execution` without an
// API status); an error result is `error` with one `agent.error` saying why.
import type { AgentEvent, TurnOutcome } from '../../session/agentAdapter';
import { AUTH_REQUIRED } from '../../protocol/agentLogin';
import type { ResultLine } from './streamJson';
import { cutWarningText } from '../process/warningBudget';

export interface TurnEnd {
  stop_reason: TurnOutcome['stop_reason'];
  is_error: boolean;
  /** The result text, or the CLI's error messages joined. */
  message: string;
  error?: AgentEvent;
}

export function turnEnd(line: ResultLine, interruptRequested: boolean, authFailed = false): TurnEnd {
  const status = line.api_error_status ?? undefined;
  const interrupted = interruptRequested || (line.subtype === 'error_during_execution' && status === undefined);
  const is_error = line.is_error === true && !interrupted;
  const message = line.result ?? (line.errors ?? []).filter((e): e is string => typeof e === 'string').join('; ');
  if (interrupted) return { stop_reason: 'cancelled', is_error, message };
  if (!is_error) return { stop_reason: line.stop_reason === 'max_tokens' ? 'max_tokens' : 'end_turn', is_error, message };
  const api: { api_error_status?: number } = status !== undefined ? { api_error_status: status } : {};
  // No credentials (the assistant notice said `authentication_failed`, or the API answered 401).
  if (authFailed || status === 401) {
    const text = status !== 401
      ? 'Claude Code is not logged in. Log in once in a terminal (claude auth login), or set an Anthropic API key.'
      : 'Claude Code’s credentials were refused (401). Log in again in a terminal (claude auth login), or set an Anthropic API key.';
    return { stop_reason: 'error', is_error, message, error: turnError(AUTH_REQUIRED, text, { ...api, ...(message ? { trace: message } : {}) }) };
  }
  const code = status !== undefined ? 'API_ERROR' : line.subtype === 'error_max_turns' ? 'MAX_TURNS' : 'AGENT_ERROR';
  const text = message || `Claude Code ended the turn with ${line.subtype ?? 'an error'}`;
  return { stop_reason: 'error', is_error, message, error: turnError(code, text, { ...api, ...(line.subtype ? { subtype: line.subtype } : {}) }) };
}

/** The one recoverable `agent.error` an error result becomes (§17.2.2). */
function turnError(error_code: string, message: string, details: { api_error_status?: number; trace?: string; subtype?: string }): AgentEvent {
  // The CLI's words, cut: an error text of megabytes is one frame of megabytes (decision 715).
  const cut = details.trace === undefined ? details : { ...details, trace: cutWarningText(details.trace) };
  return { type: 'agent.error', payload: { error_code, message: cutWarningText(message), severity: 'error', recoverable: true, details: { module: 'claude-code', ...cut } } };
}
