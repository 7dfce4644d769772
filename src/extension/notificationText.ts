// The words of the editor's notifications about sessions (notifications.ts), apart from VS Code so
// they are tested in Node: one line, bounded, and never a link.

/** One line of at most 120 characters, never a link. */
export function clip(text: string): string {
  const one = plain(text.replace(/\s+/g, ' ').trim());
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}

/**
 * VS Code renders `[label](command:…)` in a notification as a link that runs the command: a
 * session name (a first prompt, decision 651; a master's rename) or an agent's question must not
 * become one. "](" is broken apart; the text stays readable.
 */
export function plain(text: string): string {
  return text.replace(/\]\(/g, '] (');
}
