// What a set of exclude globs may cost to compile (decision 737): they are compiled into one RE2
// alternation at once, in one event-loop turn. `files.exclude` / `search.exclude` come from a
// cloned repository's `.vscode/settings.json`, and a master's `exclude_patterns` from the wire:
// 1,024 globs of 500 characters took 0.5 s to compile, 1,024 of `*a*a…b` 1.7 s. The measures are
// decision 711's for ignore rules: characters plus GLOB_OVERHEAD each (RE2JS compiles ~1 µs a
// character and ~50 µs a branch), and wildcards inside a glob (~7 µs each; a leading `**/` or `*`
// and a trailing `/**` or `*` are cheap and not counted). At the bounds a compile took 14–42 ms
// here, under load; real settings are far below (VS Code's defaults: 9 globs, 100 characters, no
// inner wildcard; a monorepo's hundred: ~4 KiB).

/** Characters of all globs together, each counted GLOB_OVERHEAD more. */
export const MAX_EXCLUDE_TEXT = 16 * 1024;
export const GLOB_OVERHEAD = 24;
/** Wildcards inside globs (not leading or trailing), all globs together. */
export const MAX_EXCLUDE_WILDCARDS = 1024;

/** The wildcards of one glob that count: runs of `*` that neither start nor end it (escapes and `[…]` skipped). */
export function innerWildcards(glob: string): number {
  let n = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close > 0) i = close;
    } else if (c === '*') {
      const start = i;
      while (glob[i + 1] === '*') i++;
      if (start > 0 && i < glob.length - 1) n++;
    }
  }
  return n;
}

/** A running total of globs taken: `fits` says whether one more stays within the bounds. */
export class ExcludeBudget {
  text = 0;
  wildcards = 0;

  fits(glob: string): boolean {
    return this.text + glob.length + GLOB_OVERHEAD <= MAX_EXCLUDE_TEXT && this.wildcards + innerWildcards(glob) <= MAX_EXCLUDE_WILDCARDS;
  }

  take(glob: string): void {
    this.text += glob.length + GLOB_OVERHEAD;
    this.wildcards += innerWildcards(glob);
  }
}
