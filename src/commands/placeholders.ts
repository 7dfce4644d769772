// Slash-commands §6 expansion of a command body: positional `$1`…, aggregate `$ARGUMENTS`/`$@`,
// then the `{ args, ARGUMENTS, arguments }` template. The spec lists them in that order; we do all
// of them in ONE pass over the body, which gives the same result for every placeholder the body
// holds, but never scans an inserted argument again. Chained passes did, so typed `$@ $@ …` grew
// as the square (then cube) of its length: 36 KB typed became a 432 MB prompt (decision 541).
import { ARG_PLACEHOLDER, argValue } from './args';
import { TEMPLATE_PLACEHOLDER, templateValue } from './template';

/**
 * The largest expansion we build, in UTF-16 code units: the default `max_frame_size` a host takes
 * in (4 MiB). A body that repeats `$ARGUMENTS` many times can still multiply the typed size by its
 * own, so one pass alone does not bound the result.
 */
export const MAX_EXPANSION_LENGTH = 4 * 1024 * 1024;

// Group 1: positional number; groups 2–4: template key, `.N`, `[N]`.
const PLACEHOLDER = new RegExp(`${ARG_PLACEHOLDER}|${TEMPLATE_PLACEHOLDER}`, 'g');

export class ExpansionTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the command with these arguments expands to more than ${limit} characters; shorten the arguments`);
    this.name = 'ExpansionTooLargeError';
  }
}

/** Fills `body` with `args`; throws ExpansionTooLargeError before building a result over `maxLength`. */
export function fillPlaceholders(body: string, args: readonly string[], maxLength = MAX_EXPANSION_LENGTH): string {
  const all = args.join(' ');
  const context = { args, ARGUMENTS: all, arguments: all };
  let length = body.length;
  if (length > maxLength) throw new ExpansionTooLargeError(maxLength);
  return body.replace(PLACEHOLDER, (whole: string, position?: string, key?: string, dot?: string, bracket?: string) => {
    const value = key === undefined ? argValue(args, all, position) : templateValue(whole, context, key, dot ?? bracket);
    // Counted as we go, so an oversized result is refused before it is concatenated.
    length += value.length - whole.length;
    if (length > maxLength) throw new ExpansionTooLargeError(maxLength);
    return value;
  });
}
