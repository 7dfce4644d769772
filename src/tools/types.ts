// What every tool is: a Claude Code-compatible name and zod input schema, a catalog category, how it
// is gated (read / write / shell / other) and a `run` that returns a ToolOutcome. Frames, gating and
// permissions are the runner's job (runner.ts), so a tool body only does its work.
import type { z } from 'zod';
import type { OutputTypeHints } from '../protocol/outputType';
import type { OutputTypeName, ToolCategoryName } from '../protocol/common';
import type { FsBackend } from '../workspace/fsBackend';
import type { FsEvents } from './fsEvents';
import type { TodoStore } from './todoStore';
import type { SubagentRunner } from './subagent';

export type ToolResultStatus = 'success' | 'error' | 'timeout' | 'cancelled';

/** What a tool run produced; the runner turns it into `tool.invoke.result`. */
export interface ToolOutcome {
  status: ToolResultStatus;
  output: unknown;
  truncated?: boolean;
  /** Feeds §5.3.3 step 2 (e.g. `changed: false` makes a Write result `empty`). */
  hints?: OutputTypeHints;
  /** A machine-readable error code (FS_STALE_VERSION, TOOL_NOT_ALLOWED, …) for error results. */
  error_code?: string;
}

export interface ToolSettings {
  /** Allow paths outside the workspace (each such call then needs a `dangerous` permission). */
  allowOutsideWorkspace: boolean;
  /** The shell Bash runs (`/bin/sh` by default). */
  shell: string;
  /** Default and maximum Bash timeout, in ms. */
  bashTimeoutMs: number;
  bashMaxTimeoutMs: number;
  /** Grace between SIGTERM and SIGKILL of a Bash process group. */
  killGraceMs: number;
  /** Output longer than this many characters is cut and marked `truncated: true`. */
  maxOutputChars: number;
}

export const DEFAULT_TOOL_SETTINGS: ToolSettings = {
  allowOutsideWorkspace: false,
  shell: '/bin/sh',
  bashTimeoutMs: 120_000,
  bashMaxTimeoutMs: 600_000,
  killGraceMs: 2_000,
  maxOutputChars: 30_000,
};

/** Everything a tool body may touch. */
export interface ToolContext {
  fs: FsBackend;
  /** The workspace folder relative paths are resolved against. */
  cwd: string;
  /** Whose ledger entries reads and writes update (one per session). */
  actor: string;
  fsEvents: FsEvents;
  signal: AbortSignal;
  settings: ToolSettings;
  todos: TodoStore;
  invocation_id: string;
  /** Streams intermediate output as `tool.invoke.stream` (sequence numbers are the runner's). */
  stream(stream_type: 'stdout' | 'stderr' | 'progress', chunk: string): void;
  /** Runs a subagent (Task); absent when the agent has none. */
  subagent?: SubagentRunner;
}

/** How the mode gate (§6.3.2) and the permission gate see a tool. */
export type ToolKind = 'read' | 'write' | 'shell' | 'other';

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  category: ToolCategoryName;
  /** Declared in the catalog (§5.3.3 step 1). Leave unset where the result type depends on the call. */
  output_type?: OutputTypeName;
  kind: ToolKind;
  requires_approval: boolean;
  /** Starts a subagent (§10.1): the runner adds `subagent` and the §10.3 lifecycle frames. */
  startsSubagent?: boolean;
  schema: S;
  /** Paths the call touches, as given (for permission prompts and the outside-workspace check). */
  affectedPaths?(input: z.infer<S>): string[];
  /** Checks before the permission prompt (no point asking to run a call that must fail); throws (or rejects) to refuse. */
  preflight?(input: z.infer<S>, ctx: ToolContext): void | Promise<void>;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

/** A tool with its input type erased, so tools of different schemas share one list. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategoryName;
  readonly output_type?: OutputTypeName;
  readonly kind: ToolKind;
  readonly requires_approval: boolean;
  readonly startsSubagent: boolean;
  readonly schema: z.ZodObject;
  parse(input: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; message: string };
  affectedPaths(input: Record<string, unknown>): string[];
  preflight(input: Record<string, unknown>, ctx: ToolContext): void | Promise<void>;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    category: spec.category,
    output_type: spec.output_type,
    kind: spec.kind,
    requires_approval: spec.requires_approval,
    startsSubagent: spec.startsSubagent === true,
    schema: spec.schema,
    parse(input) {
      const r = spec.schema.safeParse(input);
      if (r.success) return { ok: true, value: r.data as Record<string, unknown> };
      const detail = r.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`)
        .join('; ');
      return { ok: false, message: `invalid input for ${spec.name}: ${detail}` };
    },
    // The runner only calls these with what `parse` returned, so the casts are sound.
    affectedPaths: (input) => spec.affectedPaths?.(input as z.infer<S>) ?? [],
    preflight: (input, ctx) => spec.preflight?.(input as z.infer<S>, ctx),
    run: (input, ctx) => spec.run(input as z.infer<S>, ctx),
  };
}

/** A failure a tool reports to the agent (never thrown across a protocol boundary: the runner catches it). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
