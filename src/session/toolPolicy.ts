// The one place that decides whether a tool call may run (§15.1 whitelist, §5.4.1 status and
// fatal diagnostics, §6.3.2 mode gating, the prompt's allowed/denied tools, §15.2 subagent scope).
// Adapters ask through AgentHost.checkTool; the engine applies the same verdict to every
// tool.invoke.request it sees, so an adapter that forgets to ask still cannot run a blocked tool
// unnoticed.
import type { AgentModeName } from '../protocol/common';
import type { CatalogDiagnostic, CatalogTool } from './agentAdapter';
import { MODE_BLOCKED_MESSAGE, modeAllows } from '../protocol/modePolicy';

export type ToolVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** What the agent is told, and the `output` of the error tool result. */
      message: string;
      code: 'TOOL_NOT_IN_CATALOG' | 'TOOL_UNAVAILABLE' | 'TOOL_FATAL_DIAGNOSTIC' | 'TOOL_NOT_ALLOWED_IN_MODE' | 'TOOL_DENIED' | 'SUBAGENT_SCOPE';
      /** §5.4.1: blocked catalog tools are also reported with a `session.error`. */
      sessionError: boolean;
    };

export interface ToolPolicyInput {
  tools: readonly CatalogTool[];
  diagnostics: readonly CatalogDiagnostic[];
  mode: AgentModeName;
  /** From the prompt's config_overrides. */
  allowed_tools?: readonly string[];
  denied_tools?: readonly string[];
  /** Tools the calling subagent may use (its `allowed_tools`, already within its parent's scope). */
  scope?: readonly string[];
}

export function checkTool(policy: ToolPolicyInput, tool_name: string, input: Record<string, unknown>): ToolVerdict {
  const entry = policy.tools.find((t) => t.name === tool_name);
  if (!entry) {
    return { allowed: false, code: 'TOOL_NOT_IN_CATALOG', sessionError: true, message: `Tool ${tool_name} is not in the published tool catalog (§15.1)` };
  }
  if (entry.status === 'unavailable') {
    const why = entry.status_description ? `: ${entry.status_description}` : '';
    return { allowed: false, code: 'TOOL_UNAVAILABLE', sessionError: true, message: `Tool ${tool_name} is unavailable${why}` };
  }
  const fatal = policy.diagnostics.find((d) => d.severity === 'fatal' && d.tool_name === tool_name);
  if (fatal) {
    return { allowed: false, code: 'TOOL_FATAL_DIAGNOSTIC', sessionError: true, message: `Tool ${tool_name} is blocked: ${fatal.code}: ${fatal.message}` };
  }
  if (!modeAllows(policy.mode, entry.category, tool_name)) {
    return { allowed: false, code: 'TOOL_NOT_ALLOWED_IN_MODE', sessionError: false, message: MODE_BLOCKED_MESSAGE };
  }
  if (policy.denied_tools?.includes(tool_name) || (policy.allowed_tools && !policy.allowed_tools.includes(tool_name))) {
    return { allowed: false, code: 'TOOL_DENIED', sessionError: false, message: `Tool ${tool_name} is not allowed for this prompt` };
  }
  if (policy.scope && !policy.scope.includes(tool_name)) {
    return { allowed: false, code: 'SUBAGENT_SCOPE', sessionError: false, message: `Tool ${tool_name} is outside this subagent's allowed_tools (§15.2)` };
  }
  // §15.2: a subagent may not be given tools beyond the caller's own reach.
  const requested = subagentAllowedTools(input);
  if (requested) {
    const reach = new Set(toolsInReach(policy));
    const beyond = requested.filter((t) => !reach.has(t));
    if (beyond.length > 0) {
      return { allowed: false, code: 'SUBAGENT_SCOPE', sessionError: false, message: `allowed_tools exceeds the parent's tools (§15.2): ${beyond.join(', ')}` };
    }
  }
  return { allowed: true };
}

/** The tools a caller may use: available catalog tools, minus denials, within its own scope. */
export function toolsInReach(policy: ToolPolicyInput): string[] {
  return policy.tools
    .filter((t) => t.status !== 'unavailable')
    .map((t) => t.name)
    .filter((n) => !policy.diagnostics.some((d) => d.severity === 'fatal' && d.tool_name === n))
    .filter((n) => !policy.denied_tools?.includes(n))
    .filter((n) => !policy.allowed_tools || policy.allowed_tools.includes(n))
    .filter((n) => !policy.scope || policy.scope.includes(n));
}

/** `input.allowed_tools` of a subagent-spawning call (§10.1), if it is a list of names. */
export function subagentAllowedTools(input: Record<string, unknown>): string[] | undefined {
  const v = input.allowed_tools;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}
