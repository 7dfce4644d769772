// What "allow for this session" and "always allow" cover for one call: Bash by the whole command
// as shown (bashRule.ts), file tools by the directory of the file (`src/**`), other tools as a whole.
import { bashRuleFor, describeBashRule } from './bashRule';
import type { CallShape, RuleScope } from './rules';
import { hostPhrase } from '../../protocol/hostPhrases';

export function suggestScope(call: CallShape): RuleScope {
  if (call.command !== undefined) return { tool_name: call.tool_name, command_prefix: bashRuleFor(call.command) };
  if (call.paths.length > 0) {
    const dirs = new Set(call.paths.map((p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '')));
    const dir = dirs.size === 1 ? [...dirs][0] : '';
    // The directory is a literal: a folder named `a*` must not become a rule for every `a…` folder.
    return { tool_name: call.tool_name, path_glob: dir ? `${dir.replace(/[*?[\]{}()!+@\\]/g, '\\$&')}/**` : '**' };
  }
  return { tool_name: call.tool_name };
}

export function describeScope(scope: RuleScope): string {
  if (scope.command_prefix !== undefined) return describeBashRule(scope.command_prefix);
  if (scope.path_glob === '**') return hostPhrase('rule.anywhere', [scope.tool_name]);
  if (scope.path_glob !== undefined) return hostPhrase('rule.on_path', [scope.tool_name, scope.path_glob]);
  return hostPhrase('rule.whole_tool', [scope.tool_name]);
}
