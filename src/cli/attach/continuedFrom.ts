// A session that continues an ended one (decisions 630, 641), as `rawp attach` shows it: the link
// in the session's own capabilities — which chat, how and when it ended, whether the agent was
// asked to go on with it — and the earlier conversation from the session's
// `x-rawp.continued_from.earlier` digest, read only. Each message starts a line with its role; the
// message's own lines are indented deeper, so a line of the agent's text that reads "you: …"
// cannot pass for the person's. Names and texts show bidi and invisible characters by code point.
import { continuedFromOf, type EarlierChat } from '../../protocol/continuation';
import type { HostLanguage } from '../../protocol/hostPhrases';
import type { Transcript } from '../../protocol/transcript/state';
import { visibleName } from '../../protocol/visibleName';
import { attachPhrase } from './attachPhrases';

/** The item's text, or undefined when the session continues nothing. `earlier`: the digest given to it, if one came. */
export function continuedFromText(t: Transcript, earlier: EarlierChat | undefined, lang: HostLanguage = 'en'): string | undefined {
  const from = continuedFromOf(t.capabilities);
  if (!from) return undefined;
  const say = (id: Parameters<typeof attachPhrase>[0], ...args: Array<string | number>) => attachPhrase(id, args, lang);
  const agent = visibleName(from.agent);
  const lines = [say('render.continues', visibleName(from.name), from.reason, minute(from.ended_at)), say(from.resumed ? 'render.resumed' : 'render.afresh', agent)];
  const chat = earlier?.continued_from === from.session_id ? earlier : undefined;
  const total = (from.messages ?? 0) + (from.left_out ?? 0);
  if (!chat) {
    if (total > 0) lines.push(say('render.earlier_missing', total));
    return `${lines.join('\n')}\n`;
  }
  if (chat.earlier.length > 0 || (chat.left_out ?? 0) > 0) lines.push(say('render.earlier'));
  if ((chat.left_out ?? 0) > 0) lines.push(`  ${say('render.earlier_left_out', chat.left_out ?? 0)}`);
  for (const m of chat.earlier) {
    const who = m.role === 'user' ? say('render.earlier_you') : m.role === 'agent' ? agent : say('render.earlier_error');
    const [first, ...rest] = visibleName(m.text, true).split('\n');
    lines.push(`  │ ${who}: ${first}`, ...rest.map((l) => `  │     ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

/** `2026-12-05 14:03 UTC`: the same in every terminal (no local zone to guess). */
function minute(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
