// Text from peers, agents and files shown on a terminal instead of obeyed: the terminal must not
// take escape sequences (OSC 52 clipboard writes, titles, clearing, CR overwrites) from it. C0
// control characters become their Control Pictures (ESC → ␛), DEL ␡, C1 (8-bit CSI and friends)
// U+FFFD. One mapping for `rawp attach` and `rawp run` (showControls) and `rawp serve`'s log
// (logLine.ts), which differ only in what they let through.

/** The picture of one control character (C0, DEL or C1; a bidi control by its name). */
export function controlPicture(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0x202a) return `<U+${code.toString(16).toUpperCase()}>`;
  return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * Control characters other than tab and line feed, shown instead of obeyed. Bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) are shown by name, `<U+202E>`: in a
 * terminal that lays out right-to-left text they reorder what follows, so a file name or a line
 * could read as another (Trojan Source, CVE-2021-42574).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
export function showControls(text: string): string {
  return text.replace(CONTROL, controlPicture);
}
