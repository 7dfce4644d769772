// Words that come from the host rather than the view, in the view's language: the descriptions of
// the commands the host publishes itself (§12.1.1) and the host's notices (x-rawp.notice `words`).
// The frames stay as they are — every master gets the same list — and the view translates what it
// recognises: a command only when its description is the host's own English word for word (an
// agent's command of the same name keeps its words), a notice by its phrase id, with the host's
// English `message` as the fallback for an id this view does not know.
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import type { NoticeWords } from '../../../src/protocol/rawpExtension';
import { agentReasonIn } from '../../../src/protocol/hostPhrases';
import { en, isMessageId } from './en';
import { locale, t } from './index';

/** The description of a published command in the view's language. */
export function commandDescription(c: { name: string; description: string }): string {
  const id = `command.${c.name}`;
  return isMessageId(id) && en[id] === c.description ? t(id) : c.description;
}

/** A host notice's sentence in the view's language, or undefined when its phrase is not known here. */
export function noticeSentence(words: NoticeWords | undefined): string | undefined {
  if (!words) return undefined;
  const id = `notice.${words.id}`;
  return isMessageId(id) ? t(id, ...(words.args ?? [])) : undefined;
}

/**
 * The text of a host notice in the view's language: its phrase when the view knows it, else the
 * host's English. `/help` lists the published `commands` with their descriptions translated, and
 * how many command files did not load (the same publish's `unloaded`, decision 727): the / menu's
 * last row lists them and why, so /help only points there.
 */
export function hostNoticeText(n: { message: string; words?: NoticeWords }, commands: readonly { name: string; description: string }[] | undefined, unloaded?: PayloadOf<'agent.commands.publish'>['unloaded']): string {
  const sentence = noticeSentence(n.words);
  if (sentence === undefined) return n.message;
  if (n.words?.id !== 'help' || !commands) return sentence;
  const lines = [sentence, ...commands.map((c) => `/${c.name} — ${commandDescription(c)}`)];
  // As the picker counts them (hasUnloaded: total > 0).
  if (unloaded && unloaded.total > 0) lines.push(unloaded.total === 1 ? t('composer.unloadedHelp1') : t('composer.unloadedHelpN', unloaded.total));
  return lines.join('\n');
}

/** The host's own English descriptions of its permission options (src/session/permissions/broker.ts). */
const PERMISSION_DESCRIPTIONS = ['permission.savedRule', 'permission.savedRuleHere', 'permission.tellWhy'] as const;

/**
 * A permission option's description in the view's language when it has one of the host's English
 * shapes exactly ("Saved rule for this workspace: {rule}", "… for every workspace: …", "Optionally tell the agent why", or a rule alone, as
 * "Allow for this session" gives it): the rule is said in the view's language too, its tool, paths
 * and command as the host wrote them. Any other description (an agent's own) passes unchanged.
 */
export function permissionDescription(description: string): string {
  for (const id of PERMISSION_DESCRIPTIONS) {
    const args = templateArgs(en[id], description);
    if (args) return t(id, ...(id === 'permission.tellWhy' ? args : args.map(ruleText)));
  }
  return ruleText(description);
}

/** A tool's name as our tools and MCP servers spell it: a name with spaces is left as written. */
const TOOL_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * What a rule covers (src/tools/permissions/scope.ts), in the view's language: its tool, folder and
 * command as the host wrote them. The Bash shapes take the longest command (their closing words
 * are fixed, the command may hold them). The other shapes start with the tool's name and are read
 * only for a name without spaces: a tool an agent named "Read file on disk" must not read as
 * "Read file" limited to a folder `disk` (the review of decision 654).
 */
function ruleText(rule: string): string {
  for (const id of ['rule.bash_prefix', 'rule.bash_exact', 'rule.bash_only'] as const) {
    const args = templateArgs(en[id], rule);
    if (args) return t(id, ...args);
  }
  for (const id of ['rule.anywhere', 'rule.whole_tool', 'rule.on_path'] as const) {
    const args = templateArgs(en[id], rule, { firstShortest: true });
    if (args && TOOL_NAME.test(args[0])) return t(id, ...args);
  }
  return rule;
}

/**
 * The values of a template's places when `text` is `template` filled in (value `n` for `{n}`), else
 * undefined; each value has at least one character. One or two places: with two, the first in the
 * text takes as much as it can, unless `firstShortest`. Plain string searches, no regular
 * expression: `text` comes from frames, and a backtracking pattern over a long hostile rule takes
 * time quadratic in its length.
 */
function templateArgs(template: string, text: string, o: { firstShortest?: boolean } = {}): string[] | undefined {
  const places = [...template.matchAll(/\{(\d)\}/g)].map((m) => Number(m[1]));
  const parts = template.split(/\{\d\}/);
  if (places.length === 0) return text === template ? [] : undefined;
  if (places.length > 2 || new Set(places).size !== places.length) throw new Error(`templateArgs reads one or two distinct places: ${template}`);
  const head = parts[0];
  const tail = parts[parts.length - 1];
  if (text.length < head.length + tail.length || !text.startsWith(head) || !text.endsWith(tail)) return undefined;
  const middle = text.slice(head.length, text.length - tail.length);
  let values: string[];
  if (places.length === 1) values = [middle];
  else {
    const sep = parts[1];
    const at = o.firstShortest ? middle.indexOf(sep, 1) : middle.lastIndexOf(sep, middle.length - sep.length - 1);
    if (at < 1) return undefined;
    values = [middle.slice(0, at), middle.slice(at + sep.length)];
  }
  if (values.some((v) => v === '')) return undefined;
  const args: string[] = [];
  places.forEach((n, i) => (args[n] = values[i]));
  return args;
}

/** The host's own English names of the agents it ships (src/agents/selection.ts, builtin/agent.ts). */
const AGENT_NAMES = ['agent.builtin', 'agent.openai', 'agent.openaiModel'] as const;

/**
 * An agent's name in the view's language when it is one the host gives its own agents, word for
 * word ("Built-in (offline)", "OpenAI-compatible", "OpenAI-compatible ({model})"); a CLI agent's
 * name ("Claude Code 2.1.197") or a name a person chose passes unchanged (decision 607).
 */
export function agentName(name: string): string {
  for (const id of AGENT_NAMES) {
    const args = templateArgs(en[id], name);
    if (args) return t(id, ...args);
  }
  return name;
}

/**
 * Why an agent cannot run, in the view's language: its phrases (`unavailable_words`, decision 609)
 * when the view knows every one, else the host's English `unavailable_reason` (a newer host's
 * phrase, an ACP command line that did not parse, Restricted Mode in the editor's own words).
 */
export function unavailableReason(a: { unavailable_reason?: string; unavailable_words?: readonly NoticeWords[] }): string | undefined {
  return agentReasonIn(a, locale());
}
