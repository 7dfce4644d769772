// `/cost`'s notice (decision 677), in the host's phrases (English and Korean): prompts and tokens
// so far, and the cost when the agent reports one (the built-in agent and most ACP agents do not:
// "$0.0000" would read as free).
import { phrasedNotice } from '../protocol/hostPhrases';
import type { UsageSummary } from './usageTotals';

const count = (n: number) => n.toLocaleString('en-US');

export function costNotice(summary: UsageSummary | undefined): ReturnType<typeof phrasedNotice> {
  if (!summary) return phrasedNotice('notice.cost_nothing_yet');
  const args = [count(summary.prompts), count(summary.input_tokens), count(summary.output_tokens)];
  const { used, unit } = summary.cost;
  if (!(used > 0)) return phrasedNotice('notice.cost_unreported', args);
  const cost = unit === 'USD' ? `$${used.toFixed(4)}` : `${count(used)} ${unit}`;
  return phrasedNotice('notice.cost', [...args, cost]);
}
