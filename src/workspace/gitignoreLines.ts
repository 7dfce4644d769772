// The rules of an ignore file's text, as git reads its lines (decision 540): comments, `!`,
// trailing spaces unless escaped, `\#` and `\!`, a BOM, CRLF. One rule at a time, so that a
// matcher stops reading at its budget and a listing can pause between rules: 1 MiB of one-character
// rules is 512k lines, which split and parsed at once held the event loop ~100 ms (decision 733).

export interface IgnoreLine {
  negative: boolean;
  body: string;
}

/** The rules of `text` in order (lines split at `\n` or `\r\n`). */
export function* gitignoreLines(text: string): Generator<IgnoreLine, void, void> {
  for (let start = 0, n = 0; start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let line = text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (n === 0 && line.startsWith('\uFEFF')) line = line.slice(1);
    const rule = ruleOf(line);
    if (rule) yield rule;
  }
}

/** One line's rule, or undefined for a blank line, a comment or a line that ends in an odd `\`. */
function ruleOf(line: string): IgnoreLine | undefined {
  let body = line;
  if (!body || body[0] === '#') return undefined;
  const negative = body[0] === '!';
  if (negative) body = body.slice(1);
  // Trailing spaces go, unless the last one is escaped by an odd run of backslashes.
  let end = body.length;
  while (body[end - 1] === ' ') end--;
  if (end < body.length) {
    let bs = 0;
    while (body[end - bs - 1] === '\\') bs++;
    body = bs % 2 ? body.slice(0, end - 1) + ' ' : body.slice(0, end);
  }
  let bs = 0;
  while (body[body.length - bs - 1] === '\\') bs++;
  if (!body || bs % 2) return undefined;
  if (body.startsWith('\\!') || body.startsWith('\\#')) body = body.slice(1);
  return { negative, body };
}

/** All the rules of one ignore file's text. */
export function parseGitignore(text: string): IgnoreLine[] {
  return [...gitignoreLines(text)];
}
