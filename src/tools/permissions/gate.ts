// The permission gate (§4.3, §17.3.1): decides whether a call may run, asking the user through
// AgentHost.requestInteraction (a PERMISSION interaction) when no grant or rule covers it.
// Options: allow once / allow for this session / always allow (a persisted rule) / reject (the
// answer's text_input goes back to the agent). A timeout rejects; a discarded prompt cancels.
import { randomUUID } from 'node:crypto';
import type { AgentHost } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import type { PayloadOf } from '../../protocol/frameTypes';
import { describeScope, suggestScope } from './scope';
import { riskOf } from './risk';
import { PermissionRuleStore, ruleMatches, type CallShape, type RuleScope } from './rules';

export type PermissionDecision =
  | { allowed: true; via: 'not_required' | 'session' | 'rule' | 'once' | 'always' }
  | { allowed: false; status: 'error' | 'cancelled'; code: 'PERMISSION_REJECTED' | 'PERMISSION_TIMEOUT' | 'PERMISSION_CANCELLED'; message: string };

export const PERMISSION_VALUES = { once: 'allow_once', session: 'allow_session', always: 'allow_always', reject: 'reject' } as const;

export interface PermissionRequestInput {
  host: AgentHost;
  /** Whose session grants apply. */
  session: string;
  call: CallShape;
  /** The tool's input, summarized for the prompt. */
  input: Record<string, unknown>;
  requiresApproval: boolean;
  outsideWorkspace: boolean;
  /** Frame metadata of the ask, e.g. a subagent's `subagent_context` (§10.2). */
  metadata?: Metadata;
}

function summarize(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[k] = typeof v === 'string' && v.length > 2000 ? `${v.slice(0, 2000)}… (${v.length} characters)` : v;
  return out;
}

export class PermissionGate {
  private readonly sessionGrants = new Map<string, RuleScope[]>();

  constructor(
    readonly rules: PermissionRuleStore,
    private readonly timeoutSec: number = 300,
  ) {}

  /** Session grants, for display. */
  grantsOf(session: string): RuleScope[] {
    return [...(this.sessionGrants.get(session) ?? [])];
  }

  forgetSession(session: string): void {
    this.sessionGrants.delete(session);
  }

  async authorize(req: PermissionRequestInput): Promise<PermissionDecision> {
    const { call } = req;
    // Outside the workspace every call asks, whatever grants exist (and cannot be granted for good).
    if (!req.outsideWorkspace) {
      if (!req.requiresApproval) return { allowed: true, via: 'not_required' };
      if ((this.sessionGrants.get(req.session) ?? []).some((g) => ruleMatches(g, call))) return { allowed: true, via: 'session' };
      if (this.rules.find(call)) return { allowed: true, via: 'rule' };
    }
    const scope = suggestScope(call);
    const risk = riskOf(call, req.outsideWorkspace);
    const target = call.command !== undefined ? `\`${call.command}\`` : call.paths.join(', ') || '(no path)';
    const options: NonNullable<PayloadOf<'agent.interaction.request'>['options']> = [{ value: PERMISSION_VALUES.once, label: 'Allow once', risk_level: risk }];
    if (!req.outsideWorkspace) {
      options.push(
        { value: PERMISSION_VALUES.session, label: 'Allow for this session', description: describeScope(scope), risk_level: risk },
        { value: PERMISSION_VALUES.always, label: 'Always allow', description: `Saved rule: ${describeScope(scope)}`, risk_level: risk },
      );
    }
    options.push({ value: PERMISSION_VALUES.reject, label: 'Reject', description: 'Optionally tell the agent why', risk_level: 'safe' });
    const answer = await req.host.requestInteraction({
      interaction_id: randomUUID(),
      interaction_type: 'PERMISSION',
      question_text: `${req.outsideWorkspace ? 'OUTSIDE THE WORKSPACE: ' : ''}Allow ${call.tool_name} ${target}?`,
      timeout_sec: this.timeoutSec,
      options,
      context: { tool_name: call.tool_name, tool_input: summarize(req.input), affected_paths: call.paths },
      default_value: PERMISSION_VALUES.reject,
    }, req.metadata ? { metadata: req.metadata } : undefined);
    if (answer.kind === 'timeout') return { allowed: false, status: 'error', code: 'PERMISSION_TIMEOUT', message: `permission request timed out after ${this.timeoutSec} s; treated as rejected (§17.3.1)` };
    // A default taken on timeout is still a timeout for a permission (§17.3.1: a timeout rejects).
    if (answer.kind === 'response' && answer.by_default) return { allowed: false, status: 'error', code: 'PERMISSION_TIMEOUT', message: `permission request timed out after ${this.timeoutSec} s; treated as rejected (§17.3.1)` };
    if (answer.kind === 'cancelled') return { allowed: false, status: 'cancelled', code: 'PERMISSION_CANCELLED', message: 'permission request was cancelled' };
    const value = Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value;
    switch (value) {
      case PERMISSION_VALUES.once:
        return { allowed: true, via: 'once' };
      case PERMISSION_VALUES.session:
        if (req.outsideWorkspace) return { allowed: true, via: 'once' };
        this.sessionGrants.set(req.session, [...(this.sessionGrants.get(req.session) ?? []), scope]);
        return { allowed: true, via: 'session' };
      case PERMISSION_VALUES.always:
        if (req.outsideWorkspace) return { allowed: true, via: 'once' };
        this.rules.add(scope);
        return { allowed: true, via: 'always' };
      default: {
        const why = answer.text_input?.trim();
        return { allowed: false, status: 'error', code: 'PERMISSION_REJECTED', message: `the user rejected this ${call.tool_name} call${why ? `: ${why}` : ''}` };
      }
    }
  }
}
