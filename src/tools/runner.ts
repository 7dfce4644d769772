// The tool runner: one tool call from an agent -> DPS frames, with every gate in front of the tool.
//
//   tool.invoke.request (+ `subagent` for Task, §10.1)
//   [agent.subagent.started]                          §10.3.1
//   gates: known tool (§15.1), subagent allow-list (§15.2), catalog status (§5.4.1),
//          host.checkTool, mode (§6.3.2, again here so it holds if a host forgets),
//          input schema, outside-workspace, permission (§4.3, §17.3.1)
//   tool.invoke.stream … (sequence from 0)             §5.3.2
//   [agent.subagent.ended]                            §10.3.2
//   tool.invoke.result with output_type (§5.3.3) and duration_ms
//
// Frames of a subagent carry metadata.subagent_context (§10.2). Nothing here throws at the agent:
// every failure becomes an error result.
import { realPathOrUndefined } from '../workspace/localFiles';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentHost } from '../session/agentAdapter';
import type { SubagentContext } from '../protocol/envelope';
import type { PayloadOf } from '../protocol/frameTypes';
import { decideOutputType } from '../protocol/outputType';
import type { FsBackend } from '../workspace/fsBackend';
import { MAX_PATH_CHARS, pathTooLongMessage } from '../workspace/resolvePath';
import type { ToolCatalog } from './catalog';
import { errorOutcome } from './fsErrors';
import type { FsEvents } from './fsEvents';
// The session engine's own §6.3.2 rule, so both gates always agree.
import { MODE_BLOCKED_MESSAGE, modeAllows } from '../protocol/modePolicy';
import { displayPath, isInside, resolveToolPath } from './paths';
import type { PermissionGate } from './permissions/gate';
import type { SubagentRunner } from './subagent';
import type { TodoStore } from './todoStore';
import type { Tool, ToolContext, ToolOutcome, ToolSettings } from './types';

export interface ToolRunnerOptions {
  host: AgentHost;
  fs: FsBackend;
  catalog: ToolCatalog;
  fsEvents: FsEvents;
  permissions: PermissionGate;
  todos: TodoStore;
  settings: ToolSettings;
  /** Ledger owner; the session id by default (subagents share their session's ledger). */
  actor?: string;
  /** Set for a subagent's runner (§10.2). */
  subagentContext?: SubagentContext;
  /** The subagent's allowed_tools (§15.2). */
  allowedTools?: readonly string[];
  /** How this agent runs subagents (Task). */
  subagents?: SubagentRunner;
}

export interface ToolCallResult {
  invocation_id: string;
  tool_name: string;
  status: PayloadOf<'tool.invoke.result'>['status'];
  output: unknown;
  output_type: PayloadOf<'tool.invoke.result'>['output_type'];
  duration_ms: number;
  truncated?: boolean;
  error_code?: string;
}

export class ToolRunner {
  readonly cwd: string;
  private invocations = 0;

  constructor(readonly options: ToolRunnerOptions) {
    this.cwd = realOrSelf(options.host.workspacePath);
  }

  get host(): AgentHost {
    return this.options.host;
  }

  /** How many tool calls this runner made (for `tool_invocation_count`). */
  get count(): number {
    return this.invocations;
  }

  /** Emits through the host, stamping subagent_context on a subagent's frames. */
  emit(event: AgentEvent): void {
    const ctx = this.options.subagentContext;
    this.options.host.emit(ctx ? ({ ...event, metadata: { ...event.metadata, subagent_context: ctx } } as AgentEvent) : event);
  }

  async invoke(tool_name: string, rawInput: Record<string, unknown>, signal: AbortSignal, opts: { parallel_group_id?: string } = {}): Promise<ToolCallResult> {
    const o = this.options;
    const invocation_id = randomUUID();
    this.invocations++;
    const tool = o.catalog.tools.find((t) => t.name === tool_name);
    const depth = (o.subagentContext?.depth ?? 0) + 1;
    const request: PayloadOf<'tool.invoke.request'> = { invocation_id, tool_name, input: rawInput };
    if (opts.parallel_group_id) request.parallel_group_id = opts.parallel_group_id;
    const agentType = typeof rawInput.subagent_type === 'string' ? rawInput.subagent_type : 'general-purpose';
    const description = typeof rawInput.description === 'string' ? rawInput.description : undefined;
    if (tool?.startsSubagent) request.subagent = { agent_type: agentType, ...(description ? { description } : {}) };
    this.emit({ type: 'tool.invoke.request', payload: request });

    const started = Date.now();
    let outcome: ToolOutcome;
    let subagentStarted = false;
    let sequence = 0;
    const subagents = o.subagents;
    const ctx: ToolContext = {
      fs: o.fs,
      cwd: this.cwd,
      actor: o.actor ?? o.host.session_id,
      fsEvents: o.fsEvents,
      signal,
      settings: o.settings,
      todos: o.todos,
      invocation_id,
      stream: (stream_type, chunk) => this.emit({ type: 'tool.invoke.stream', payload: { invocation_id, tool_name, stream_type, chunk, sequence: sequence++ } }),
      subagent: subagents && { run: (req) => subagents.run({ ...req, parent_invocation_id: invocation_id, depth, allowed_tools: subagentTools(req.allowed_tools, o.allowedTools) }) },
    };
    try {
      const refusal = tool ? await this.gate(tool, rawInput, ctx) : ({ status: 'error', output: `UNKNOWN_TOOL: "${tool_name}" is not in the tool catalog (§15.1)`, error_code: 'UNKNOWN_TOOL' } as ToolOutcome);
      if (refusal) outcome = refusal;
      else {
        const t = tool!;
        const input = (t.parse(rawInput) as { ok: true; value: Record<string, unknown> }).value;
        if (t.startsSubagent) {
          this.emit({ type: 'agent.subagent.started', payload: { parent_invocation_id: invocation_id, agent_type: agentType, ...(description ? { description } : {}), depth } });
          subagentStarted = true;
        }
        outcome = await t.run(input, ctx);
      }
    } catch (e) {
      outcome = errorOutcome(e);
    }
    if (signal.aborted && outcome.status !== 'cancelled' && outcome.status !== 'success') outcome = { ...outcome, status: 'cancelled' };
    const duration_ms = Date.now() - started;
    if (subagentStarted) {
      const status = outcome.status === 'success' ? 'completed' : outcome.status === 'cancelled' ? 'cancelled' : 'failed';
      this.emit({ type: 'agent.subagent.ended', payload: { parent_invocation_id: invocation_id, status, duration_ms } });
    }
    // Errors are messages, so they are `text`; successes follow §5.3.3.
    const output_type = outcome.status === 'success' ? decideOutputType(tool_name, o.catalog.current().tools, outcome.hints) : 'text';
    const output = outcome.output ?? null;
    const result: PayloadOf<'tool.invoke.result'> = { invocation_id, tool_name, status: outcome.status, output, output_type, duration_ms };
    if (outcome.truncated) result.truncated = true;
    if (outcome.error_code) result.error_code = outcome.error_code;
    this.emit({ type: 'tool.invoke.result', payload: result });
    return { invocation_id, tool_name, status: outcome.status, output, output_type, duration_ms, ...(outcome.truncated ? { truncated: true } : {}), ...(outcome.error_code ? { error_code: outcome.error_code } : {}) };
  }

  /** The gates in order; an outcome means "refused", undefined means "run it". */
  private async gate(tool: Tool, rawInput: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome | undefined> {
    const signal = ctx.signal;
    const o = this.options;
    const refuse = (error_code: string, message: string, status: ToolOutcome['status'] = 'error'): ToolOutcome => ({ status, output: message, error_code });
    if (o.allowedTools && !o.allowedTools.includes(tool.name)) return refuse('TOOL_NOT_ALLOWED', `TOOL_NOT_ALLOWED: ${tool.name} is not among this subagent's allowed tools (§15.2)`);
    const st = o.catalog.statusOf(tool.name);
    if (st?.status === 'unavailable') return refuse('TOOL_UNAVAILABLE', `TOOL_UNAVAILABLE: ${tool.name} is unavailable${st.status_description ? `: ${st.status_description}` : ''}`);
    const parent = o.subagentContext?.parent_invocation_id;
    const check = o.host.checkTool(tool.name, rawInput, parent ? { parent_invocation_id: parent } : undefined);
    // The engine's reason by its own code (the mode, the prompt's denied tools…): a Korean reader
    // was told "not allowed for this subagent" when the mode was the cause (the CLI trial).
    if (!check.allowed) return refuse(check.code === 'TOOL_NOT_ALLOWED_IN_MODE' ? check.code : 'TOOL_NOT_ALLOWED', check.message);
    if (!modeAllows(o.host.mode, tool.category, tool.name)) return refuse('TOOL_NOT_ALLOWED_IN_MODE', MODE_BLOCKED_MESSAGE);
    const parsed = tool.parse(rawInput);
    if (!parsed.ok) return refuse('INVALID_INPUT', `INVALID_INPUT: ${parsed.message}`);
    if (signal.aborted) return refuse('CANCELLED', 'cancelled before it ran', 'cancelled');

    const paths = tool.affectedPaths(parsed.value);
    const tooLong = paths.find((p) => p.length > MAX_PATH_CHARS);
    if (tooLong !== undefined) return refuse('INVALID_INPUT', `INVALID_INPUT: ${pathTooLongMessage(tooLong)}`);
    const abs = paths.map((p) => resolveToolPath(this.cwd, p, o.fs.roots, o.fs.rootAliases));
    const outside = abs.filter((p) => !isInside(o.fs.roots, p));
    if (outside.length > 0 && !o.settings.allowOutsideWorkspace) {
      return refuse('FS_OUTSIDE_WORKSPACE', `FS_OUTSIDE_WORKSPACE: ${outside.join(', ')} is outside the workspace (${o.fs.roots.join(', ')}); tools work inside it (in the editor, the setting rawp.permissions.allowOutsideWorkspace makes them ask for such paths instead)`);
    }
    try {
      await tool.preflight(parsed.value, ctx);
    } catch (e) {
      return errorOutcome(e);
    }
    const decision = await o.permissions.authorize({
      host: o.host,
      call: {
        tool_name: tool.name,
        paths: abs.map((p) => displayPath(o.fs.roots, p)),
        ...(tool.kind === 'shell' && typeof parsed.value.command === 'string' ? { command: parsed.value.command } : {}),
      },
      input: rawInput,
      requiresApproval: tool.requires_approval,
      outsideWorkspace: outside.length > 0,
      invocation_id: ctx.invocation_id,
      ...(o.subagentContext ? { metadata: { subagent_context: o.subagentContext } } : {}),
    });
    if (!decision.allowed) return refuse(decision.code, `${decision.code}: ${decision.message}`, decision.status);
    return undefined;
  }
}

/** §15.2: what a subagent may use — what it asked for, never beyond its caller's own tools. */
function subagentTools(asked: readonly string[] | undefined, caller: readonly string[] | undefined): string[] | undefined {
  if (!asked) return caller ? [...caller] : undefined;
  return caller ? asked.filter((t) => caller.includes(t)) : [...asked];
}

function realOrSelf(p: string): string {
  return realPathOrUndefined(p) ?? p;
}
