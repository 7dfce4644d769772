// Literal edit matching, as the backend's critical section runs it (read-before-write.md):
// line endings are normalized for matching (CRLF -> LF; the backend writes the file's own style
// back; a file of mixed endings is edited in its own text instead, keepLineEndings.ts, decision
// 704), `old_string` must match exactly once unless `replace_all`, and edits apply in order on the
// working copy so a MultiEdit fails as a whole. Beyond the reference implementation: when an exact
// match fails, we retry with typographic characters folded (smart quotes, dashes, non-breaking
// spaces) and report that we did.
import { FsError } from '../../workspace/fsBackend';
import { mixedLineEndingsDominant } from '../../workspace/lineEndings';
import { spliceKeepingEndings } from './keepLineEndings';

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface NormalizedMatch {
  /** Index of the edit in the request. */
  edit_index: number;
  /** Characters the file had where the edit expected plain ones, e.g. ["’", "—"]. */
  folded: string[];
}

export interface AppliedEdits {
  /**
   * The new text, with LF line endings; for a file of mixed endings, the file's own text with only
   * the matched regions replaced (decision 704), which the backend writes as it is.
   */
  text: string;
  replacements: number;
  /** Edits that only matched after Unicode folding. */
  unicode_normalized: NormalizedMatch[];
}

// One character to one character, so offsets in the folded text are offsets in the original.
const FOLD: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00A0': ' ', '\u2002': ' ', '\u2003': ' ', '\u2007': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ',
};
const FOLD_RE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

export function foldTypography(s: string): string {
  return s.replace(FOLD_RE, (c) => FOLD[c]);
}

export function toLf(s: string): string {
  return s.includes('\r\n') ? s.replace(/\r\n/g, '\n') : s;
}

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** Applies `edits` in order to `current`; throws FsError FS_EDIT_NOT_FOUND / FS_AMBIGUOUS_EDIT. */
export function applyEdits(current: string, edits: readonly EditSpec[], displayPath: string): AppliedEdits {
  // Mixed endings: the working copy is the file's own text, matched through its LF form (decision 704).
  const keep = mixedLineEndingsDominant(current);
  let native = current;
  let text = toLf(current);
  let replacements = 0;
  const unicode_normalized: NormalizedMatch[] = [];
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? `edit ${index + 1} of ${edits.length}: ` : '';
    const oldS = toLf(edit.old_string);
    const newS = toLf(edit.new_string);
    if (keep && index > 0) text = toLf(native);
    // The common big case, one native pass: replace_all of an exact match (issue 12 finding 2).
    if (edit.replace_all && !keep && text.includes(oldS)) {
      const pieces = text.split(oldS);
      text = pieces.join(newS);
      replacements += pieces.length - 1;
      return;
    }
    let at = occurrences(text, oldS);
    let folded: string[] | undefined;
    if (at.length === 0) {
      const foldedNeedle = foldTypography(oldS);
      at = occurrences(foldTypography(text), foldedNeedle);
      if (at.length > 0) {
        const chars = new Set<string>();
        for (const i of at) for (const c of text.slice(i, i + oldS.length)) if (FOLD[c]) chars.add(c);
        folded = [...chars];
      }
    }
    if (at.length === 0) {
      throw new FsError(`${which}old_string was not found in "${displayPath}" (also tried with line endings and typographic characters normalized); read the file again and copy the text exactly`, 'FS_EDIT_NOT_FOUND');
    }
    if (at.length > 1 && !edit.replace_all) {
      throw new FsError(`${which}old_string matches ${at.length} places in "${displayPath}"; add surrounding lines to make it unique, or set replace_all`, 'FS_AMBIGUOUS_EDIT');
    }
    // One pass over the text: linear in its size, however many matches (issue 12 finding 2).
    if (keep) {
      native = spliceKeepingEndings(native, at, oldS.length, newS, keep);
    } else {
      const parts: string[] = [];
      let from = 0;
      for (const i of at) {
        parts.push(text.slice(from, i), newS);
        from = i + oldS.length;
      }
      parts.push(text.slice(from));
      text = parts.join('');
    }
    replacements += at.length;
    if (folded) unicode_normalized.push({ edit_index: index, folded });
  });
  return { text: keep ? native : text, replacements, unicode_normalized };
}
