// Line-ending style of a text file: text written over a CRLF file stays CRLF (both backends keep
// the file's own style when an agent writes LF text over it).

/** "crlf" when most line breaks of `text` are CRLF; new text written over it gets the same style. */
export function lineEndingOf(text: string): 'crlf' | 'lf' | undefined {
  // Counted with indexOf: no array of a million matches for a big file.
  let crlf = 0;
  let all = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    all++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  if (all === 0) return undefined;
  return crlf * 2 > all ? 'crlf' : 'lf';
}

/** Rewrites the line breaks of `text` in `style` (lone CRs are left alone). */
export function withLineEnding(text: string, style: 'crlf' | 'lf' | undefined): string {
  if (style === undefined) return text;
  const lf = text.replace(/\r\n/g, '\n');
  return style === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf;
}
