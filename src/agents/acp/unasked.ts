// A call an ACP agent ran without asking (gemini's read_file, glob, search…: no
// session/request_permission, no fs/* request either) that the engine's policy forbids — a prompt's
// denied_tools, say. The engine answers its tool.invoke.request with an error result and hides the
// agent's own, which reads as "refused"; but the agent ran it, and ACP gives a client no way to stop
// a call it is not asked about. So the user is told what happened (decision 632). The verdict is
// the engine's (AgentHost.checkTool); this file only says it.
import type { AgentHost } from '../../session/agentAdapter';
import { visibleName } from '../../protocol/visibleName';

export const TOOL_RAN_UNASKED = 'TOOL_RAN_UNASKED';

/** Longest tool name said in the warning: the name is the agent's, and unbounded. */
const MAX_NAME_CHARS = 200;

/** The agent's tool name as the warning says it: its disguising characters shown, cut at 200. */
function said(name: string): string {
  const shown = visibleName(name);
  return shown.length > MAX_NAME_CHARS ? `${shown.slice(0, MAX_NAME_CHARS)}…` : shown;
}

export function reportUnaskedCall(host: AgentHost, agentName: string, call: { invocation_id: string; tool_name: string; input: Record<string, unknown> }): void {
  const verdict = host.checkTool(call.tool_name, call.input);
  if (verdict.allowed) return;
  const name = said(call.tool_name);
  // The engine's message names the tool too (toolPolicy.ts): said the same way.
  const why = verdict.message.split(call.tool_name).join(name);
  host.emit({
    type: 'agent.error',
    payload: {
      error_code: TOOL_RAN_UNASKED,
      message: `${agentName} ran ${name} without asking first, so it could not be refused (${why}): what it returned went to the model, and is not shown here.`,
      severity: 'warning',
      recoverable: true,
      details: { module: 'acp', tool_name: name, invocation_id: call.invocation_id },
    },
  });
}
