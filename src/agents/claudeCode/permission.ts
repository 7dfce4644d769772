// §17.3.1 the permission bridge: a `can_use_tool` control request -> the engine's tool policy,
// then the session's one permission policy and rules store (AgentHost.askPermission), then the
// control response Claude Code expects. This file only maps: the call and Claude's
// `permission_suggestions` to our question and rule scope, our verdict to Claude's answer.
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { AgentHost } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';
import type { PermissionVerdict, RuleScope } from '../../session/permissions';
import { summarizeInput } from '../../tools/permissions/gate';
import { describeScope, suggestScope } from '../../tools/permissions/scope';
import type { PermissionAsk } from './permissionAsk';
import { approvePlan } from './planApproval';
import { PermissionSuggestion } from './streamJson';

/** The body of a `can_use_tool` control response. */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string; interrupt?: boolean };

const Suggestions = z.array(PermissionSuggestion.nullable().catch(null));

/** The call as our rules see it: its files, and for Bash its command. */
export function callOf(ask: PermissionAsk): { tool_name: string; paths: string[]; command?: string; cwd?: string; outsideWorkspace?: boolean } {
  const command = typeof ask.input.command === 'string' && ask.tool_name === 'Bash' ? ask.input.command : undefined;
  // affected_paths are workspace-relative inside the workspace (displayPath): an absolute one is
  // outside, and so is one that leads out through a symlink (`escapes`, realLocation.ts).
  const outside = ask.escapes === true || ask.affected_paths.some((p) => isAbsolute(p));
  return { tool_name: ask.tool_name, paths: ask.affected_paths, ...(command !== undefined ? { command } : {}), ...(command !== undefined && ask.cwd ? { cwd: ask.cwd } : {}), ...(outside ? { outsideWorkspace: true } : {}) };
}

/**
 * What "for this session" / "always" covers. Claude's own `addRules` suggestion for this tool
 * becomes our rule (`Bash(npm test:*)` -> the command `npm test`; a path rule -> its glob); else
 * the scope the built-in tools would propose for the same call, so both agents' rules read alike.
 */
export function scopeOf(ask: PermissionAsk): RuleScope {
  for (const s of Suggestions.parse(ask.suggestions)) {
    if (s?.type !== 'addRules' || s.behavior !== 'allow') continue;
    const rule = s.rules.find((r) => r.toolName === ask.tool_name && r.ruleContent);
    if (!rule?.ruleContent) continue;
    if (ask.tool_name === 'Bash') return { tool_name: 'Bash', command_prefix: rule.ruleContent.replace(/:\*$/, '').trim() };
    return { tool_name: ask.tool_name, path_glob: rule.ruleContent.replace(/^\/+/, '') };
  }
  return suggestScope(callOf(ask));
}

/** Our verdict -> what Claude Code is told. */
export function decisionFor(ask: PermissionAsk, verdict: PermissionVerdict): PermissionDecision {
  // This call only, whatever the grant's lifetime. Claude's suggestions for an edit are "setMode
  // acceptEdits", which would let it run every edit and `rm`, `mv`, `cp`, `sed` unasked, past our
  // rule's scope and past a later revoke; its next ask is answered by our rule at once.
  if (verdict.allowed) return { behavior: 'allow', updatedInput: ask.input };
  if (verdict.via === 'timeout') return { behavior: 'deny', message: 'The permission request timed out; the tool was not run.' };
  if (verdict.via === 'cancelled') return { behavior: 'deny', message: 'The turn was cancelled; the tool was not run.', interrupt: true };
  if (verdict.via === 'rule') return { behavior: 'deny', message: `A saved permission rule rejects this ${ask.tool_name} call.` };
  const why = verdict.text_input?.trim();
  return { behavior: 'deny', message: why ? `The user denied this: ${why}` : 'The user denied this tool call.' };
}

/**
 * The engine's verdict on a call (mode, the prompt's tool lists, catalog status; a subagent's call
 * within its spawning call's scope, §15.2): for a permission ask and for the PreToolUse hook alike.
 */
export function engineVerdict(host: AgentHost, tool_name: string, input: Record<string, unknown>, metadata: Metadata | undefined): ReturnType<AgentHost['checkTool']> {
  const parent = metadata?.subagent_context?.parent_invocation_id;
  return host.checkTool(tool_name, input, parent ? { parent_invocation_id: parent } : undefined);
}

/** Ask the engine's mode and whitelist policy first, then the session's permission policy. */
export async function decidePermission(host: AgentHost, ask: PermissionAsk): Promise<PermissionDecision> {
  const check = engineVerdict(host, ask.tool_name, ask.input, ask.metadata);
  if (!check.allowed) return { behavior: 'deny', message: check.message };
  // §9.2: a plan is approved by a YN request, for this plan only (planApproval.ts).
  if (ask.tool_name === 'ExitPlanMode') return approvePlan(host, ask);
  const scope = scopeOf(ask);
  const what = ask.description ?? summarize(ask);
  const verdict = await host.askPermission(
    {
      call: callOf(ask),
      input: summarizeInput(ask.input),
      scope,
      scopeText: describeScope(scope),
      question_text: `Allow ${ask.tool_name}${what ? `: ${what}` : ''}?${ask.decision_reason ? ` (${ask.decision_reason})` : ''}`,
      // Claude's tool_use id is the call's invocation_id: a rule's allow is told on its result.
      ...(ask.tool_use_id ? { invocation_id: ask.tool_use_id } : {}),
    },
    ask.metadata ? { metadata: ask.metadata } : undefined,
  );
  return decisionFor(ask, verdict);
}

function summarize(ask: PermissionAsk): string {
  const cmd = ask.input.command;
  if (typeof cmd === 'string') return cmd.length > 120 ? cmd.slice(0, 117) + '…' : cmd;
  return ask.affected_paths.join(', ');
}
