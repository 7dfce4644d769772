// Description of a command (slash-commands §3): frontmatter `description` when present, else the
// first non-empty body line, trimmed, cut to 60 characters with `...` appended when it was longer.
// A frontmatter description is made one line and cut too (at DESCRIPTION_FRONTMATTER_MAX): it is
// published to every master in `agent.commands.publish` and kept in the session history, and 36
// files of 100 KB descriptions pushed a session's first turn out of its 8 MiB history (decision 712).
import { cutAt } from '../protocol/cutText';

export const DESCRIPTION_MAX = 60;
/** The longest description from frontmatter (or from an agent's report) before the `...` of a cut. */
export const DESCRIPTION_FRONTMATTER_MAX = 300;

/**
 * `text` as one trimmed line (every run of white space, line breaks included, one space), cut like
 * a body line (slash-commands §3) but at `max` characters: the first `max`, then `...`.
 */
export function oneLineDescription(text: string, max = DESCRIPTION_FRONTMATTER_MAX): string {
  return cutLine(text.replace(/\s+/g, ' ').trim(), max);
}

/** A line cut as slash-commands §3 cuts a body line: the first `max` characters, then `...`. */
function cutLine(line: string, max: number): string {
  return line.length > max ? `${cutAt(line, max)}...` : line;
}

export function describeCommand(frontmatter: Record<string, unknown>, body: string): string {
  const fromFrontmatter = frontmatter.description;
  if (typeof fromFrontmatter === 'string' && fromFrontmatter.trim()) return oneLineDescription(fromFrontmatter);
  const line = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return '';
  return cutLine(line, DESCRIPTION_MAX);
}

/** "via Claude Code Project", "via RAWP User" (slash-commands §3 display source). */
export function displaySource(providerName: string, scope: string): string {
  return `via ${providerName} ${scope.charAt(0).toUpperCase()}${scope.slice(1)}`;
}
