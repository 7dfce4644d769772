// Words that come from the host rather than the view, in the view's language: the descriptions of
// the commands the host publishes itself (§12.1.1) and the host's notices (x-rawp.notice `words`).
// The frames stay as they are — every master gets the same list — and the view translates what it
// recognises: a command only when its description is the host's own English word for word (an
// agent's command of the same name keeps its words), a notice by its phrase id, with the host's
// English `message` as the fallback for an id this view does not know.
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
 * host's English. `/help` lists the published `commands` with their descriptions translated.
 */
export function hostNoticeText(n: { message: string; words?: NoticeWords }, commands: readonly { name: string; description: string }[] | undefined): string {
  const sentence = noticeSentence(n.words);
  if (sentence === undefined) return n.message;
  if (n.words?.id !== 'help' || !commands) return sentence;
  return [sentence, ...commands.map((c) => `/${c.name} — ${commandDescription(c)}`)].join('\n');
}

/** The host's own English descriptions of its permission options (src/session/permissions/broker.ts). */
const PERMISSION_DESCRIPTIONS = ['permission.savedRule', 'permission.tellWhy'] as const;

/**
 * A permission option's description in the view's language when it has one of the host's English
 * shapes exactly ("Saved rule: {rule}", "Optionally tell the agent why"): the rule inside stays as
 * the host wrote it. Any other description (an agent's own, the bare rule) passes unchanged.
 */
export function permissionDescription(description: string): string {
  for (const id of PERMISSION_DESCRIPTIONS) {
    const args = templateArgs(en[id], description);
    if (args) return t(id, ...args);
  }
  return description;
}

/** The values of `{0}`, `{1}`… when `text` is `template` filled in, else undefined. */
function templateArgs(template: string, text: string): string[] | undefined {
  const pattern = template
    .split(/\{\d+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([\\s\\S]+)');
  const m = new RegExp(`^${pattern}$`).exec(text);
  return m ? m.slice(1) : undefined;
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
