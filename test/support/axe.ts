// axe-core settings shared by the fixture-page test and the code-server test: the WCAG 2.0-2.2 A
// and AA rules, and what counts as blocking (issue 15: 0 serious or critical violations).
import type { AxeResults } from 'axe-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type Violation = AxeResults['violations'][number];

export function blocking(violations: Violation[]): Violation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per failing node, with the rule, its impact, the node and axe's own summary. */
export function describeViolations(violations: Violation[]): string[] {
  return violations.flatMap((v) => v.nodes.slice(0, 8).map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ').slice(0, 240) ?? v.help}`));
}
