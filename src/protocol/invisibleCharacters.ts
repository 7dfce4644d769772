// Characters with no look of their own that are not needed to write any language: a zero-width
// space, word joiners, a soft hyphen, the byte order mark, the Mongolian vowel separator, the
// combining grapheme joiner, and the Hangul fillers (which render as blank space). In a name shown
// to other people they make look-alikes (`a\u200Bb.txt` shows as `ab.txt`) or a blank name.
// Joiners U+200C and U+200D are not here: Persian, Indic scripts and emoji sequences need them.
// Bidirectional controls are another matter (they reorder text) and are handled where names are.
/** The inside of their character class, for a caller that adds them to its own (cli/controlPictures.ts). */
export const INVISIBLE_CHARACTER_RANGES = '\\u00AD\\u034F\\u115F\\u1160\\u180E\\u200B\\u2060-\\u2064\\u3164\\uFEFF\\uFFA0';
export const INVISIBLE_CHARACTERS = new RegExp(`[${INVISIBLE_CHARACTER_RANGES}]`, 'g');

/** Does `text` hold one of them? */
export function hasInvisibleCharacter(text: string): boolean {
  INVISIBLE_CHARACTERS.lastIndex = 0;
  return INVISIBLE_CHARACTERS.test(text);
}
