// Frames for `rawp convert`: a captured native transcript has no engine behind it, so this writer
// does the engine's framing in the small — the §13.1 opening (capabilities, catalog, commands,
// idle), turn start/end with `session.usage` right after the end (§7.5.2), and closing whatever a
// truncated capture left open — so the result passes `rawp validate`. Each converter feeds it
// AgentEvents, exactly what its live adapter emits.
import type { AgentCapabilities, AgentEvent, AgentInfo, CatalogDiagnostic, CatalogTool, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import { FrameFactory, newId, systemClock, type Clock } from '../../protocol/build';
import { PROTOCOL_VERSION } from '../../protocol/envelope';
import type { Frame, FrameType, PayloadOf } from '../../protocol/frameTypes';
import type { Metadata } from '../../protocol/envelope';

export interface SessionOpening {
  capabilities: AgentCapabilities;
  tools: CatalogTool[];
  diagnostics?: CatalogDiagnostic[];
  commands: CommandEntry[];
}

export interface FrameWriterOptions {
  info: Pick<AgentInfo, 'adapter_type'>;
  session_id?: string;
  clock?: Clock;
  /** The opening to use when the transcript starts without one (e.g. a capture cut at the front). */
  fallbackOpening(): SessionOpening;
}

interface OpenTurn {
  turn_id: string;
  tools: Map<string, { tool_name: string; metadata?: Metadata }>;
  text: Map<string, { content_index: number; metadata?: Metadata }>;
  thinking: Map<string, { content_index: number; metadata?: Metadata }>;
  toolCount: number;
}

/** Where the frames go while a conversion streams (decision 726); set by withFrameSink. */
export type FrameSink = (frame: Frame) => void;
let currentSink: FrameSink | undefined;

/**
 * Runs `convert` with every FrameWriter it makes handing each frame to `sink` as it is made, not
 * keeping it (`frames` stays empty): `rawp convert` writes frames while it reads. The converters
 * make their writer themselves, so the sink reaches them this way rather than as an argument.
 */
export function withFrameSink<T>(sink: FrameSink, convert: () => T): T {
  const before = currentSink;
  currentSink = sink;
  try {
    return convert();
  } finally {
    currentSink = before;
  }
}

export class FrameWriter {
  /** Every frame made, in order; empty when the writer was made under withFrameSink. */
  readonly frames: Frame[] = [];
  private readonly sink = currentSink;
  private readonly factory: FrameFactory;
  private opened = false;
  private turn: OpenTurn | undefined;
  private turnIndex = 0;
  private costUsd = 0;
  private catalogJson = '';
  private commandsJson = '';

  constructor(private readonly options: FrameWriterOptions) {
    this.factory = new FrameFactory(options.session_id ?? newId(), options.clock ?? systemClock);
  }

  get session_id(): string {
    return this.factory.session_id;
  }

  get inTurn(): boolean {
    return this.turn !== undefined;
  }

  /** §13.1: capabilities first, then the catalog, the commands and `idle`. Later calls republish what changed. */
  open(opening: SessionOpening): void {
    if (!this.opened) {
      this.opened = true;
      const features = { ...opening.capabilities.features, adapter_type: this.options.info.adapter_type };
      if (features.subagent === true && features.subagent_context === undefined) features.subagent_context = true;
      const caps: PayloadOf<'session.capabilities'> = { protocol_version: PROTOCOL_VERSION, supported_namespaces: ['agent', 'tool', 'session', 'control'], features };
      if (opening.capabilities.extensions && Object.keys(opening.capabilities.extensions).length) caps.extensions = opening.capabilities.extensions;
      this.push('session.capabilities', caps);
      this.publishCatalog(opening.tools, opening.diagnostics);
      this.publishCommands(opening.commands);
      this.push('agent.state.changed', { previous_state: 'x-rawp.starting', current_state: 'idle', reason: 'session ready' });
      return;
    }
    this.publishCatalog(opening.tools, opening.diagnostics);
    this.publishCommands(opening.commands);
  }

  /** §5.4.1: (re)publish the catalog when it changed. */
  publishCatalog(tools: CatalogTool[], diagnostics?: CatalogDiagnostic[]): void {
    const json = JSON.stringify([tools, diagnostics ?? []]);
    if (json === this.catalogJson) return;
    this.catalogJson = json;
    this.push('tool.catalog.publish', diagnostics?.length ? { tools, diagnostics } : { tools });
  }

  publishCommands(commands: CommandEntry[]): void {
    const json = JSON.stringify(commands);
    if (json === this.commandsJson) return;
    this.commandsJson = json;
    this.push('agent.commands.publish', { commands });
  }

  startTurn(mode: PayloadOf<'session.turn.start'>['mode'] = 'default'): void {
    if (this.turn) return;
    if (!this.opened) this.open(this.options.fallbackOpening());
    const turn_id = newId();
    this.turn = { turn_id, tools: new Map(), text: new Map(), thinking: new Map(), toolCount: 0 };
    this.push('session.turn.start', { turn_id, turn_index: this.turnIndex++, mode });
  }

  /** One adapter event. Turn content outside a turn starts one (a capture shows no prompts). */
  event(e: AgentEvent): void {
    if (!this.opened) this.open(this.options.fallbackOpening());
    const turnContent = e.type.startsWith('agent.text') || e.type.startsWith('agent.thinking') || e.type.startsWith('tool.invoke') || e.type.startsWith('agent.subagent') || e.type === 'agent.interaction.request';
    if (turnContent) this.startTurn();
    const t = this.turn;
    const key = (content_index: number) => `${e.metadata?.subagent_context?.parent_invocation_id ?? ''}#${content_index}`;
    if (t) {
      switch (e.type) {
        case 'tool.invoke.request':
          t.tools.set(e.payload.invocation_id, { tool_name: e.payload.tool_name, metadata: e.metadata });
          t.toolCount++;
          break;
        case 'tool.invoke.result':
          t.tools.delete(e.payload.invocation_id);
          break;
        case 'agent.text.delta':
          t.text.set(key(e.payload.content_index), { content_index: e.payload.content_index, metadata: e.metadata });
          break;
        case 'agent.text.done':
          t.text.delete(key(e.payload.content_index));
          break;
        case 'agent.thinking.delta':
          t.thinking.set(key(e.payload.content_index), { content_index: e.payload.content_index, metadata: e.metadata });
          break;
        case 'agent.thinking.done':
          t.thinking.delete(key(e.payload.content_index));
          break;
        default:
          break;
      }
    }
    this.push(e.type, e.payload as never, e.metadata);
  }

  /** End the turn: close leftovers (§7.5.3 order), `session.turn.end`, then `session.usage` (§7.5.2). */
  endTurn(outcome: TurnOutcome): void {
    const t = this.turn;
    if (!t) return;
    const cancelled = outcome.stop_reason === 'cancelled';
    for (const [id, open] of [...t.tools].reverse()) {
      this.push('tool.invoke.result', { invocation_id: id, tool_name: open.tool_name, status: 'cancelled', output: cancelled ? 'Cancelled' : 'No result before the turn ended', output_type: 'text' }, open.metadata);
    }
    for (const b of t.thinking.values()) this.push('agent.thinking.done', { content_index: b.content_index }, b.metadata);
    for (const b of t.text.values()) this.push('agent.text.done', cancelled ? { content_index: b.content_index, is_cancelled: true } : { content_index: b.content_index }, b.metadata);
    this.push('session.turn.end', { turn_id: t.turn_id, stop_reason: outcome.stop_reason, tool_invocation_count: t.toolCount, ...(outcome.structured_output ? { structured_output: outcome.structured_output } : {}) });
    const u = outcome.usage;
    if (u?.cost_usd !== undefined) this.costUsd += Math.max(0, u.cost_usd);
    const usage: PayloadOf<'session.usage'> = {
      turn_id: t.turn_id,
      token_usage: { input_tokens: u?.input_tokens ?? 0, output_tokens: u?.output_tokens ?? 0 },
      cost_usage: { limit: -1, used: this.costUsd, unit: 'USD' },
      message_usage: { limit: -1, used: this.turnIndex, unit: 'COUNT' },
      time_to_reset: 'PT0S',
    };
    if (u?.cache_read_tokens !== undefined) usage.token_usage.cache_read_tokens = u.cache_read_tokens;
    if (u?.cache_write_tokens !== undefined) usage.token_usage.cache_write_tokens = u.cache_write_tokens;
    if (u?.thinking_tokens !== undefined) usage.token_usage.thinking_tokens = u.thinking_tokens;
    if (u?.context_capacity !== undefined || u?.context_used !== undefined) {
      usage.context_window = {};
      if (u.context_capacity !== undefined) usage.context_window.capacity = u.context_capacity;
      if (u.context_used !== undefined) usage.context_window.used = u.context_used;
      if (u.context_capacity && u.context_used !== undefined) usage.context_window.utilization = Math.min(1, u.context_used / u.context_capacity);
    }
    this.turn = undefined;
    this.push('session.usage', usage);
  }

  /** The transcript ended: a turn still open was cut off — say so and close it as an error. */
  finish(): Frame[] {
    if (!this.opened) this.open(this.options.fallbackOpening());
    if (this.turn) {
      this.push('agent.error', { error_code: 'TRANSCRIPT_TRUNCATED', message: 'The transcript ends in the middle of a turn', severity: 'warning', recoverable: true });
      this.endTurn({ stop_reason: 'error' });
    }
    return this.frames;
  }

  private push<T extends FrameType>(type: T, payload: PayloadOf<T>, metadata?: Metadata): void {
    const turn_id = this.turn?.turn_id;
    const frame = this.factory.make(type, payload, { ...(turn_id ? { turn_id } : {}), ...(metadata ? { metadata } : {}) }) as Frame;
    if (this.sink) this.sink(frame);
    else this.frames.push(frame);
  }
}
