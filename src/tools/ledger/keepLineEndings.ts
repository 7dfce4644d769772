// Edits of a file whose line endings are mixed, some lines CRLF and some LF (decision 704). Matching
// still runs on the text with CRLF read as LF (match.ts), but the replacement is made in the file's
// own text: every byte outside the matched regions stays as it was, each untouched line keeps its
// own ending, and the replaced text takes the endings of the region it replaces — the first line
// break of the new text the region's first one, and so on; a break the region did not have (the
// new text adds lines) takes the file's dominant ending. Lone CRs are left as they are.

/**
 * `native` with the regions that start at the offsets `at` of `toLf(native)` (ascending, none
 * overlapping) and are `oldLength` long replaced by `newLf` (LF line breaks). One pass over the
 * text, however many regions: each CRLF is found once with indexOf.
 */
export function spliceKeepingEndings(native: string, at: readonly number[], oldLength: number, newLf: string, dominant: '\r\n' | '\n'): string {
  const newLines = newLf.split('\n');
  const parts: string[] = [];
  // `shift` CRLFs lie before the LF-text offset last mapped; `cr` is the native offset of the CR
  // of the next CRLF, whose LF sits at LF-text offset `cr - shift`.
  let shift = 0;
  let cr = native.indexOf('\r\n');
  const toNative = (p: number): number => {
    while (cr !== -1 && cr - shift < p) {
      shift++;
      cr = native.indexOf('\r\n', cr + 2);
    }
    return p + shift;
  };
  let from = 0;
  for (const i of at) {
    // A region that starts at a CRLF's LF starts at its CR; one that ends before a CRLF's LF ends
    // before its CR: a line break is replaced whole or not at all.
    const start = toNative(i);
    const end = toNative(i + oldLength);
    parts.push(native.slice(from, start), withRegionEndings(native, start, end, newLines, dominant));
    from = end;
  }
  parts.push(native.slice(from));
  return parts.join('');
}

/** The lines of the new text joined with the endings of the region `native[start, end)`, then `dominant`. */
function withRegionEndings(native: string, start: number, end: number, newLines: readonly string[], dominant: '\r\n' | '\n'): string {
  if (newLines.length === 1) return newLines[0];
  const endings: string[] = [];
  for (let j = native.indexOf('\n', start); j !== -1 && j < end && endings.length < newLines.length - 1; j = native.indexOf('\n', j + 1)) {
    endings.push(j > start && native.charCodeAt(j - 1) === 13 ? '\r\n' : '\n');
  }
  let out = newLines[0];
  for (let k = 1; k < newLines.length; k++) out += (endings[k - 1] ?? dominant) + newLines[k];
  return out;
}
