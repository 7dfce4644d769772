// The command files the host found but could not load (`agent.commands.publish`'s `unloaded`,
// decision 721), said on a terminal by `rawp attach` and `rawp run` (decision 727): a user who
// typed `/mycmd` whose file did not load got no word of why. One line: "2 command files could not
// be loaded: .claude/commands/a.md: its frontmatter is not valid YAML (…); …". The paths and
// reasons are the host's (a master's host may be anyone's): each is shown, not obeyed — every
// control character, line feed and tab included, as a picture (one line stays one line) — and
// cut, and at most UNLOADED_LISTED_MAX are listed, then "and N more". The reason is the frame's
// English `message`, shown as sent, as attach shows every text a frame carries.
import type { PayloadOf } from '../../protocol/frameTypes';
import type { HostLanguage } from '../../protocol/hostPhrases';
import { UNLOADED_LISTED_MAX } from '../../protocol/payloads/agent';
import { cutAt, lastUnits } from '../../protocol/cutText';
import { CONTROL_IN_LINE, controlPicture } from '../controlPictures';
import { attachPhrase } from './attachPhrases';

export type Unloaded = NonNullable<PayloadOf<'agent.commands.publish'>['unloaded']>;

/** Characters of a shown path (its end kept: the file's name) and of a reason; ours send ≤ 300 of each. */
export const UNLOADED_SHOWN_PATH_MAX = 300;
export const UNLOADED_SHOWN_MESSAGE_MAX = 400;

/** How many files the list says did not load (a hostile `total` below the list's length is not believed). */
function countOf(u: Unloaded): number {
  return Math.max(u.total, u.files.length);
}

/** `text` on one line, its controls as pictures, then cut to `max` (its end kept when `keepEnd`). */
function inLine(text: string, max: number, keepEnd = false): string {
  const shown = text.replace(CONTROL_IN_LINE, controlPicture);
  if (shown.length <= max) return shown;
  return keepEnd ? `…${lastUnits(shown, max - 1)}` : `${cutAt(shown, max - 1)}…`;
}

/** The one line that says which files did not load and why, in `lang` (English by default); undefined when all loaded. */
export function unloadedText(u: Unloaded | undefined, lang?: HostLanguage): string | undefined {
  if (!u || countOf(u) === 0) return undefined;
  const count = countOf(u);
  const listed = u.files.slice(0, UNLOADED_LISTED_MAX).map((f) => {
    const why = inLine(f.message, UNLOADED_SHOWN_MESSAGE_MAX);
    return f.path !== undefined ? `${inLine(f.path, UNLOADED_SHOWN_PATH_MAX, true)}: ${why}` : why;
  });
  const sentence = count === 1 ? attachPhrase('notice.unloaded_one', [], lang) : attachPhrase('notice.unloaded_many', [count], lang);
  // A count with no list (a host that sent none) is the sentence alone.
  if (listed.length === 0) return sentence;
  if (count > listed.length) listed.push(attachPhrase('notice.unloaded_more', [count - listed.length], lang));
  return `${sentence}: ${listed.join('; ')}`;
}

/**
 * Each distinct list once: the same list published again (a reattach's opening, a refresh of the
 * other commands, the engine's start list after the opening's) is not news. A publish without
 * the list (all fixed) forgets it, so files that break again are said again.
 */
export class UnloadedNews {
  private seen?: Unloaded;
  private said = '';

  /** The line to print for the list now published, or undefined when there is nothing new to say. */
  next(u: Unloaded | undefined, lang?: HostLanguage): string | undefined {
    // The transcript keeps the published object until the next publish: the same object is no news.
    if (u !== undefined && u === this.seen) return undefined;
    this.seen = u;
    const text = unloadedText(u, lang) ?? '';
    if (text === this.said) return undefined;
    this.said = text;
    return text || undefined;
  }
}
