// A session's name as every host keeps it (decision 566). Names come from people and from peers
// (`POST /v1/sessions`, `/rename`, a master's `session.renamed`, the editor's rename box) and are
// shown in the session list, the header, the status bar, `rawp attach` and every master's list, so
// they are one line of visible text: a line break or escape there forged list lines and terminal
// output, and a right-to-left override made "\u202Egnp.exe" read as "exe.png".

import { cutAt } from './cutText';
import { decodePrompt, literalText, type FileReference } from './fileReference';
import { INVISIBLE_CHARACTERS } from './invisibleCharacters';

/** The longest name kept, in UTF-16 units (the create API's own bound). */
export const SESSION_NAME_MAX = 200;

/** Work is bounded before the name is cleaned: a peer's frame may carry megabytes of "name". */
const RAW_MAX = 16 * SESSION_NAME_MAX;

// Bidirectional marks, embeddings, overrides and isolates: they reorder what follows them and have
// no look of their own. Joiners (U+200C, U+200D) stay: scripts and emoji need them.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// C0 and C1 controls, DEL, line and paragraph separators and every run of white space: one space.
const BREAKS = /[\s\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** `raw` as one line of visible text, at most SESSION_NAME_MAX long; '' when nothing visible is left. */
export function cleanSessionName(raw: string): string {
  const text = raw.slice(0, RAW_MAX).replace(BIDI_CONTROLS, '').replace(INVISIBLE_CHARACTERS, '').replace(BREAKS, ' ').trim();
  return text.length <= SESSION_NAME_MAX ? text : cutAt(text, SESSION_NAME_MAX).trimEnd();
}

/** The longest name a prompt gives, before its "…". */
const PROMPT_NAME_MAX = 48;

/**
 * A session's name from its first prompt (decision 651): the text as the person wrote it (file
 * references as their paths), one line, cut at a word near PROMPT_NAME_MAX with "…"; '' when
 * nothing visible is left.
 */
export function nameFromPrompt(prompt: { prompt_text: string; file_references?: readonly FileReference[] }): string {
  const text = cleanSessionName(literalText(decodePrompt(prompt.prompt_text.slice(0, RAW_MAX), prompt.file_references)));
  if (text.length <= PROMPT_NAME_MAX) return text;
  const cut = cutAt(text, PROMPT_NAME_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space >= PROMPT_NAME_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
