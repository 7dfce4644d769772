// Argument handling of file commands (slash-commands §6). The parser is deliberately simple and
// its quirks are the contract: spaces and tabs separate, '…' and "…" keep spaces and are removed,
// there are no backslash escapes, and an unmatched quote is no error — it runs to the end.

export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (const ch of argsString) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ' ' || ch === '\t') {
      if (current) {
        args.push(current);
        current = '';
      }
    } else {
      current += ch;
    }
  }
  // An empty token (e.g. `""`) is not an argument, as in the reference parser.
  if (current) args.push(current);
  return args;
}

/**
 * `$1`, `$2`, … first (so an argument that itself contains `$2` is not substituted again), then
 * `$ARGUMENTS` and `$@` with all arguments joined by one space. A missing positional becomes ''.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(' ');
  return content
    .replace(/\$(\d+)/g, (_m, n: string) => args[Number.parseInt(n, 10) - 1] ?? '')
    .replace(/\$ARGUMENTS/g, () => all)
    .replace(/\$@/g, () => all);
}
