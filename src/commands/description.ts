// Description of a command (slash-commands §3): frontmatter `description` when present, else the
// first non-empty body line, trimmed, cut to 60 characters with `...` appended when it was longer.

export const DESCRIPTION_MAX = 60;

export function describeCommand(frontmatter: Record<string, unknown>, body: string): string {
  const fromFrontmatter = frontmatter.description;
  if (typeof fromFrontmatter === 'string' && fromFrontmatter.trim()) return fromFrontmatter.trim();
  const line = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return '';
  return line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX)}...` : line;
}

/** "via Claude Code Project", "via RAWP User" (slash-commands §3 display source). */
export function displaySource(providerName: string, scope: string): string {
  return `via ${providerName} ${scope.charAt(0).toUpperCase()}${scope.slice(1)}`;
}
