// A Markdown code fence for text we inline into a prompt (file references, text attachments):
// longer than the longest run of backticks inside, so no content can close it early and turn the
// rest of the file into prompt text of its own.

/** At least three backticks, and one more than the longest run of three or more in `content`. */
export function fence(content: string): string {
  let longest = 2;
  for (const m of content.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(longest + 1);
}
