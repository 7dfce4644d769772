// An AgentSession on a scripted adapter, with its output recorded and time driven by hand.
import { buildFrame } from '../../src/protocol/build';
import type { Frame, FrameOf, FrameType, PayloadOf } from '../../src/protocol/frameTypes';
import { AgentSession, type AgentSessionOptions, type DeletedBy, type DeleteReason } from '../../src/session/engine';
import type { Logger } from '../../src/session/ports';
import type { ConnectionKind } from '../../src/session/connection';
import { ManualTimers } from './manualTimers';
import { ScriptedAdapter, type ScriptedAdapterOptions } from './scriptedAdapter';
import { until } from './settle';
import { registerStream } from './streamCheck';
import { EVERY_FEATURE } from '../../src/protocol/capabilities';

export interface LogLine {
  level: string;
  message: string;
}

export function recordingLogger(lines: LogLine[]): Logger {
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export class EngineHarness {
  readonly frames: Frame[] = [];
  /** Both directions in order: the engine's frames and the controls the test sent (validated after the test). */
  readonly wire: Frame[] = [];
  readonly logs: LogLine[] = [];
  readonly timers = new ManualTimers();
  ended?: { reason: DeleteReason; deleted_by: DeletedBy };
  readonly session: AgentSession;

  constructor(
    readonly adapter: ScriptedAdapter,
    options: Partial<AgentSessionOptions> = {},
  ) {
    this.session = new AgentSession({
      timers: this.timers,
      logger: recordingLogger(this.logs),
      ...options,
      adapter,
      out: (f) => {
        this.frames.push(f);
        this.wire.push(f);
        // The master's half of the §13.1 exchange: a peer that renders everything.
        if (f.type === 'session.capabilities') this.wire.push(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: f.session_id }) as unknown as Frame);
      },
      onEnded: (info) => (this.ended = info),
    });
    registerStream('EngineHarness', () => this.wire);
  }

  static async start(adapterOptions: ScriptedAdapterOptions = {}, options: Partial<AgentSessionOptions> = {}): Promise<EngineHarness> {
    const h = new EngineHarness(new ScriptedAdapter(adapterOptions), options);
    await h.session.start();
    return h;
  }

  types(from = 0): string[] {
    return this.frames.slice(from).map((f) => f.type);
  }

  ofType<T extends FrameType>(type: T, from = 0): FrameOf<T>[] {
    return this.frames.slice(from).filter((f) => f.type === type) as unknown as FrameOf<T>[];
  }

  /** Build a frame from a peer and hand it to the engine; returns it (for parent_id checks). */
  control<T extends FrameType>(type: T, payload: PayloadOf<T>, kind: ConnectionKind = 'remote'): FrameOf<T> {
    const frame = buildFrame(type, payload, { session_id: this.session.session_id });
    this.wire.push(frame as unknown as Frame);
    this.session.handle(frame as unknown as Frame, { connection_id: 'peer', kind });
    return frame;
  }

  prompt(text = 'hello', extra: Partial<PayloadOf<'control.prompt.request'>> = {}): FrameOf<'control.prompt.request'> {
    return this.control('control.prompt.request', { prompt_text: text, ...extra });
  }

  /** Wait until the n-th session.turn.end (1-based) is out, plus its usage. */
  async turnEnded(n = 1): Promise<void> {
    await until(() => this.ofType('session.turn.end').length >= n && !this.session.turnActive, `turn ${n} to end`);
  }

  /** Run one prompt to the end; returns the index of its first frame. */
  async runTurn(text = 'hello', extra: Partial<PayloadOf<'control.prompt.request'>> = {}): Promise<number> {
    const from = this.frames.length;
    const n = this.ofType('session.turn.end').length + 1;
    this.prompt(text, extra);
    await this.turnEnded(n);
    return from;
  }

  errors(from = 0): string[] {
    return this.ofType('session.error', from).map((f) => f.payload.error_code);
  }
}
