// A call an ACP agent ran without asking (gemini's read_file, glob, search…: no
// session/request_permission, no fs/* request either) that the engine's policy forbids — a prompt's
// denied_tools, say. The engine answers its tool.invoke.request with an error result and hides the
// agent's own, which reads as "refused"; but the agent ran it, and ACP gives a client no way to stop
// a call it is not asked about. So the user is told what happened (decision 632). The verdict is
// the engine's (AgentHost.checkTool); this file only says it. Bounded per turn (decision 725): the
// first WARNINGS_PER_KIND of a turn are said, the rest counted and summed up as the turn ends.
import type { AgentEvent, AgentHost } from '../../session/agentAdapter';
import { visibleName } from '../../protocol/visibleName';
import { WarningBudget, WARNINGS_PER_KIND } from '../process/warningBudget';

export const TOOL_RAN_UNASKED = 'TOOL_RAN_UNASKED';

/** Longest tool name said in the warning: the name is the agent's, and unbounded. */
const MAX_NAME_CHARS = 200;

/** The agent's tool name as the warning says it: its disguising characters shown, cut at 200. */
function said(name: string): string {
  const shown = visibleName(name);
  return shown.length > MAX_NAME_CHARS ? `${shown.slice(0, MAX_NAME_CHARS)}…` : shown;
}

/** One turn's TOOL_RAN_UNASKED warnings (the translator's, drained as the turn ends). */
export class UnaskedWarnings {
  private readonly budget = new WarningBudget();
  private last: { agentName: string; name: string } | undefined;

  /** True when this forbidden call is said; otherwise it is counted for the summary. */
  admit(agentName: string, call: { tool_name: string }): boolean {
    if (this.budget.admit(TOOL_RAN_UNASKED)) return true;
    this.last = { agentName, name: call.tool_name };
    return false;
  }

  /** The summary of the calls not said since the last drain, if any; the count starts again. */
  drain(): AgentEvent[] {
    const last = this.last;
    this.last = undefined;
    return this.budget.drain().flatMap(({ held }) => {
      if (!last) return [];
      const message = `${last.agentName} ran ${held} more tool${held === 1 ? '' : 's'} without asking first in this turn that the engine would have refused (only the first ${WARNINGS_PER_KIND} are said); the last: ${said(last.name)}.`;
      return [warning(message, { not_shown: held })];
    });
  }
}

function warning(message: string, details: Record<string, unknown>): AgentEvent {
  return { type: 'agent.error', payload: { error_code: TOOL_RAN_UNASKED, message, severity: 'warning', recoverable: true, details: { module: 'acp', ...details } } };
}

/**
 * Say that the agent ran a call the engine forbids. `call.warnings`: the turn's bound (the
 * translator's); over it the call is only counted.
 */
export function reportUnaskedCall(host: AgentHost, agentName: string, call: { invocation_id: string; tool_name: string; input: Record<string, unknown>; warnings?: UnaskedWarnings }): void {
  const verdict = host.checkTool(call.tool_name, call.input);
  if (verdict.allowed) return;
  // Counted before its words are made: a flood costs a count each.
  if (call.warnings && !call.warnings.admit(agentName, call)) return;
  const name = said(call.tool_name);
  // The engine's message names the tool too (toolPolicy.ts): said the same way.
  const why = verdict.message.split(call.tool_name).join(name);
  host.emit(warning(`${agentName} ran ${name} without asking first, so it could not be refused (${why}): what it returned went to the model, and is not shown here.`, { tool_name: name, invocation_id: call.invocation_id }));
}
