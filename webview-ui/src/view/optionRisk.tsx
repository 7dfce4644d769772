// §4.3.1 risk on a question's options, in plain words (decision 371). The risk is what allowing
// does: an option that says no — Reject, Deny, No, Always reject — runs nothing, so it carries no
// badge, whatever `risk_level` an agent gave it (ours and Claude Code's mark it "safe", and the
// Reject button said "Low risk: Only reads; changes nothing."; decision 676).
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { t, type MessageId } from '../i18n';

export type Option = NonNullable<PayloadOf<'agent.interaction.request'>['options']>[number];
type Risk = NonNullable<Option['risk_level']>;

/** The plain Reject of a permission: drawn as a secondary button, and it takes the typed reason. */
export function isReject(o: Option): boolean {
  return /^(reject|deny|no)$/i.test(o.value) || /^reject/i.test(o.label);
}

/** Any answer that says no, the lasting ones too (`reject_always`, "Always reject", "Don't allow"). */
export function declines(o: Option): boolean {
  return isReject(o) || /^(always[_-]?)?(reject|deny|decline|disallow|no)([_-].*)?$/i.test(o.value) || /^(always\s+)?(reject|deny|decline|don['’]?t allow|do not allow|no)\b/i.test(o.label);
}

/** The risk an option's badge shows: none for one that says no. */
export function riskOf(o: Option): Risk | undefined {
  return declines(o) ? undefined : o.risk_level;
}

/** The question's badge: the highest risk of what it may allow (moderate or dangerous). */
export function questionRisk(options: readonly Option[]): Risk | undefined {
  const risks = options.map(riskOf);
  return risks.find((r) => r === 'dangerous') ?? risks.find((r) => r === 'moderate');
}

const RISK: Record<Risk, [MessageId, MessageId]> = {
  safe: ['risk.safe', 'risk.safe.why'],
  moderate: ['risk.moderate', 'risk.moderate.why'],
  dangerous: ['risk.dangerous', 'risk.dangerous.why'],
};

/** What the level means in the tooltip. With an `id`, the badge describes the button it sits in
 *  (aria-describedby) and is kept out of its name. */
export function RiskBadge({ level, id }: { level?: Option['risk_level']; id?: string }) {
  return level ? (
    <span id={id} class={`badge risk risk-${level}`} title={t(RISK[level][1])} data-code={level} aria-hidden={id ? 'true' : undefined}>
      {t(RISK[level][0])}
    </span>
  ) : null;
}
