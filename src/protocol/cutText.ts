// Cutting a text to a length in UTF-16 units without leaving half of a surrogate pair at the cut
// (a lone surrogate is no character: JSON escapes it, and a view shows it as garbage).

/** The last `keep` UTF-16 units of `s` (a path's end: its file name), never starting inside a surrogate pair. */
export function lastUnits(s: string, keep: number): string {
  const end = s.slice(Math.max(0, s.length - Math.max(0, keep)));
  const first = end.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? end.slice(1) : end;
}

/** `s` cut to at most `keep` UTF-16 units, never between the halves of a surrogate pair. */
export function cutAt(s: string, keep: number): string {
  let end = Math.max(0, keep);
  const c = s.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}
