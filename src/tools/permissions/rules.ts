// What a permission rule matches, for the built-in tools and every agent: one tool, on paths
// matching a glob (workspace-relative, picomatch) or, for Bash, the command as shown (bashRule.ts).
// The rules themselves live in the session layer's one store (src/session/permissions/rules.ts),
// which hosts give this matcher.
import { isAbsolute } from 'node:path';
import picomatch from 'picomatch';
import { bashRuleMatches } from './bashRule';
import { resolvesOutside } from '../../workspace/realLocation';
import type { CallShape, RuleScope } from '../../session/permissions';

export type { CallShape, RuleScope } from '../../session/permissions';

/**
 * `roots`: the host's workspace folders (real paths; Bash runs in the first unless the call says
 * its folder, `call.cwd`): a word a Bash rule lets a reading command take more of must lie inside
 * them once symlinks are followed, taken from the folder the command runs in (decision 735).
 */
export function ruleMatches(rule: RuleScope, call: CallShape, roots: readonly string[] = []): boolean {
  if (rule.tool_name !== call.tool_name) return false;
  if (rule.command_prefix !== undefined) {
    if (call.command === undefined) return false;
    if (roots.length === 0) return bashRuleMatches(rule.command_prefix, call.command);
    const from = call.cwd !== undefined && isAbsolute(call.cwd) ? call.cwd : roots[0];
    // A rule is granted for commands in this workspace: a shell that moved out of it is asked.
    if (resolvesOutside(from, roots)) return false;
    // Compound commands always ask; extra words never add destruction (issue 12 finding 8).
    return bashRuleMatches(rule.command_prefix, call.command, (word) => !resolvesOutside(word, roots, from));
  }
  if (rule.path_glob !== undefined) {
    if (call.paths.length === 0) return false;
    const isMatch = picomatch(rule.path_glob, { dot: true });
    return call.paths.every((p) => isMatch(p));
  }
  return true;
}
