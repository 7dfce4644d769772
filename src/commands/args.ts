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

/** One group: the positional number (`$ARGUMENTS` and `$@` have none). */
export const ARG_PLACEHOLDER = String.raw`\$(?:(\d+)|ARGUMENTS|@)`;

/** What one matched `$…` becomes: the Nth argument ('' when missing), or `all` (joined once by the caller). */
export function argValue(args: readonly string[], all: string, position: string | undefined): string {
  return position === undefined ? all : (args[Number.parseInt(position, 10) - 1] ?? '');
}

/**
 * `$1`, `$2`, …, `$ARGUMENTS` and `$@` (all arguments joined by one space) in ONE pass over the
 * body: an inserted argument is never scanned again, so an argument that itself contains `$2`,
 * `$ARGUMENTS` or `$@` stays as typed (decision 541). A missing positional becomes ''.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(' ');
  return content.replace(new RegExp(ARG_PLACEHOLDER, 'g'), (_m, position?: string) => argValue(args, all, position));
}
