// §9.2 plan approval for Claude Code: its ExitPlanMode arrives as a tool permission
// (`can_use_tool`), and was asked as one — a PERMISSION card with "Allow for this session" and
// "Always allow", so one click could approve every later plan without a look. The spec asks for a
// YN request after the plan (SHOULD), as the built-in agent does: "Approve this plan?" Yes / No,
// answered for this plan only; the plan itself was shown just before as a plan document
// (toolCalls.ts, §9.1). Decision 639.
import { randomUUID } from 'node:crypto';
import { hostPhrase } from '../../protocol/hostPhrases';
import type { AgentHost } from '../../session/agentAdapter';
import type { PermissionDecision } from './permission';
import type { PermissionAsk } from './permissionAsk';

/** As long as the built-in agent's plan question waits (src/agents/builtin/agent.ts). */
const PLAN_TIMEOUT_SEC = 300;

export async function approvePlan(host: AgentHost, ask: PermissionAsk): Promise<PermissionDecision> {
  const answer = await host.requestInteraction(
    {
      interaction_id: randomUUID(),
      interaction_type: 'YN',
      // The host's phrases (hostPhrases.ts): every reader says them in its person's language.
      question_text: hostPhrase('plan.question'),
      timeout_sec: PLAN_TIMEOUT_SEC,
      options: [
        { value: 'yes', label: hostPhrase('plan.approve'), risk_level: 'moderate' },
        { value: 'no', label: hostPhrase('plan.keep'), risk_level: 'safe' },
      ],
      default_value: 'no',
      context: { tool_name: ask.tool_name },
    },
    ask.metadata ? { metadata: ask.metadata } : undefined,
  );
  if (answer.kind === 'cancelled') return { behavior: 'deny', message: 'The turn was cancelled; the plan was not approved.', interrupt: true };
  if (answer.kind === 'timeout' || (answer.kind === 'response' && answer.by_default)) return { behavior: 'deny', message: 'Nobody approved the plan in time; stay in plan mode.' };
  const value = Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value;
  if (value === 'yes') {
    // Approved: Claude leaves plan mode on its own; the engine follows (§6.3.2).
    host.reportMode?.('default');
    return { behavior: 'allow', updatedInput: ask.input };
  }
  const why = answer.text_input?.trim();
  return { behavior: 'deny', message: why ? `The user did not approve the plan: ${why}` : 'The user did not approve the plan; keep planning and ask again.' };
}
