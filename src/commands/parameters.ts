// Parameters of a command for `agent.commands.publish` (§12.1.1): from the frontmatter
// `argument-hint` (`<name>` required, `[name]` optional), else from the `$1…$n` placeholders the
// body uses, else one optional `arguments` parameter when the body takes all arguments at once.
import { oneLineDescription } from './description';
import type { PublishedParameter } from './types';

export type CommandParameter = PublishedParameter;

function cleanName(raw: string): string {
  return raw.trim().replace(/\.{3}$|^\.{3}/g, '').trim();
}

export function parametersFromHint(hint: string): CommandParameter[] {
  const out: CommandParameter[] = [];
  const seen = new Set<string>();
  for (const m of hint.matchAll(/<([^<>]+)>|\[([^[\]]+)\]/g)) {
    const required = m[1] !== undefined;
    const name = cleanName(m[1] ?? m[2] ?? '');
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push({ name, type: 'string', required });
    if (out.length === MAX_PUBLISHED_PARAMETERS) break;
  }
  if (out.length === 0 && hint.trim()) out.push({ name: 'arguments', type: 'string', required: false, description: oneLineDescription(hint) });
  return out;
}

const AGGREGATE = /\$ARGUMENTS|\$@|\{\{\s*(?:args|ARGUMENTS|arguments)\b/;

/**
 * The most parameters published for one command. A body's `$3000000` asked for three million
 * entries (8.6 s on the event loop, a 288 MB publish) and 400 digits after `$` for an array of
 * Infinity (decision 712); a body using a higher `$N` publishes `arg1`…`arg32`, and a hint naming
 * more publishes its first 32.
 */
export const MAX_PUBLISHED_PARAMETERS = 32;

export function parametersFromBody(body: string): CommandParameter[] {
  let max = 0;
  for (const m of body.matchAll(/\$(\d+)/g)) max = Math.min(MAX_PUBLISHED_PARAMETERS, Math.max(max, Number.parseInt(m[1], 10)));
  if (max > 0) {
    return Array.from({ length: max }, (_v, i) => ({ name: `arg${i + 1}`, type: 'string' as const, required: true, description: `Positional argument $${i + 1}` }));
  }
  if (AGGREGATE.test(body)) return [{ name: 'arguments', type: 'string', required: false, description: 'All arguments ($ARGUMENTS)' }];
  return [];
}

export function commandParameters(argumentHint: string | undefined, body: string): CommandParameter[] {
  return argumentHint ? parametersFromHint(argumentHint) : parametersFromBody(body);
}
