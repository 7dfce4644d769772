// Names with spaces in the @ picker ("meeting notes final.md", "회의록 2026-11.txt"; common on
// Windows, macOS and in Korean document names). A space used to end the @ query, so such a name
// could not be typed (the picker trial of 2026-12-05, F3). A space cannot simply be part of every
// query either: "read @foo and fix it" would keep the picker open over the rest of the sentence.
// So a query goes on across a space only while a file on the list has that very text, space
// included — the user is typing a name, not the next word (decision 634) — and the text before the
// space is not already a listed name whole.

/** One form for comparing what is typed with a name: NFC (macOS writes names NFD), no-break spaces as spaces, lower case. */
const fold = (s: string): string => s.normalize('NFC').replace(/\u00a0/g, ' ').toLowerCase();

/**
 * Does a candidate's path hold the query as typed, spaces included? Not when the text before the
 * first space already names a listed file or folder whole (`package.json`): the user finished a
 * reference and goes on with the sentence — otherwise a planted `docs/package.json and fix the
 * failing tests.md` would swallow "update @package.json and fix the failing tests" into its chip
 * (the review of 2026-12-05).
 */
export function spacedNameOn(paths: readonly string[], pending?: string): (query: string) => boolean {
  const folded = paths.map(fold);
  return (query) => {
    const q = fold(query);
    const head = q.split(' ', 1)[0];
    if (folded.some((p) => p === head || p === `${head}/` || baseName(p) === head)) return false;
    if (folded.some((p) => p.includes(q))) return true;
    // `pending`: the query typed before the reference's first suggestions arrived. A space typed
    // meanwhile is kept for now and judged when they arrive (composer.tsx): in a busy or cold
    // workspace they took seconds, and the space ended "@meeting notes" before any name could hold
    // it (the trial of 2026-12-05). Once a list is shown, it judges.
    return pending !== undefined && query.startsWith(pending);
  };
}

/**
 * From which typed query on a space is kept for now, to be judged by an answer still to come: the
 * reference's first suggestions have not arrived (`query` itself), or the list on screen is cut
 * (`truncated`) and a name it does not show may hold the space (the list's own query) — a spaced
 * name outside the top 20 of what was typed before the space could not be typed (decision 634).
 */
export function undecidedFrom(query: string, shown: { query: string; truncated: boolean } | undefined): string | undefined {
  if (shown === undefined) return query;
  return shown.truncated ? shown.query : undefined;
}

/**
 * What the answer to `query` (its listed `paths`, cut or not) says of a space in it: the reference
 * goes on, ends at the space, or waits for what is typed next — a cut list cannot say that no name
 * holds the space (the search drops spaces, so the names with "notes f" need not lead `notes f`'s
 * list), unless a key (`waited`: Enter or Tab) waits for this answer: then it decides.
 */
export function spaceVerdict(query: string, paths: readonly string[], truncated: boolean, waited: boolean): 'goes on' | 'ends' | 'waits' {
  if (!/[\s\u00a0]/.test(query) || spacedNameOn(paths)(query)) return 'goes on';
  return truncated && !waited ? 'waits' : 'ends';
}

/**
 * The row a key may take for `query`: `preferred` when the query has no space or that row's path
 * holds it, else the first row that holds it, else -1 (no row: taking one would drop the words
 * typed after the space — Enter after a cut list turned "@foo and fix it" into a chip).
 */
export function spacedRow(query: string, paths: readonly string[], preferred: number): number {
  if (!/[\s\u00a0]/.test(query)) return preferred;
  const q = fold(query);
  const holds = (p: string | undefined) => p !== undefined && fold(p).includes(q);
  return holds(paths[preferred]) ? preferred : paths.findIndex(holds);
}

/** The last part of a path (a folder's path ends in `/`). */
function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
