// What a master makes of the client's tool.catalog.publish (§5.4.1), for every master of ours:
// - which tools it refuses: one with a `fatal` diagnostic is blocked, and a tool.invoke.request
//   for it is answered with session.error (§5.4.1-3); an `unavailable` one is refused the same way
//   (§5.4.1-1 asks a relaying master not to forward such a request; ours end the line, decision 261);
// - what it tells the user: what a `degraded` tool cannot do (§5.4.1-4) and the warning of an
//   `error` diagnostic (§5.4.1-6). `warning` / `info` diagnostics restrict nothing and are only
//   logged (§5.4.1), so they produce no notice here.
import type { PayloadOf } from './frameTypes';

type Catalog = PayloadOf<'tool.catalog.publish'>;

export interface ToolRefusal {
  code: 'TOOL_UNAVAILABLE' | 'TOOL_FATAL_DIAGNOSTIC';
  message: string;
}

export interface CatalogNotice {
  /** Stable for the same fact, so a master shows each fact once (a republished catalog repeats it). */
  key: string;
  level: 'blocked' | 'limited' | 'warning';
  /** Which fact: a tool's status, or a diagnostic's severity. */
  kind: 'degraded' | 'unavailable' | 'error' | 'fatal';
  tool_name?: string;
  text: string;
}

/** Why a master refuses a call of this tool, or undefined when the catalog does not forbid it. */
export function refusalFor(catalog: Catalog | undefined, tool_name: string): ToolRefusal | undefined {
  if (!catalog) return undefined;
  const fatal = catalog.diagnostics?.find((d) => d.severity === 'fatal' && d.tool_name === tool_name);
  if (fatal) return { code: 'TOOL_FATAL_DIAGNOSTIC', message: `${tool_name} is blocked by a fatal diagnostic (${fatal.code}: ${fatal.message}); the call is refused (§5.4.1)` };
  const entry = catalog.tools.find((t) => t.name === tool_name);
  if (entry?.status === 'unavailable') {
    return { code: 'TOOL_UNAVAILABLE', message: `${tool_name} is unavailable${entry.status_description ? ` (${entry.status_description})` : ''}; the call is refused (§5.4.1)` };
  }
  return undefined;
}

/** What the user should be told about this catalog, tools first in catalog order, then diagnostics. */
export function catalogNotices(catalog: Catalog): CatalogNotice[] {
  const out: CatalogNotice[] = [];
  for (const t of catalog.tools) {
    if (t.status === 'degraded') {
      // §5.4.1: without a status_description the UI shows no reason, only that it is limited.
      const why = t.status_description ? `: ${t.status_description}` : '';
      out.push({ key: `degraded:${t.name}:${t.status_description ?? ''}`, level: 'limited', kind: 'degraded', tool_name: t.name, text: `${t.name} works with limits${why}` });
    } else if (t.status === 'unavailable') {
      const why = t.status_description ? `: ${t.status_description}` : '';
      out.push({ key: `unavailable:${t.name}:${t.status_description ?? ''}`, level: 'blocked', kind: 'unavailable', tool_name: t.name, text: `${t.name} is unavailable${why}` });
    }
  }
  for (const d of catalog.diagnostics ?? []) {
    if (d.severity !== 'error' && d.severity !== 'fatal') continue;
    const subject = d.tool_name ?? 'the tool catalog';
    const text = d.severity === 'fatal' ? `${subject} is blocked: ${d.code}: ${d.message}` : `warning about ${subject}: ${d.code}: ${d.message}`;
    out.push({ key: `${d.severity}:${d.tool_name ?? ''}:${d.code}:${d.message}`, level: d.severity === 'fatal' ? 'blocked' : 'warning', kind: d.severity, ...(d.tool_name ? { tool_name: d.tool_name } : {}), text });
  }
  return out;
}
