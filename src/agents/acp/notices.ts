// ACP `notice` updates as agent.error frames (ACP_NOTICE), bounded (decision 719). Each notice was
// one frame with its words whole: an agent sending millions made millions of frames — in the chat,
// in every attached master's history and in the journal — and a 1 MB notice was a 1 MB frame. Per
// severity (a kind for warnings, one for errors), the first WARNINGS_PER_KIND since the last drain
// are shown, their words cut (cutWarningText, 2,000 characters and how many more); the rest are
// only counted, and `drain` gives one summary per kind that went over, ending with the words of the
// last one held back (cut as well). The translator drains when a turn ends, and when one begins:
// notices between turns have their own budget, summarised as the next turn begins, so a flood
// while idle never crowds a turn's own notices out.
import type { AgentEvent } from '../../session/agentAdapter';
import { cutWarningText, WarningBudget, WARNINGS_PER_KIND } from '../process/warningBudget';

export const NOTICE_CODE = 'ACP_NOTICE';

type Severity = 'warning' | 'error';

export interface AcpNotice {
  severity?: string;
  title?: string | null;
  description?: string | null;
}

export class NoticeBudget {
  private readonly budget = new WarningBudget();
  /** The last notice of each kind held back: its words end the summary (the last often says why it stopped). */
  private readonly last = new Map<Severity, AcpNotice>();

  /** The frame for one notice, or undefined when its kind is over the bound (then it is only counted). */
  notice(u: AcpNotice): AgentEvent | undefined {
    const severity: Severity = u.severity === 'error' ? 'error' : 'warning';
    // Counted before its words are looked at: a flood costs a count each, not a message each.
    if (this.budget.admit(severity)) return frame(severity, wordsOf(u));
    this.last.set(severity, u);
    return undefined;
  }

  /**
   * One summary per kind with notices held back since the last drain, and the counts start again.
   * `between`: they came while no turn was running (said as the next turn begins).
   */
  drain(between: boolean): AgentEvent[] {
    const summaries = this.budget.drain().map(({ kind, held }) => {
      const severity: Severity = kind === 'error' ? 'error' : 'warning';
      const what = `${held} more ${severity} notice${held === 1 ? '' : 's'} ${between ? 'before this turn' : 'in this turn'}`;
      const last = this.last.get(severity);
      const tail = last ? `; the last: ${wordsOf(last)}` : '';
      return frame(severity, `The agent sent ${what}, not shown (only the first ${WARNINGS_PER_KIND} of each kind are shown)${tail}`, held);
    });
    this.last.clear();
    return summaries;
  }
}

/** A notice's title and description, cut to WARNING_TEXT_CHARS saying how much was left out. */
function wordsOf(u: AcpNotice): string {
  const message = [u.title, u.description].filter((s) => typeof s === 'string' && s).join(': ');
  return message ? cutWarningText(message) : 'notice from the agent';
}

function frame(severity: Severity, message: string, notShown?: number): AgentEvent {
  return { type: 'agent.error', payload: { error_code: NOTICE_CODE, message, severity, recoverable: true, details: { module: 'acp', ...(notShown !== undefined ? { not_shown: notShown } : {}) } } };
}
