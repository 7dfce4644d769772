// ACP `session/request_permission` <-> DPS PERMISSION interactions (§4.3.1, §17.3.1). The agent's
// options keep their ids as values, so the answer maps back without guessing; the option kind sets
// the risk shown to the user. A timeout or a missing answer rejects (§17.3.1: timeout = deny).
import { newId } from '../../protocol/build';
import type { PayloadOf } from '../../protocol/frameTypes';
import type { InteractionAnswer } from '../../session/agentAdapter';

export interface AcpPermissionOption {
  optionId: string;
  name: string;
  kind: string;
}

export type AcpPermissionOutcome = { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string };

const RISK: Record<string, 'safe' | 'moderate' | 'dangerous'> = {
  allow_once: 'moderate',
  allow_always: 'dangerous',
  reject_once: 'safe',
  reject_always: 'safe',
};

const KIND_HINT: Record<string, string> = {
  allow_once: 'Allow this call only',
  allow_always: 'Allow this and later calls like it',
  reject_once: 'Refuse this call',
  reject_always: 'Refuse this and later calls like it',
};

export function rejectOption(options: readonly AcpPermissionOption[]): AcpPermissionOption | undefined {
  return options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
}

export interface PermissionAsk {
  tool_name: string;
  title: string | undefined;
  input: Record<string, unknown>;
  paths: string[];
  options: readonly AcpPermissionOption[];
  timeout_sec: number;
}

export function permissionRequest(ask: PermissionAsk): PayloadOf<'agent.interaction.request'> {
  const reject = rejectOption(ask.options);
  return {
    interaction_id: newId(),
    interaction_type: 'PERMISSION',
    question_text: `Allow ${ask.tool_name}${ask.title ? `: ${ask.title}` : ''}?`,
    timeout_sec: ask.timeout_sec,
    options: ask.options.map((o) => ({ value: o.optionId, label: o.name, description: KIND_HINT[o.kind] ?? o.kind, ...(RISK[o.kind] ? { risk_level: RISK[o.kind] } : {}) })),
    context: { tool_name: ask.tool_name, tool_input: ask.input, ...(ask.paths.length ? { affected_paths: ask.paths } : {}) },
    ...(reject ? { default_value: reject.optionId } : {}),
  };
}

/** The ACP outcome for the user's answer. Unknown values and timeouts reject; a discarded ask cancels. */
export function permissionOutcome(answer: InteractionAnswer, options: readonly AcpPermissionOption[]): AcpPermissionOutcome {
  if (answer.kind === 'cancelled') return { outcome: 'cancelled' };
  const reject = rejectOption(options);
  if (answer.kind === 'timeout') return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
  const value = Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value;
  const chosen = options.find((o) => o.optionId === value);
  if (chosen) return { outcome: 'selected', optionId: chosen.optionId };
  return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
}

/** Did the outcome allow the call? (for tests and logs) */
export function isAllowed(outcome: AcpPermissionOutcome, options: readonly AcpPermissionOption[]): boolean {
  if (outcome.outcome !== 'selected') return false;
  const kind = options.find((o) => o.optionId === outcome.optionId)?.kind;
  return kind === 'allow_once' || kind === 'allow_always';
}
