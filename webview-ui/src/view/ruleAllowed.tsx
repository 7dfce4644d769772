// Decision 691: a call that needed approval and ran without a question, because a saved rule (or
// one made for this session) allowed it. Its card says so and names the rule, so "Done" on a file
// write is never the only word: the reader sees what ran (the card's name, path and diff) and why.
import type { ToolResult } from '../../../src/protocol/transcript';
import { t } from '../i18n';
import { visibleName } from '../../../src/protocol/visibleName';

type Rule = NonNullable<ToolResult['allowedByRule']>;

/** What the rule covers, in the words of the rules panel (a path glob, a command, the whole tool). */
export function ruleScopeWords(rule: Rule): string {
  // Shown, not obeyed: a bidi override in a glob or a command must not reorder the sentence.
  if (rule.path_glob !== undefined) return t('tool.rule.onPath', rule.tool_name, visibleName(rule.path_glob));
  if (rule.command_prefix !== undefined) return t('tool.rule.command', rule.tool_name, visibleName(rule.command_prefix, true));
  return t('tool.rule.everyCall', rule.tool_name);
}

export function RuleAllowedNote({ rule, id }: { rule: Rule; id: string }) {
  return (
    <div class="tool-rule-note" id={id} data-rule-id={rule.rule_id} data-lifetime={rule.lifetime}>
      <span class="codicon codicon-shield" aria-hidden="true" /> {t(rule.lifetime === 'session' ? 'tool.rule.session' : 'tool.rule.always', ruleScopeWords(rule))}
    </div>
  );
}
