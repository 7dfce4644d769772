// Text from peers, agents and files shown on a terminal instead of obeyed: the terminal must not
// take escape sequences (OSC 52 clipboard writes, titles, clearing, CR overwrites) from it. C0
// control characters become their Control Pictures (ESC → ␛), DEL ␡, C1 (8-bit CSI and friends)
// U+FFFD, and bidi controls and invisible characters their code point by name (`<U+202E>`). One
// mapping for `rawp attach` and `rawp run` (showControls) and `rawp serve`'s log (logLine.ts),
// which differ only in whether tab and line feed pass.
import { INVISIBLE_CHARACTER_RANGES } from '../protocol/invisibleCharacters';

/** The picture of one control character (C0, DEL or C1), or the name of a bidi control or invisible character. */
export function controlPicture(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0xa0) return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): in a terminal that lays
 * out right-to-left text they reorder what follows, so a file name or a line could read as another
 * (Trojan Source, CVE-2021-42574). Invisible characters (protocol/invisibleCharacters.ts: a
 * zero-width space, a byte order mark, Hangul fillers …) make `a\u200Bb.txt` read as `ab.txt` in a
 * line the operator approves or trusts. The joiners U+200C/U+200D and the direction marks
 * U+200E/U+200F/U+061C pass: scripts and emoji need them, and alone they reorder nothing.
 */
const SHOWN_BY_NAME = `\\u202a-\\u202e\\u2066-\\u2069${INVISIBLE_CHARACTER_RANGES}`;

/** Every character shown instead of obeyed by `showControls`: all controls but tab and line feed. */
// eslint-disable-next-line no-control-regex
const CONTROL = new RegExp(`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${SHOWN_BY_NAME}]`, 'g');
/** The same with tab and line feed too (a log line is one line). */
// eslint-disable-next-line no-control-regex
export const CONTROL_IN_LINE = new RegExp(`[\\x00-\\x1f\\x7f-\\x9f${SHOWN_BY_NAME}]`, 'g');

/** Control characters other than tab and line feed, bidi controls and invisible characters: shown, not obeyed. */
export function showControls(text: string): string {
  return text.replace(CONTROL, controlPicture);
}
