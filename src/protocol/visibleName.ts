// A name (a file's path) as the chat shows it: characters that would make it read as another name
// are shown, not obeyed. A right-to-left override makes `invoice\u202Egpj.exe` read
// "invoiceexe.jpg" in the @ picker, the chip and the transcript (the picker trial of 2026-12-05;
// Trojan Source, CVE-2021-42574); a line break in a name split one entry into what looked like two;
// invisible characters make look-alikes. Bidi controls and invisible characters show by their code
// point (`<U+202E>`), control characters as their Control Pictures (a line feed as ␊). The name
// itself, in frames and for opening the file, is never changed.
import { INVISIBLE_CHARACTERS } from './invisibleCharacters';

// eslint-disable-next-line no-control-regex
const CONTROL_OR_BIDI = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function hidden(c: string, lines: boolean): boolean {
  if (lines && (c === '\n' || c === '\t')) return false;
  INVISIBLE_CHARACTERS.lastIndex = 0;
  return CONTROL_OR_BIDI.test(c) || INVISIBLE_CHARACTERS.test(c);
}

function shown(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `name` with every such character made visible; the same string when it has none. `lines`: text
 * that may span lines (a command): line feeds and tabs stay.
 */
export function visibleName(name: string, lines = false): string {
  return visibleNameMap(name, lines).text;
}

/**
 * The visible form and where each position of `name` went in it (`at[i]`, for i in 0…length), so
 * highlight ranges over the name map onto what is shown.
 */
export function visibleNameMap(name: string, lines = false): { text: string; at: (i: number) => number } {
  let out = '';
  let changed = false;
  const offsets: number[] = [];
  for (let i = 0; i < name.length; i++) {
    offsets.push(out.length);
    const c = name[i];
    if (hidden(c, lines)) {
      out += shown(c);
      changed = true;
    } else out += c;
  }
  offsets.push(out.length);
  return changed ? { text: out, at: (i) => offsets[Math.max(0, Math.min(i, name.length))] } : { text: name, at: (i) => i };
}
