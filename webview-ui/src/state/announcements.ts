// What a screen reader is told about the conversation, and when (issue 15 "Accessible"; decision
// 390). The transcript itself is not a live region: a streamed answer would be read token by token
// (or, with virtualized rows, not at all). Instead, from each new state of the transcript:
// - an answer of the main agent, once, when it completes (agent.text.done), politely;
// - a new question or permission request, at once (assertive): the agent waits for it;
// - a turn's end, politely, with its stop reason.
// A session's history (everything present at its first non-empty state) is not announced, except a
// question still waiting for an answer.
import { t } from '../i18n';
import { codeSentence, hasSentence, idFor } from '../i18n/codes';
import { questionText } from '../i18n/questions';
import type { Block, InteractionBlock, Transcript, Turn } from '../../../src/protocol/transcript';
import type { Notice } from './store';

export interface Announcement {
  politeness: 'polite' | 'assertive';
  text: string;
}

/** Longest answer text read out; the rest stays in the conversation. */
export const MAX_SPOKEN_CHARS = 300;

/** The strings read out (one place, for the localisation layer). */
export const SPOKEN = {
  answer: (text: string) => t('spoken.answer', text),
  get more() {
    return t('spoken.more');
  },
  /** The question as a sentence: its own end mark kept ("Allow Edit a.ts?"), a full stop added only
   *  when it has none (never "a.ts?."). */
  permission: (question: string) => t('spoken.permission', /[.?!…。？！]$/.test(question.trim()) ? question.trim() : `${question.trim()}.`),
  question: (question: string) => t('spoken.question', question),
  get turnDone() {
    return t('spoken.turnDone');
  },
  turnStopped: (reason: string) => t('spoken.turnStopped', t(idFor('stop.', reason, 'stop.unknown'))),
};

const EMPHASIS = /(^|[^\w*])(\*{1,3})(?=[^\s*])([^\n]*?[^\s*])\2(?![\w*])/gm;

/**
 * Markdown as it is heard: its markup goes, the words stay. Only markup is taken out — backticks,
 * `*`/`**`/`***` around words, a heading's `#`s and a quote's `>` at the start of a line — so an
 * error code (FS_EDIT_NOT_FOUND), a parameter (old_string), a file name (my_file.py) or a product
 * (a*b) is read as written, not run together (decision 605).
 */
export function spokenMarkdown(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' (code) ')
    .replace(/<@file:[^|>]+\|([^>]*)>/g, '$1')
    .replace(/`+/g, '')
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*#{1,6}(?=[ \t]|$)/gm, '')
    // A pair of markers hugging its words, not inside a word: "**FS_STALE**" -> "FS_STALE", never
    // "a*b*c"; twice, for emphasis inside emphasis.
    .replace(EMPHASIS, '$1$3')
    .replace(EMPHASIS, '$1$3')
    .replace(/\s+/g, ' ')
    .trim();
}

function spokenText(text: string): string {
  const plain = spokenMarkdown(text);
  return plain.length > MAX_SPOKEN_CHARS ? plain.slice(0, MAX_SPOKEN_CHARS).trimEnd() + SPOKEN.more : plain;
}

/** The question as the card shows it (our broker's permission questions in the reader's language). */
function interactionText(b: InteractionBlock): string {
  const question = questionText(b);
  return b.request.interaction_type === 'PERMISSION' ? SPOKEN.permission(question) : SPOKEN.question(question);
}

export class Announcer {
  private transcript?: Transcript;
  private seeded = false;
  /** Keys of what was already announced (or was history). Bounded: cleared per session. */
  private readonly said = new Set<string>();
  /** Turns whose end was seen: nothing in them can be announced any more (their questions are
   *  retired, their text done), so a long session costs one look per turn, not per block. */
  private ended = new WeakSet<Turn>();

  /** The announcements that the step to this transcript state makes. */
  next(t: Transcript): Announcement[] {
    // A new session (or a reload of one) is a new transcript object.
    if (t !== this.transcript) {
      this.transcript = t;
      this.seeded = false;
      this.said.clear();
      this.ended = new WeakSet();
    }
    if (t.timeline.length === 0) return [];
    const history = !this.seeded;
    this.seeded = true;
    const out: Announcement[] = [];
    const once = (key: string, a: Announcement | undefined, evenInHistory = false) => {
      if (this.said.has(key)) return;
      this.said.add(key);
      if (a && (!history || evenInHistory)) out.push(a);
    };
    for (const entry of t.timeline) {
      // A turn reopened by unfinalization (§7.8.3) is looked at again.
      if (entry.kind !== 'turn' || (this.ended.has(entry) && !entry.open)) continue;
      for (const b of entry.blocks) this.block(b, once);
      if (!entry.open) {
        once(`${entry.key}:end`, turnEnd(entry));
        this.ended.add(entry);
      }
    }
    return out;
  }

  private block(b: Block, once: (key: string, a: Announcement | undefined, evenInHistory?: boolean) => void): void {
    if (b.kind === 'text' && b.depth === 0 && b.done && !b.cancelled && b.text.trim().length > 0) {
      once(b.key, { politeness: 'polite', text: SPOKEN.answer(spokenText(b.text)) });
    } else if (b.kind === 'interaction' && b.status === 'pending') {
      once(b.key, { politeness: 'assertive', text: interactionText(b) }, true);
    }
  }
}

function turnEnd(turn: Turn): Announcement | undefined {
  if (turn.synthetic) return undefined;
  const reason = turn.stopReason;
  return { politeness: 'polite', text: reason === undefined || reason === 'end_turn' ? SPOKEN.turnDone : SPOKEN.turnStopped(reason) };
}

/**
 * A notice's words as its banner shows them and the live region says them: with an error code, the
 * refusal's sentence in the reader's language (the host's words when the view has none for the
 * code) and the host's own words after it; without one, the host's words alone.
 */
export function noticeParts(n: Notice): { sentence?: string; detail: string } {
  if (!n.code) return { detail: n.message };
  return hasSentence(n.code) ? { sentence: codeSentence(n.code), detail: n.message } : { sentence: n.message || codeSentence(n.code), detail: '' };
}

/** noticeParts as one line of text. */
export function noticeText(n: Notice): string {
  const { sentence, detail } = noticeParts(n);
  return sentence === undefined ? detail : detail ? `${sentence} ${detail}` : sentence;
}

/**
 * The notices newer than `seen` (their ids grow) that the polite region says: a reply for this
 * master (/help, /rename), "copied", a warning. Their banners appear with the text already inside,
 * which screen readers often do not read (decision 605); an error's banner is role=alert, which
 * they do read, so it is not said twice — unless newer notices pushed it out before it was drawn
 * (not among `shown`): then no alert ever fired, and it is said here (decision 657).
 */
export function noticeAnnouncements(notices: readonly Notice[], seen: number, shown: readonly Notice[] = notices): { news: Announcement[]; seen: number } {
  const news: Announcement[] = [];
  let last = seen;
  for (const n of notices) {
    if (n.id <= seen) continue;
    last = Math.max(last, n.id);
    if (n.level !== 'error' || !shown.some((s) => s.id === n.id)) news.push({ politeness: 'polite', text: noticeText(n).replace(/\s+/g, ' ').trim() });
  }
  return { news, seen: last };
}
