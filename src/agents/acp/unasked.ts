// A call an ACP agent ran without asking (gemini's read_file, glob, search…: no
// session/request_permission, no fs/* request either) that the engine's policy forbids — a prompt's
// denied_tools, say. The engine answers its tool.invoke.request with an error result and hides the
// agent's own, which reads as "refused"; but the agent ran it, and ACP gives a client no way to stop
// a call it is not asked about. So the user is told what happened (decision 632). The verdict is
// the engine's (AgentHost.checkTool); this file only says it.
import type { AgentHost } from '../../session/agentAdapter';

export const TOOL_RAN_UNASKED = 'TOOL_RAN_UNASKED';

export function reportUnaskedCall(host: AgentHost, agentName: string, call: { invocation_id: string; tool_name: string; input: Record<string, unknown> }): void {
  const verdict = host.checkTool(call.tool_name, call.input);
  if (verdict.allowed) return;
  host.emit({
    type: 'agent.error',
    payload: {
      error_code: TOOL_RAN_UNASKED,
      message: `${agentName} ran ${call.tool_name} without asking first, so it could not be refused (${verdict.message}): what it returned went to the model, and is not shown here.`,
      severity: 'warning',
      recoverable: true,
      details: { module: 'acp', tool_name: call.tool_name, invocation_id: call.invocation_id },
    },
  });
}
