// The tool catalog (§5.4.1): each tool with its category, declared output_type, requires_approval,
// status (+ reason) and the JSON Schema of its input (z.toJSONSchema). Statuses come from probes
// (e.g. Bash is unavailable without a shell); `refresh` re-probes and republishes when any status
// changed, as §5.4.1 requires.
import { z } from 'zod';
import type { AgentHost, CatalogDiagnostic, CatalogTool } from '../session/agentAdapter';
import type { PayloadOf } from '../protocol/frameTypes';
import { shellAvailable } from './bash';
import type { Tool, ToolSettings } from './types';

export interface ToolStatus {
  status: 'available' | 'unavailable' | 'degraded';
  status_description?: string;
}

export type StatusProbe = (tool: Tool) => ToolStatus;

/** Probes of the built-in tools: Bash needs a shell, Task needs a subagent runner. */
export function builtinProbe(settings: Pick<ToolSettings, 'shell'>, opts: { hasSubagents: boolean }): StatusProbe {
  return (tool) => {
    if (tool.name === 'Bash') {
      const s = shellAvailable(settings.shell);
      return s.ok ? { status: 'available' } : { status: 'unavailable', status_description: s.reason };
    }
    if (tool.startsSubagent && !opts.hasSubagents) return { status: 'unavailable', status_description: 'this agent cannot run subagents' };
    return { status: 'available' };
  };
}

export function inputJsonSchema(tool: Tool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export function catalogEntry(tool: Tool, status: ToolStatus): CatalogTool {
  const entry: CatalogTool = {
    name: tool.name,
    description: tool.description,
    input_schema: inputJsonSchema(tool),
    category: tool.category,
    requires_approval: tool.requires_approval,
    status: status.status,
  };
  if (tool.output_type) entry.output_type = tool.output_type;
  if (status.status_description) entry.status_description = status.status_description;
  return entry;
}

export class ToolCatalog {
  private published: PayloadOf<'tool.catalog.publish'> | undefined;

  constructor(
    readonly tools: readonly Tool[],
    private probe: StatusProbe,
  ) {}

  /** The payload as of now (probes run). */
  build(): PayloadOf<'tool.catalog.publish'> {
    const tools = this.tools.map((t) => catalogEntry(t, this.probe(t)));
    const diagnostics: CatalogDiagnostic[] = tools
      .filter((t) => t.status === 'unavailable')
      .map((t) => ({ severity: 'warning', tool_name: t.name, code: 'TOOL_UNAVAILABLE', message: `${t.name} is unavailable: ${t.status_description ?? 'no reason given'}` }));
    return diagnostics.length > 0 ? { tools, diagnostics } : { tools };
  }

  /** What was last published (or built, when nothing was published yet). */
  current(): PayloadOf<'tool.catalog.publish'> {
    return (this.published ??= this.build());
  }

  statusOf(name: string): ToolStatus | undefined {
    const t = this.current().tools.find((x) => x.name === name);
    return t ? { status: t.status ?? 'available', status_description: t.status_description } : undefined;
  }

  /** Marks the current payload as published (the engine sends it from `start`). */
  markPublished(payload: PayloadOf<'tool.catalog.publish'>): void {
    this.published = payload;
  }

  /** Swap the probe (e.g. a setting changed) — call `refresh` afterwards. */
  setProbe(probe: StatusProbe): void {
    this.probe = probe;
  }

  /** Re-probes; if any status changed, emits `tool.catalog.publish` again and returns true. */
  refresh(host: Pick<AgentHost, 'emit'>): boolean {
    const next = this.build();
    const key = (p: PayloadOf<'tool.catalog.publish'>) => JSON.stringify(p.tools.map((t) => [t.name, t.status, t.status_description]));
    if (this.published && key(this.published) === key(next)) return false;
    this.published = next;
    host.emit({ type: 'tool.catalog.publish', payload: next });
    return true;
  }
}
