// A call that needed approval and ran without a question because a rule allowed it says so on its
// result (decisions 691, 695): `allowed_by_rule` of `tool.invoke.result`, an optional key of ours
// that §2.2 lets receivers ignore. Here, in the session layer, because the rule's verdict is given
// here for every agent (the built-in tools, Claude Code, ACP agents): an adapter names the call in
// its question (`invocation_id`), and the result that closes that call gets the rule. Only a
// verdict of ours puts it there: an adapter's own `allowed_by_rule` is taken out.
import type { PayloadOf } from '../../protocol/frameTypes';
import type { AgentEvent } from '../agentAdapter';
import type { PermissionVerdict } from './broker';
import type { PermissionRule } from './rules';

export type AllowedByRule = NonNullable<PayloadOf<'tool.invoke.result'>['allowed_by_rule']>;

/** Calls waiting for their result at most (an adapter that never reports a result must not grow this). */
const MAX_WAITING = 256;

/** A rule as a result names it: its id, lifetime and scope (what it covers), nothing of who made it. */
export function allowedByRuleOf(rule: PermissionRule): AllowedByRule {
  return {
    rule_id: rule.id,
    lifetime: rule.lifetime,
    tool_name: rule.tool_name,
    ...(rule.path_glob !== undefined ? { path_glob: rule.path_glob } : {}),
    ...(rule.command_prefix !== undefined ? { command_prefix: rule.command_prefix } : {}),
  };
}

export class RuleAllowedCalls {
  private readonly waiting = new Map<string, AllowedByRule>();

  /** The verdict on the call `invocation_id` asked about: a rule's allow is kept for its result. */
  note(invocation_id: string | undefined, verdict: PermissionVerdict): void {
    if (invocation_id === undefined || !verdict.allowed || verdict.via !== 'rule' || verdict.rule === undefined) return;
    if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value!);
    this.waiting.set(invocation_id, allowedByRuleOf(verdict.rule));
  }

  /** `event` as it goes out: a result carries the rule that let its call run unasked, and no other. */
  told(event: AgentEvent): AgentEvent {
    if (event.type !== 'tool.invoke.result') return event;
    const rule = this.waiting.get(event.payload.invocation_id);
    if (rule === undefined && event.payload.allowed_by_rule === undefined) return event;
    this.waiting.delete(event.payload.invocation_id);
    const { allowed_by_rule: _theirs, ...payload } = event.payload;
    return { ...event, payload: rule === undefined ? payload : { ...payload, allowed_by_rule: rule } };
  }
}
