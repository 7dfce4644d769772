// §17.3.1 the permission bridge: a `can_use_tool` control request -> the engine's tool policy,
// then an `agent.interaction.request` PERMISSION, then the control response Claude Code expects.
import type { AgentHost, InteractionAnswer } from '../../session/agentAdapter';
import type { PayloadOf } from '../../protocol/frameTypes';
import type { PermissionAsk } from './translate';

/** The body of a `can_use_tool` control response. */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput: Record<string, unknown>; updatedPermissions?: unknown[] }
  | { behavior: 'deny'; message: string; interrupt?: boolean };

const RISK: Record<string, 'safe' | 'moderate' | 'dangerous'> = {
  Bash: 'dangerous',
  Write: 'moderate',
  Edit: 'moderate',
  MultiEdit: 'moderate',
  NotebookEdit: 'moderate',
};

export function permissionRequest(ask: PermissionAsk, interaction_id: string, timeout_sec: number): PayloadOf<'agent.interaction.request'> {
  const what = ask.description ?? summarize(ask);
  const options: NonNullable<PayloadOf<'agent.interaction.request'>['options']> = [{ value: 'allow', label: 'Allow', risk_level: RISK[ask.tool_name] ?? 'moderate' }];
  if (ask.suggestions.length > 0) {
    // Claude's own "don't ask again" suggestion (e.g. accept edits for the session).
    options.push({ value: 'allow_session', label: 'Allow for this session', description: suggestionText(ask.suggestions), risk_level: 'dangerous' });
  }
  options.push({ value: 'deny', label: 'Deny', risk_level: 'safe' });
  return {
    interaction_id,
    interaction_type: 'PERMISSION',
    question_text: `Allow ${ask.tool_name}${what ? `: ${what}` : ''}?${ask.decision_reason ? ` (${ask.decision_reason})` : ''}`,
    timeout_sec,
    options,
    context: { tool_name: ask.tool_name, tool_input: ask.input, affected_paths: ask.affected_paths },
    default_value: 'deny',
  };
}

/** The user's answer -> what Claude Code is told. Anything but an allow is a deny (§17.3.1). */
export function decisionFor(ask: PermissionAsk, answer: InteractionAnswer): PermissionDecision {
  if (answer.kind === 'timeout') return { behavior: 'deny', message: 'The permission request timed out; the tool was not run.' };
  if (answer.kind === 'cancelled') return { behavior: 'deny', message: 'The turn was cancelled; the tool was not run.', interrupt: true };
  const v = Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value;
  if (v === 'allow') return { behavior: 'allow', updatedInput: ask.input };
  if (v === 'allow_session') return { behavior: 'allow', updatedInput: ask.input, updatedPermissions: ask.suggestions };
  const why = answer.text_input?.trim();
  return { behavior: 'deny', message: why ? `The user denied this: ${why}` : 'The user denied this tool call.' };
}

/** Ask the engine's policy first, then the user. */
export async function decidePermission(host: AgentHost, ask: PermissionAsk, interaction_id: string, timeout_sec: number): Promise<PermissionDecision> {
  const parent = ask.metadata?.subagent_context?.parent_invocation_id;
  const verdict = host.checkTool(ask.tool_name, ask.input, parent ? { parent_invocation_id: parent } : undefined);
  if (!verdict.allowed) return { behavior: 'deny', message: verdict.message };
  const answer = await host.requestInteraction(permissionRequest(ask, interaction_id, timeout_sec), ask.metadata ? { metadata: ask.metadata } : undefined);
  const decision = decisionFor(ask, answer);
  // An approved ExitPlanMode makes Claude leave plan mode on its own: the engine must follow.
  if (ask.tool_name === 'ExitPlanMode' && decision.behavior === 'allow') host.reportMode?.('default');
  return decision;
}

function summarize(ask: PermissionAsk): string {
  const cmd = ask.input.command;
  if (typeof cmd === 'string') return cmd.length > 120 ? cmd.slice(0, 117) + '…' : cmd;
  return ask.affected_paths.join(', ');
}

function suggestionText(suggestions: unknown[]): string {
  const modes = suggestions
    .map((s) => (typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'setMode' ? String((s as { mode?: unknown }).mode) : undefined))
    .filter(Boolean);
  return modes.length ? `switches Claude Code to ${modes.join(', ')} for this session` : 'adds the suggested permission rules for this session';
}
