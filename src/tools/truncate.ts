// Long outputs are cut, never silently: the caller sets `truncated: true` and the text says so.
export function truncateText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const omitted = text.length - max;
  return { text: `${text.slice(0, max)}\n… [${omitted} more characters truncated]`, truncated: true };
}
