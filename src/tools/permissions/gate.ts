// The permission gate of the built-in and OpenAI-compatible tools (§4.3, §17.3.1): a call that
// needs approval goes to the session's one permission policy and rules store
// (AgentHost.askPermission, src/session/permissions), proposing what "for this session" and
// "always" would cover (scope.ts). The gate only decides whether asking is needed and maps the
// verdict to the tool's refusal codes. A timeout rejects; a discarded prompt cancels.
import type { AgentHost } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import type { PayloadOf } from '../../protocol/frameTypes';
import { PERMISSION_VALUES, type CallShape, type PermissionRule } from '../../session/permissions';
import { describeScope, suggestScope } from './scope';

export { PERMISSION_VALUES };

/** The saved rule that let a call run unasked, as its result carries it (decision 691). */
export type AllowedByRule = PayloadOf<'tool.invoke.result'>['allowed_by_rule'] & {};

export type PermissionDecision =
  | { allowed: true; via: 'not_required' | 'session' | 'rule' | 'once' | 'always'; rule?: AllowedByRule }
  | { allowed: false; status: 'error' | 'cancelled'; code: 'PERMISSION_REJECTED' | 'PERMISSION_TIMEOUT' | 'PERMISSION_CANCELLED'; message: string };

export interface PermissionRequestInput {
  host: AgentHost;
  call: CallShape;
  /** The tool's input, summarized for the prompt. */
  input: Record<string, unknown>;
  requiresApproval: boolean;
  outsideWorkspace: boolean;
  /** Frame metadata of the ask, e.g. a subagent's `subagent_context` (§10.2). */
  metadata?: Metadata;
}

/** The tool input as shown in the prompt: long strings cut (a Write's content can be megabytes). */
export function summarizeInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[k] = typeof v === 'string' && v.length > 2000 ? `${v.slice(0, 2000)}… (${v.length} characters)` : v;
  return out;
}

export class PermissionGate {
  async authorize(req: PermissionRequestInput): Promise<PermissionDecision> {
    // Inside the workspace a tool that needs no approval runs; outside it every call asks.
    if (!req.outsideWorkspace && !req.requiresApproval) return { allowed: true, via: 'not_required' };
    const scope = suggestScope(req.call);
    const verdict = await req.host.askPermission(
      { call: { ...req.call, outsideWorkspace: req.outsideWorkspace }, input: summarizeInput(req.input), scope, scopeText: describeScope(scope) },
      req.metadata ? { metadata: req.metadata } : undefined,
    );
    if (verdict.allowed && verdict.via === 'rule') return { allowed: true, via: verdict.lifetime === 'session' ? 'session' : 'rule', ...(verdict.rule ? { rule: ruleOf(verdict.rule) } : {}) };
    if (verdict.allowed) return { allowed: true, via: verdict.lifetime };
    if (verdict.via === 'timeout') return { allowed: false, status: 'error', code: 'PERMISSION_TIMEOUT', message: verdict.message };
    if (verdict.via === 'cancelled') return { allowed: false, status: 'cancelled', code: 'PERMISSION_CANCELLED', message: verdict.message };
    return { allowed: false, status: 'error', code: 'PERMISSION_REJECTED', message: verdict.message };
  }
}

/** A rule as a result names it: its id, lifetime and scope (what it covers), nothing of who made it. */
function ruleOf(rule: PermissionRule): AllowedByRule {
  return {
    rule_id: rule.id,
    lifetime: rule.lifetime === 'session' ? 'session' : 'always',
    tool_name: rule.tool_name,
    ...(rule.path_glob !== undefined ? { path_glob: rule.path_glob } : {}),
    ...(rule.command_prefix !== undefined ? { command_prefix: rule.command_prefix } : {}),
  };
}
