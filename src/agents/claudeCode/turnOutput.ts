// What of Claude Code's output reaches the session, and how much of it as warnings (decision 715).
// Lines the CLI writes when no turn of ours is open (after the turn's `result`) are dropped, with
// one warning: the engine may not have closed that turn yet, and text added to it would follow
// its `done` (TEXT_DELTA_AFTER_DONE) or replace the answer. And the warnings lines cause are
// bounded per kind and turn: a CLI writing two million unreadable lines made two million frames
// (1.2 GB in `rawp run`, the answer lost behind them); past the bound they are only counted, and
// one summary with the count is shown when the turn ends. Used by both Claude Code adapters.
import type { AgentEvent } from '../../session/agentAdapter';
import { WarningBudget } from '../process/warningBudget';

/** How the summary names what was not shown, for the kinds that come in floods. */
const COUNTED: Record<string, string> = {
  UNPARSEABLE_OUTPUT: 'more lines of Claude Code could not be read (not shown one by one)',
  MALFORMED_NATIVE_LINE: 'more lines of Claude Code this client cannot read were skipped (not shown one by one)',
};

export class TurnOutput {
  /** Warnings of each kind (error_code) this turn: the first shown, the rest counted (decision 716's budget). */
  private readonly budget = new WarningBudget();
  private droppedOutside = false;

  /** A turn begins: output is the turn's again, and a new drop outside a turn is told once more. */
  begin(): void {
    this.droppedOutside = false;
  }

  /**
   * The turn ended. After a cancel the CLI may still flush what it was streaming: that is dropped
   * as well, but silently — the user stopped it and expects nothing more.
   */
  end(cancelled: boolean): void {
    if (cancelled) this.droppedOutside = true;
  }

  /**
   * May a warning of this kind be shown? Asked before the warning is built, so a flood of lines
   * costs a count each, not a message each.
   */
  admit(error_code: string): boolean {
    return this.budget.admit(error_code);
  }

  /**
   * What of a translated event to emit. `turnOpen`: a turn of ours is running. Warnings pass
   * (bounded) at any time — they belong to the session, not to a turn; anything else with no turn
   * open is dropped, the first drop since the last turn began told as one warning.
   */
  pass(event: AgentEvent, turnOpen: boolean): AgentEvent[] {
    if (event.type === 'agent.error' && event.payload.severity === 'warning') return this.admit(event.payload.error_code) ? [event] : [];
    if (turnOpen || event.type === 'agent.error') return [event];
    if (this.droppedOutside) return [];
    this.droppedOutside = true;
    if (!this.admit('OUTPUT_OUTSIDE_TURN')) return [];
    return [
      {
        type: 'agent.error',
        payload: {
          error_code: 'OUTPUT_OUTSIDE_TURN',
          message: `Claude Code went on writing (${event.type}) after its turn had ended; that output was dropped until the next prompt`,
          severity: 'warning',
          recoverable: true,
          details: { module: 'claude-code', frame_type: event.type },
        },
      },
    ];
  }

  /** The turn ended: one summary per kind that went over its bound, and the counts start again. */
  summary(): AgentEvent[] {
    return this.budget.drain().map(({ kind: error_code, held: more }) => {
      const what = COUNTED[error_code] ?? `more ${error_code} warnings of Claude Code were not shown`;
      return { type: 'agent.error', payload: { error_code, message: `…and ${more} ${what}`, severity: 'warning', recoverable: true, details: { module: 'claude-code', not_shown: more } } };
    });
  }
}
