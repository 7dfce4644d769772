// The permission gate of the built-in and OpenAI-compatible tools (§4.3, §17.3.1): a call that
// needs approval goes to the session's one permission policy and rules store
// (AgentHost.askPermission, src/session/permissions), proposing what "for this session" and
// "always" would cover (scope.ts). The gate only decides whether asking is needed and maps the
// verdict to the tool's refusal codes. A timeout rejects; a discarded prompt cancels.
import type { AgentHost } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import { PERMISSION_VALUES, type CallShape } from '../../session/permissions';
import { describeScope, suggestScope } from './scope';

export { PERMISSION_VALUES };

export type PermissionDecision =
  | { allowed: true; via: 'not_required' | 'session' | 'rule' | 'once' | 'always' }
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
  /** The call's invocation: a rule's allow is told on its result (session/permissions/ruleAllowedCalls.ts). */
  invocation_id?: string;
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
      { call: { ...req.call, outsideWorkspace: req.outsideWorkspace }, input: summarizeInput(req.input), scope, scopeText: describeScope(scope), ...(req.invocation_id ? { invocation_id: req.invocation_id } : {}) },
      req.metadata ? { metadata: req.metadata } : undefined,
    );
    if (verdict.allowed) return { allowed: true, via: verdict.via === 'rule' ? (verdict.lifetime === 'session' ? 'session' : 'rule') : verdict.lifetime };
    if (verdict.via === 'timeout') return { allowed: false, status: 'error', code: 'PERMISSION_TIMEOUT', message: verdict.message };
    if (verdict.via === 'cancelled') return { allowed: false, status: 'cancelled', code: 'PERMISSION_CANCELLED', message: verdict.message };
    return { allowed: false, status: 'error', code: 'PERMISSION_REJECTED', message: verdict.message };
  }
}
