// Asking for a permission, once for every agent (issue 11 item 4, §4.3.1, §17.3.1): check the
// rules store, else ask the masters a PERMISSION interaction with the policy's risk, timeout and
// default, then record a "for this session" / "always" answer as a rule. Adapters turn their
// native ask into a `PermissionQuestion` and the `PermissionVerdict` back into the native answer.
import type { Metadata } from '../../protocol/envelope';
import type { PayloadOf } from '../../protocol/frameTypes';
import type { InteractionAnswer } from '../agentAdapter';
import { standardPermissionPolicy, type PermissionCall, type PermissionPolicy } from './policy';
import { PermissionRules, type PermissionRule, type RuleScope } from './rules';

/** The option values of every PERMISSION interaction we ask. */
export const PERMISSION_VALUES = { once: 'allow_once', session: 'allow_session', always: 'allow_always', reject: 'reject', rejectAlways: 'reject_always' } as const;

export interface PermissionQuestion {
  call: PermissionCall;
  /** The call's input as shown to the user (`context.tool_input`; the caller trims long values). */
  input: Record<string, unknown>;
  /** What "for this session" / "always" would cover, and how to say it. */
  scope: RuleScope;
  scopeText: string;
  /** Longer answers this agent can honour (default: session and always; never outside the workspace). */
  offer?: { session?: boolean; always?: boolean; rejectAlways?: boolean };
  /** The question; default "Allow <tool> <command or paths>?". */
  question_text?: string;
  /** The call asked about, when the agent names it: a rule's allow is then told on its result (ruleAllowedCalls.ts). */
  invocation_id?: string;
}

export type PermissionVerdict =
  | { allowed: true; lifetime: 'once' | 'session' | 'always'; via: 'user' | 'rule'; rule?: PermissionRule }
  | { allowed: false; lifetime: 'once' | 'always'; via: 'user' | 'rule' | 'timeout' | 'cancelled'; message: string; text_input?: string; rule?: PermissionRule };

/** What the broker needs from the session asking. */
export interface AskContext {
  session_id: string;
  /** The agent asking (`created_by` of the rules it makes). */
  agent_id: string;
  requestInteraction(request: PayloadOf<'agent.interaction.request'>, options?: { metadata?: Metadata }): Promise<InteractionAnswer>;
  newId(): string;
  metadata?: Metadata;
}

export class PermissionBroker {
  constructor(
    readonly policy: PermissionPolicy = standardPermissionPolicy(),
    readonly rules: PermissionRules = new PermissionRules(),
  ) {}

  async ask(q: PermissionQuestion, ctx: AskContext): Promise<PermissionVerdict> {
    const { call } = q;
    const outside = call.outsideWorkspace === true;
    // Outside the workspace every call asks, whatever rules exist, and is granted once at most.
    if (!outside) {
      const rule = this.rules.find(call, ctx.session_id);
      if (rule?.decision === 'allow') return { allowed: true, lifetime: rule.lifetime, via: 'rule', rule };
      if (rule) return { allowed: false, lifetime: 'always', via: 'rule', rule, message: `a saved rule rejects ${call.tool_name} here (${q.scopeText})` };
    }
    const terms = this.policy.terms(call);
    // A rule of no command (an empty Bash call) would match nothing: no longer answer to offer.
    const offer = outside || q.scope.command_prefix === '' ? {} : { session: q.offer?.session ?? true, always: q.offer?.always ?? true, rejectAlways: q.offer?.rejectAlways ?? false };
    const target = call.command !== undefined ? `\`${call.command}\`` : call.paths.join(', ') || '(no path)';
    const options: NonNullable<PayloadOf<'agent.interaction.request'>['options']> = [{ value: PERMISSION_VALUES.once, label: 'Allow once', risk_level: terms.risk_level }];
    if (offer.session) options.push({ value: PERMISSION_VALUES.session, label: 'Allow for this session', description: q.scopeText, risk_level: terms.risk_level });
    // Where a saved rule will hold: this workspace, or every one when the host names none (decision 708).
    const saved = `Saved rule for ${this.rules.savesFor() === undefined ? 'every' : 'this'} workspace: ${q.scopeText}`;
    if (offer.always) options.push({ value: PERMISSION_VALUES.always, label: 'Always allow', description: saved, risk_level: terms.risk_level });
    options.push({ value: PERMISSION_VALUES.reject, label: 'Reject', description: 'Optionally tell the agent why', risk_level: 'safe' });
    if (offer.rejectAlways) options.push({ value: PERMISSION_VALUES.rejectAlways, label: 'Always reject', description: saved, risk_level: 'safe' });
    const answer = await ctx.requestInteraction(
      {
        interaction_id: ctx.newId(),
        interaction_type: 'PERMISSION',
        question_text: `${outside ? 'OUTSIDE THE WORKSPACE: ' : ''}${q.question_text ?? `Allow ${call.tool_name} ${target}?`}`,
        timeout_sec: terms.timeout_sec,
        options,
        context: { tool_name: call.tool_name, tool_input: q.input, affected_paths: call.paths },
        default_value: PERMISSION_VALUES.reject,
      },
      ctx.metadata ? { metadata: ctx.metadata } : undefined,
    );
    // A default taken on timeout is still a timeout for a permission (§17.3.1: a timeout rejects).
    if (answer.kind === 'timeout' || (answer.kind === 'response' && answer.by_default)) {
      return { allowed: false, lifetime: 'once', via: 'timeout', message: `permission request timed out after ${terms.timeout_sec} s; treated as rejected (§17.3.1)` };
    }
    if (answer.kind === 'cancelled') return { allowed: false, lifetime: 'once', via: 'cancelled', message: 'permission request was cancelled' };
    const value = Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value;
    const record = (decision: 'allow' | 'reject', lifetime: 'session' | 'always') => this.rules.add(q.scope, { decision, lifetime, session_id: ctx.session_id, created_by: ctx.agent_id });
    if (value === PERMISSION_VALUES.once) return { allowed: true, lifetime: 'once', via: 'user' };
    if (value === PERMISSION_VALUES.session && offer.session) return { allowed: true, lifetime: 'session', via: 'user', rule: record('allow', 'session') };
    if (value === PERMISSION_VALUES.always && offer.always) return { allowed: true, lifetime: 'always', via: 'user', rule: record('allow', 'always') };
    const why = answer.text_input?.trim();
    // With a reason, the reason speaks (a person's "use the other file", or a headless run's "nobody
    // can answer"): "the user rejected … : rejected: rawp run is headless" invented a user (the CLI trial).
    const message = why ? `this ${call.tool_name} call was rejected: ${why}` : `the user rejected this ${call.tool_name} call`;
    if (value === PERMISSION_VALUES.rejectAlways && offer.rejectAlways) return { allowed: false, lifetime: 'always', via: 'user', message, rule: record('reject', 'always'), ...(why ? { text_input: why } : {}) };
    return { allowed: false, lifetime: 'once', via: 'user', message, ...(why ? { text_input: why } : {}) };
  }
}
