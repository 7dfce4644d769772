// How many warnings about an agent's output are shown (decision 716). Each was one warning per
// line with no cap: an agent writing 300,000 unreadable lines gave 300,000 agent.error frames —
// into the transcript, the history ring, the journal, and `rawp run`'s stderr and `errors[]`. Per
// kind, the first WARNINGS_PER_KIND are shown; the rest are only counted, and `drain()` gives the
// counts for one summary each (an adapter drains at the end of every turn, which starts the count
// again, so a later turn shows its own first warnings).

import { cutAt } from '../../protocol/cutText';

/** Text from an agent in a warning is cut to this many UTF-16 units (a 20 MB api_retry error is noise, not news). */
export const WARNING_TEXT_CHARS = 2000;

/** `text` cut to WARNING_TEXT_CHARS, saying how much was left out. */
export function cutWarningText(text: string): string {
  if (text.length <= WARNING_TEXT_CHARS) return text;
  const kept = cutAt(text, WARNING_TEXT_CHARS);
  return `${kept}… (${text.length - kept.length} more characters)`;
}

/** Warnings of one kind shown before the rest are only counted. */
export const WARNINGS_PER_KIND = 20;

/** Kinds are our own words, a handful; past this many, new ones share one count. */
const MAX_KINDS = 32;
const OTHER_KIND = 'other';

export interface HeldWarnings {
  kind: string;
  /** Warnings of this kind counted and not shown since the last drain. */
  held: number;
}

export class WarningBudget {
  private readonly counts = new Map<string, { shown: number; held: number }>();

  constructor(private readonly perKind = WARNINGS_PER_KIND) {}

  /** True when a warning of this kind is to be shown; otherwise it is counted for the summary. */
  admit(kind: string): boolean {
    const key = this.counts.has(kind) || this.counts.size < MAX_KINDS ? kind : OTHER_KIND;
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { shown: 0, held: 0 }));
    if (c.shown < this.perKind) {
      c.shown++;
      return true;
    }
    c.held++;
    return false;
  }

  /** The kinds with warnings held back, and how many; every count starts again from zero. */
  drain(): HeldWarnings[] {
    const held = [...this.counts].filter(([, c]) => c.held > 0).map(([kind, c]) => ({ kind, held: c.held }));
    this.counts.clear();
    return held;
  }
}

/**
 * The kind of a line the reader (jsonLines.ts) or an adapter could not read: its reason up to the
 * first colon, where the reasons put what differs from line to line (a JSON.parse message, which
 * field was wrong). "not JSON: Unexpected token…" and "not JSON: Unterminated string…" are one kind.
 */
export function lineReasonKind(reason: string): string {
  const colon = reason.indexOf(':');
  return (colon < 0 ? reason : reason.slice(0, colon)).slice(0, 100);
}
