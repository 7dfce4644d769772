// What the Claude Code translator hands its caller: frame content for the engine (`event`), and
// what only the caller can act on — the session's init (catalog), the initialize response
// (commands), permission asks, control traffic, the turn's end, and lines that did not fit.
import type { AgentEvent, CatalogTool, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import type { PermissionAsk } from './permissionAsk';
import { cutWarningText } from '../process/warningBudget';

export interface ClaudeInit {
  agent_session_id: string;
  model?: string;
  toolNames: string[];
  tools: CatalogTool[];
  slash_commands: string[];
  permissionMode?: string;
  version?: string;
}

export type ClaudeItem =
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'init'; init: ClaudeInit }
  | { kind: 'commands'; commands: CommandEntry[] }
  | { kind: 'control_response'; request_id: string; ok: boolean; response: Record<string, unknown>; error?: string }
  | { kind: 'control_request'; request_id: string; subtype: string }
  /**
   * A line of a known type that does not fit its schema: reported, skipped (never fatal). `kept`:
   * not skipped but read without the fields named in `detail` (a `result`, decision 715).
   */
  | { kind: 'malformed'; type: string; detail: string; kept?: boolean }
  | { kind: 'permission'; ask: PermissionAsk }
  /** Our PreToolUse hook: may this call run at all (mode, tool lists)? Answered before Claude runs it. */
  | { kind: 'pre_tool'; request_id: string; tool_name: string; input: Record<string, unknown>; metadata?: Metadata }
  | { kind: 'control_cancel'; request_id: string }
  /** `model_turns`: model calls in the turn (0 for a local command such as a failed /compact). */
  | { kind: 'result'; outcome: TurnOutcome; is_error: boolean; message: string; model_turns: number };

/** Frame content for the engine, with the line's metadata (a subagent's context, §10.2) when it has any. */
export function pushEvent(out: ClaudeItem[], event: AgentEvent, metadata?: Metadata): void {
  out.push({ kind: 'event', event: metadata ? { ...event, metadata } : event });
}

/**
 * A malformed line as the user sees it: one recoverable warning (the session goes on; decision
 * 140). Used by both Claude Code adapters.
 */
export function malformedLineWarning(item: Extract<ClaudeItem, { kind: 'malformed' }>): AgentEvent {
  return {
    type: 'agent.error',
    payload: {
      error_code: 'MALFORMED_NATIVE_LINE',
      message: item.kept
        ? `Claude Code wrote a ${item.type} line this client cannot fully read (${cutWarningText(item.detail)}); it was read without those fields`
        : `Claude Code wrote a ${item.type} line this client cannot read (${cutWarningText(item.detail)}); it was skipped`,
      severity: 'warning',
      recoverable: true,
      details: { module: 'claude-code', line_type: item.type },
    },
  };
}
