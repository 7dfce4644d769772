// Which option of a permission question rejects it, for an answer in the absent user's name
// (headlessRun.ts): ours is `reject`; other agents' asks say reject / deny / cancel / no.
import type { PayloadOf } from '../protocol/frameTypes';
import { PERMISSION_VALUES } from '../session/permissions';

/** The option that rejects: ours is `reject`; other agents' asks say reject / deny / cancel. */
export function rejectValue(req: PayloadOf<'agent.interaction.request'>): string | undefined {
  const options = req.options ?? [];
  const values = options.map((o) => o.value);
  if (values.includes(PERMISSION_VALUES.reject)) return PERMISSION_VALUES.reject;
  const named = options.find((o) => /^(reject|deny|cancel|no)\b/i.test(o.value) || /^(reject|deny|cancel|no)\b/i.test(o.label));
  return named?.value;
}
