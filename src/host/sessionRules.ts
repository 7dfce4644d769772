// What the session host needs from the host's permission rules store (issue 11 item 4 owns the
// store) so a session's "for this session" answers survive a restart with it: read them, give
// them back, hear when they change. A store adapts to this in a few lines (its session rules are
// exactly these fields); the journal keeps them in the session index (docs/decisions/126).
import type { SessionRuleRecord } from './journal/format';

export type { SessionRuleRecord };

export interface SessionRulesPort {
  /** The rules that belong to this session now (lifetime "session"). */
  of(session_id: string): SessionRuleRecord[];
  /** A restored session gets its rules back before anyone can prompt it. */
  restore(session_id: string, rules: readonly SessionRuleRecord[]): void;
  onChange(listener: () => void): { dispose(): void };
}
