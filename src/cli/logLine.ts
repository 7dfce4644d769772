// One line of `rawp serve`'s stderr log. Messages and data carry what peers sent: a frame type
// ("unknown frame type … ignored"), an answer a master gave, a key of its payload. A token holder's
// frame type with an escape sequence reached the operator's terminal as it was (a window title, an
// OSC 52 clipboard write), a newline in it wrote a forged `[error] …` line, and a 1 MB type wrote a
// 1 MB line per frame, a hundred a second. Each part is now shown, not obeyed, and cut.
import { CONTROL_IN_LINE, controlPicture } from './controlPictures';

/** Characters of a message, and of its data as JSON, written at most. */
export const LOG_PART_MAX = 2048;

/**
 * Control characters as their Control Pictures (ESC → ␛, LF → ␊ — newline and tab included: a line
 * is one line —, DEL ␡, C1 U+FFFD), bidi controls and invisible characters by name (`<U+202E>`: a
 * peer's override reordered the operator's log line), cut past LOG_PART_MAX.
 */
export function logPart(text: string): string {
  const cut = text.length > LOG_PART_MAX ? `${text.slice(0, LOG_PART_MAX)}[… ${text.length - LOG_PART_MAX} more characters]` : text;
  return cut.replace(CONTROL_IN_LINE, controlPicture);
}

/** `prefix message {data}` and a newline: one line whatever the message and data hold. */
export function logLine(prefix: string, message: string, data?: Record<string, unknown>): string {
  return `${prefix}${logPart(message)}${data ? ` ${logPart(JSON.stringify(data))}` : ''}\n`;
}
