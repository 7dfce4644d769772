// A scripted AgentAdapter for engine tests: each prompt plays the next turn script — text and
// thinking deltas, tool calls with streamed output, permission asks, subagents, errors, tools that
// run until aborted — through the real AgentHost, and records what the engine told it.
import { randomUUID } from 'node:crypto';
import type {
  AgentAdapter,
  AgentCapabilities,
  AgentEvent,
  AgentHost,
  AgentInfo,
  AgentPrompt,
  CatalogDiagnostic,
  CatalogTool,
  CommandEntry,
  InteractionAnswer,
  NativeOverrides,
  TurnOutcome,
} from '../../src/session/agentAdapter';
import type { AgentModeName, OutputTypeName } from '../../src/protocol/common';
import type { Metadata } from '../../src/protocol/envelope';
import type { FeatureSet } from '../../src/protocol/capabilities';
import type { PayloadOf } from '../../src/protocol/frameTypes';

export type Step =
  | { kind: 'text'; chunks: string[]; index?: number; done?: boolean; metadata?: Metadata }
  | { kind: 'thinking'; chunks: string[]; index?: number; redacted?: boolean; done?: boolean }
  | {
      kind: 'tool';
      name: string;
      input?: Record<string, unknown>;
      id?: string;
      /** stdout chunks streamed before the result. */
      stream?: string[];
      output?: unknown;
      status?: PayloadOf<'tool.invoke.result'>['status'];
      /** `null`: leave output_type out, as a careless process adapter might. */
      output_type?: OutputTypeName | null;
      /** Ask permission (PERMISSION) after the request, as §13.3 / §17.3.1 show. */
      ask?: Partial<PayloadOf<'agent.interaction.request'>>;
      /** Ask through the host's permission broker (rules first), naming the call or not, as adapters do. */
      permission?: { paths: string[]; named?: boolean };
      /** Run until the turn is aborted (a long-running tool that honours the signal). */
      untilAborted?: boolean;
      /** Skip host.checkTool (an adapter that forgets to ask). */
      skipCheck?: boolean;
      parallel_group_id?: string;
    }
  | { kind: 'subagent'; id?: string; agent_type?: string; description?: string; allowed_tools?: string[]; steps: Step[]; output?: unknown }
  | { kind: 'ask'; request: Partial<PayloadOf<'agent.interaction.request'>> }
  | { kind: 'error'; payload: PayloadOf<'agent.error'> }
  | { kind: 'emit'; event: AgentEvent }
  | { kind: 'waitFor'; promise: Promise<unknown> }
  /** The agent changes its own mode (AgentHost.reportMode). */
  | { kind: 'reportMode'; mode: AgentModeName }
  | { kind: 'throw'; message: string };

export interface TurnScript {
  steps: Step[];
  outcome?: Partial<TurnOutcome>;
  /** Ignore the abort signal entirely (a stuck agent). */
  ignoreAbort?: boolean;
}

export interface ScriptedAdapterOptions {
  info?: Partial<AgentInfo>;
  features?: FeatureSet;
  extensions?: Record<string, unknown>;
  tools?: CatalogTool[];
  diagnostics?: CatalogDiagnostic[];
  commands?: CommandEntry[];
  turns?: TurnScript[];
  startError?: string;
  setModeError?: string;
  compactResult?: { summary: string; previous_token_count: number; current_token_count: number };
  /** Without it the adapter has no compact() at all. */
  supportsCompact?: boolean;
  /** config_overrides the scripted agent claims to honour itself (json_schema, max_turns). */
  nativeOverrides?: NativeOverrides;
}

export const DEFAULT_TOOLS: CatalogTool[] = [
  { name: 'Read', description: 'Read a file', category: 'filesystem' },
  { name: 'Write', description: 'Write a file', category: 'filesystem' },
  { name: 'Edit', description: 'Edit a file', category: 'filesystem' },
  { name: 'Grep', description: 'Search file contents', category: 'search' },
  { name: 'Bash', description: 'Run a shell command', category: 'shell' },
  { name: 'Task', description: 'Delegate to a subagent', category: 'agent' },
  { name: 'TodoWrite', description: 'Update the todo list', category: 'task_management', output_type: 'structured' },
];

export class ScriptedAdapter implements AgentAdapter {
  readonly info: AgentInfo;
  host?: AgentHost;
  readonly prompts: AgentPrompt[] = [];
  readonly answers: { step: string; answer: InteractionAnswer }[] = [];
  readonly checks: { tool: string; verdict: ReturnType<AgentHost['checkTool']> }[] = [];
  readonly modes: AgentModeName[] = [];
  readonly compactions: { instruction?: string; ratio?: number }[] = [];
  readonly signals: AbortSignal[] = [];
  disposed = 0;
  private turnNo = 0;
  compact?: AgentAdapter['compact'];

  constructor(private readonly options: ScriptedAdapterOptions = {}) {
    this.info = { id: 'scripted', displayName: 'Scripted agent', adapter_type: 'sdk', ...options.info };
    if (options.supportsCompact) {
      this.compact = async (instruction, ratio) => {
        this.compactions.push({ instruction, ratio });
        // The engine sets the trigger it was asked with; 'auto' here proves it does.
        return { ...(options.compactResult ?? { summary: 'compacted', previous_token_count: 9000, current_token_count: 1000 }), trigger: 'auto' };
      };
    }
  }

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; diagnostics?: CatalogDiagnostic[]; commands: CommandEntry[] }> {
    this.host = host;
    if (this.options.startError) throw new Error(this.options.startError);
    const capabilities: AgentCapabilities = { features: this.options.features ?? { thinking_stream: true, tool_streaming: true } };
    if (this.options.extensions) capabilities.extensions = this.options.extensions;
    if (this.options.nativeOverrides) capabilities.native_overrides = this.options.nativeOverrides;
    return {
      capabilities,
      tools: this.options.tools ?? DEFAULT_TOOLS,
      diagnostics: this.options.diagnostics,
      commands: this.options.commands ?? [{ name: 'compact', description: 'Compact the context', category: 'session' }],
    };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    this.prompts.push(prompt);
    this.signals.push(signal);
    const script = this.options.turns?.[this.turnNo++] ?? { steps: [{ kind: 'text', chunks: ['ok'] }] };
    const run = new Run(this, this.host as AgentHost, script.ignoreAbort ? new AbortController().signal : signal);
    const finished = await run.steps(script.steps, undefined);
    if (!finished) return { stop_reason: 'cancelled', ...script.outcome };
    return { stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 }, ...script.outcome };
  }

  async setMode(mode: AgentModeName): Promise<void> {
    if (this.options.setModeError) throw new Error(this.options.setModeError);
    this.modes.push(mode);
  }

  async dispose(): Promise<void> {
    this.disposed++;
  }
}

/** One turn being played. `steps` resolves false when the turn was aborted part-way. */
class Run {
  private nextIndex = 0;

  constructor(
    private readonly adapter: ScriptedAdapter,
    private readonly host: AgentHost,
    private readonly signal: AbortSignal,
  ) {}

  async steps(steps: Step[], parent: { id: string } | undefined): Promise<boolean> {
    for (const step of steps) {
      if (this.signal.aborted) return false;
      const ok = await this.step(step, parent);
      if (!ok || this.signal.aborted) return false;
    }
    return true;
  }

  private emit(event: AgentEvent, parent: { id: string } | undefined): void {
    // §10.2: frames of a subagent name their parent; the engine fills in depth.
    if (parent) event = { ...event, metadata: { ...event.metadata, subagent_context: { parent_invocation_id: parent.id, depth: 0 } } } as AgentEvent;
    this.host.emit(event);
  }

  private async step(step: Step, parent: { id: string } | undefined): Promise<boolean> {
    switch (step.kind) {
      case 'reportMode':
        this.host.reportMode?.(step.mode);
        return true;
      case 'text': {
        // A block of its own index: later blocks never reuse it (§4.1: one index per block in a turn).
        const index = step.index ?? this.nextIndex++;
        this.nextIndex = Math.max(this.nextIndex, index + 1);
        for (const text of step.chunks) this.emit({ type: 'agent.text.delta', payload: { content_index: index, text }, metadata: step.metadata }, parent);
        if (step.done !== false) this.emit({ type: 'agent.text.done', payload: { content_index: index, full_text: step.chunks.join('') }, metadata: step.metadata }, parent);
        return true;
      }
      case 'thinking': {
        const index = step.index ?? this.nextIndex++;
        this.nextIndex = Math.max(this.nextIndex, index + 1);
        for (const text of step.chunks) {
          const payload: PayloadOf<'agent.thinking.delta'> = { content_index: index, text };
          if (step.redacted) payload.redacted = true;
          this.emit({ type: 'agent.thinking.delta', payload }, parent);
        }
        if (step.done !== false) this.emit({ type: 'agent.thinking.done', payload: { content_index: index } }, parent);
        return true;
      }
      case 'tool':
        return this.tool(step, parent);
      case 'subagent': {
        const id = step.id ?? randomUUID();
        const input: Record<string, unknown> = { description: step.description ?? 'subtask', prompt: 'do the subtask' };
        if (step.allowed_tools) input.allowed_tools = step.allowed_tools;
        const verdict = this.host.checkTool('Task', input, parent ? { parent_invocation_id: parent.id } : undefined);
        this.adapter.checks.push({ tool: 'Task', verdict });
        this.emit({ type: 'tool.invoke.request', payload: { invocation_id: id, tool_name: 'Task', input, subagent: { agent_type: step.agent_type, description: step.description } } }, parent);
        if (!verdict.allowed) return true;
        const finished = await this.steps(step.steps, { id });
        if (!finished) return false;
        this.emit({ type: 'tool.invoke.result', payload: { invocation_id: id, tool_name: 'Task', status: 'success', output: step.output ?? 'subagent done', output_type: 'agent_result' } }, parent);
        return true;
      }
      case 'ask': {
        const answer = await this.host.requestInteraction({
          interaction_id: randomUUID(),
          interaction_type: 'YN',
          question_text: 'Proceed?',
          timeout_sec: 30,
          ...step.request,
        } as PayloadOf<'agent.interaction.request'>);
        this.adapter.answers.push({ step: 'ask', answer });
        return true;
      }
      case 'error':
        this.emit({ type: 'agent.error', payload: step.payload }, parent);
        return true;
      case 'emit':
        this.host.emit(step.event);
        return true;
      case 'waitFor':
        await Promise.race([step.promise, aborted(this.signal)]);
        return !this.signal.aborted;
      case 'throw':
        throw new Error(step.message);
    }
  }

  private async tool(step: Extract<Step, { kind: 'tool' }>, parent: { id: string } | undefined): Promise<boolean> {
    const id = step.id ?? randomUUID();
    const input = step.input ?? {};
    const request: PayloadOf<'tool.invoke.request'> = { invocation_id: id, tool_name: step.name, input };
    if (step.parallel_group_id) request.parallel_group_id = step.parallel_group_id;
    if (!step.skipCheck) {
      const verdict = this.host.checkTool(step.name, input, parent ? { parent_invocation_id: parent.id } : undefined);
      this.adapter.checks.push({ tool: step.name, verdict });
      if (!verdict.allowed) {
        // The engine answers a refused request itself; the agent is told verdict.message.
        this.emit({ type: 'tool.invoke.request', payload: request }, parent);
        return true;
      }
    }
    this.emit({ type: 'tool.invoke.request', payload: request }, parent);
    if (step.permission) {
      const { paths, named = true } = step.permission;
      const verdict = await this.host.askPermission({
        call: { tool_name: step.name, paths },
        input,
        scope: { tool_name: step.name, path_glob: 'src/**' },
        scopeText: `${step.name} on src/**`,
        ...(named ? { invocation_id: id } : {}),
      });
      if (!verdict.allowed) {
        this.emit({ type: 'tool.invoke.result', payload: { invocation_id: id, tool_name: step.name, status: 'error', output: 'Permission denied', output_type: 'text' } }, parent);
        return true;
      }
    }
    if (step.ask) {
      const answer = await this.host.requestInteraction(
        {
          interaction_id: randomUUID(),
          interaction_type: 'PERMISSION',
          question_text: `Allow ${step.name}?`,
          timeout_sec: 60,
          options: [
            { value: 'allow', label: 'Allow' },
            { value: 'deny', label: 'Deny' },
          ],
          context: { tool_name: step.name, tool_input: input },
          ...step.ask,
        } as PayloadOf<'agent.interaction.request'>,
        parent ? { metadata: { subagent_context: { parent_invocation_id: parent.id, depth: 0 } } } : undefined,
      );
      this.adapter.answers.push({ step: step.name, answer });
      if (answer.kind !== 'response' || answer.selected_value !== 'allow') {
        if (answer.kind === 'cancelled') return false;
        this.emit({ type: 'tool.invoke.result', payload: { invocation_id: id, tool_name: step.name, status: 'error', output: 'Permission denied', output_type: 'text' } }, parent);
        return true;
      }
    }
    (step.stream ?? []).forEach((chunk, sequence) =>
      this.emit({ type: 'tool.invoke.stream', payload: { invocation_id: id, tool_name: step.name, stream_type: 'stdout', chunk, sequence } }, parent),
    );
    if (step.untilAborted) {
      await aborted(this.signal);
      // A tool that honours the signal reports how it ended; the engine marks it cancelled.
      this.emit({ type: 'tool.invoke.result', payload: { invocation_id: id, tool_name: step.name, status: 'error', output: 'killed', output_type: 'text' } }, parent);
      return false;
    }
    const result = { invocation_id: id, tool_name: step.name, status: step.status ?? 'success', output: step.output ?? `${step.name} done`, output_type: step.output_type ?? 'text' };
    if (step.output_type === null) delete (result as { output_type?: unknown }).output_type;
    this.emit({ type: 'tool.invoke.result', payload: result as PayloadOf<'tool.invoke.result'> }, parent);
    return true;
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
