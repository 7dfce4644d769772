// Names with spaces in the @ picker ("meeting notes final.md", "회의록 2026-11.txt"; common on
// Windows, macOS and in Korean document names). A space used to end the @ query, so such a name
// could not be typed (the picker trial of 2026-12-05, F3). A space cannot simply be part of every
// query either: "read @foo and fix it" would keep the picker open over the rest of the sentence.
// So a query goes on across a space only while a file on the list has that very text, space
// included — the user is typing a name, not the next word (decision 634).

/** One form for comparing what is typed with a name: NFC (macOS writes names NFD), no-break spaces as spaces, lower case. */
const fold = (s: string): string => s.normalize('NFC').replace(/\u00a0/g, ' ').toLowerCase();

/** Does a candidate's path hold the query as typed, spaces included? */
export function spacedNameOn(paths: readonly string[]): (query: string) => boolean {
  return (query) => {
    const q = fold(query);
    return paths.some((p) => fold(p).includes(q));
  };
}
