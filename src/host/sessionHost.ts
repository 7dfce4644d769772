// The sessions of this editor window: one hub, one registry, and per session a transcript log fed
// by a hidden local "recorder" connection of the hub (so the log holds exactly what every other
// connection saw). The log is what a (re)opened chat view replays and what survives a window
// reload. No vscode here: the extension wires settings, storage and the webview around it, and
// tests drive it with plain Node.
import { buildFrame, newId } from '../protocol/build';
import type { FrameOf, PayloadOf } from '../protocol/frameTypes';
import { parseFrame } from '../protocol/parse';
import type { Routed } from '../commands';
import { EVERY_FEATURE, type FeatureSet } from '../protocol/capabilities';
import type { SessionSummary } from '../protocol/webviewMessages';
import type { Connection, WireFrame } from '../session/connection';
import type { AgentSessionOptions } from '../session/engine';
import type { HistoryOptions } from '../session/history';
import { Hub } from '../session/hub';
import type { Clock, Logger } from '../session/ports';
import { SessionRegistry } from '../session/registry';
import { selectAgent, type AgentChoice } from './agentChoice';
import { agentSessionIdOf, finalizeRestored } from './restore';
import { SessionCommands } from './sessionCommands';
import type { SessionStore } from './sessionStore';
import { TranscriptLog, type LoggedFrame } from './transcriptLog';

/** A local view renders every frame type, so it announces every feature (§12.2.1). */
export const LOCAL_VIEW_FEATURES: FeatureSet = EVERY_FEATURE;

export interface SessionHostOptions {
  logger: Logger;
  agents: () => readonly AgentChoice[];
  /** `auto` or an agent id (setting rawp.defaultAgent). */
  defaultAgent: () => string;
  workspacePath: string;
  history?: () => HistoryOptions;
  /** Byte budget of each session's kept transcript (setting rawp.persistence.maxBytesPerSession). */
  transcriptBytes?: () => number;
  store?: SessionStore;
  /** §16.1 file search, served for every session. */
  fileSearch?: AgentSessionOptions['fileSearch'];
  /** Why no agent may run right now (Restricted Mode), or undefined. */
  blocked?: () => string | undefined;
  clock?: Clock;
  /** Settles when agent detection is done (a new session waits, so `auto` sees every agent). */
  agentsReady?: () => Promise<void>;
  /** Slash-command discovery: the home folder and workspace folders (absent: no discovery). */
  commands?: { home: string; workspaceFolders: readonly string[]; watch?: boolean };
}

interface Entry {
  log: TranscriptLog;
  agent: string;
  recorderId: string;
  commands?: SessionCommands;
  /** Prompts the follow-up queue holds, by payload, with the frame the view sent (its id is kept). */
  held: WeakMap<object, FrameOf<'control.prompt.request'>>;
  /** The view frame being routed right now (a prompt the queue sends at once keeps its id). */
  routing?: { frame: FrameOf<'control.prompt.request'>; connection_id: string };
}

export type HostEvent =
  | { kind: 'sessions' }
  | { kind: 'frame'; session_id: string; frame: LoggedFrame }
  | { kind: 'ended'; session_id: string };

export class SessionHost {
  readonly hub: Hub;
  readonly registry: SessionRegistry;
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private disposed = false;

  constructor(private readonly options: SessionHostOptions) {
    // Sessions stamp strictly increasing timestamps by default (§2.3); a clock is only for tests.
    const clock = options.clock ? { clock: options.clock } : {};
    this.hub = new Hub({ logger: options.logger, ...clock });
    this.registry = new SessionRegistry(this.hub, {
      ...clock,
      logger: options.logger,
      ...(options.fileSearch ? { fileSearch: options.fileSearch } : {}),
    });
  }

  onEvent(listener: (e: HostEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Start a session with the chosen (or best available) agent; resolves with its id. */
  async create(request: { agent?: string; name?: string } = {}): Promise<string> {
    return this.start({ agent: request.agent, name: request.name });
  }

  /** Bring back the sessions of the previous window: finalized (§7.8) and running again. */
  async restoreAll(): Promise<string[]> {
    const store = this.options.store;
    if (!store) return [];
    const restored: string[] = [];
    for (const s of store.loadAll()) {
      if (this.entries.has(s.session_id)) continue;
      const synthetic = finalizeRestored(s.session_id, s.frames);
      try {
        const resumeSessionId = agentSessionIdOf(s.frames);
        restored.push(await this.start({ agent: s.agent, name: s.name, session_id: s.session_id, frames: [...s.frames, ...synthetic], resumeSessionId }));
      } catch (e) {
        this.options.logger.warn('a stored session could not be restored', { session_id: s.session_id, error: String(e) });
      }
    }
    return restored;
  }

  private async start(req: { agent?: string; name?: string; session_id?: string; frames?: LoggedFrame[]; resumeSessionId?: string }): Promise<string> {
    const blocked = this.options.blocked?.();
    if (blocked) throw new Error(blocked);
    await this.options.agentsReady?.();
    const choice = selectAgent(this.options.agents(), req.agent ?? this.options.defaultAgent());
    if (!choice) throw new Error('no agent is available');
    const session_id = req.session_id ?? newId();
    const log = new TranscriptLog(this.options.transcriptBytes?.() ?? 4 * 1024 * 1024, req.frames ?? []);
    const entry: Entry = { log, agent: choice.id, recorderId: `recorder:${session_id}`, held: new WeakMap() };
    const cmdOptions = this.options.commands;
    if (cmdOptions) {
      entry.commands = new SessionCommands({
        ...cmdOptions,
        send: (payload) => this.sendQueued(session_id, entry, payload),
        report: (error, where) => this.options.logger.warn(`slash commands: ${where}`, { error: String(error) }),
      });
    }
    this.entries.set(session_id, entry);
    try {
      // A restored session of the same agent continues the agent's own conversation where it can.
      const adapter = choice.create(req.resumeSessionId && choice.id === req.agent ? { resumeSessionId: req.resumeSessionId } : undefined);
      await this.registry.create({
        adapter: entry.commands ? entry.commands.wrap(adapter) : adapter,
        origin: 'local',
        session_id,
        name: req.name,
        workspacePath: this.options.workspacePath,
        ...(this.options.history ? { history: this.options.history() } : {}),
        // A restored session's turns go on from where the previous window stopped (§7.5.1).
        ...(req.frames ? { engine: { firstTurnIndex: nextTurnIndex(req.frames) } } : {}),
      });
    } catch (e) {
      entry.commands?.dispose();
      this.entries.delete(session_id);
      throw e;
    }
    this.hub.attach(session_id, this.recorder(session_id, entry));
    this.persist(session_id);
    this.emit({ kind: 'sessions' });
    return session_id;
  }

  private recorder(session_id: string, entry: Entry): Connection {
    return {
      id: entry.recorderId,
      kind: 'local',
      features: LOCAL_VIEW_FEATURES,
      send: (frame: WireFrame) => {
        const f = frame as unknown as LoggedFrame;
        entry.log.append(f);
        // Deferred: a prompt the queue releases on turn.end must not overtake that turn.end on the
        // other connections (this runs inside the hub's fan-out of it).
        if (entry.commands && 'payload' in frame) queueMicrotask(() => entry.commands?.observe(frame as FrameOf<'session.turn.start'>));
        this.persist(session_id);
        this.emit({ kind: 'frame', session_id, frame: f });
        if (frame.type === 'session.renamed' || frame.type === 'agent.state.changed') this.emit({ kind: 'sessions' });
      },
      close: () => {
        // The hub closes every connection when the session ends (§7.5.3 order already done).
        this.entries.delete(session_id);
        entry.commands?.dispose();
        if (!this.disposed) void this.options.store?.remove(session_id);
        this.emit({ kind: 'ended', session_id });
        this.emit({ kind: 'sessions' });
      },
    };
  }

  private persist(session_id: string): void {
    const store = this.options.store;
    const entry = this.entries.get(session_id);
    if (!store || !entry || this.disposed) return;
    store.schedule(session_id, () => {
      const s = this.registry.get(session_id);
      return { version: 1, session_id, name: s?.name ?? session_id, agent: entry.agent, created_at: s?.created_at ?? new Date().toISOString(), frames: entry.log.all() };
    });
  }

  /**
   * A frame the chat view sent on its hub connection. Prompts go through the slash-command
   * pipeline and the follow-up queue first (slash-commands §5, §8); everything else goes to the
   * hub as it is (which validates it and answers bad frames with session.error).
   */
  async fromView(session_id: string, connection_id: string, raw: Record<string, unknown>): Promise<Routed | undefined> {
    const entry = this.entries.get(session_id);
    const parsed = parseFrame(raw, { maxBytes: this.hub.maxFrameSize });
    if (!entry?.commands || parsed.kind !== 'accepted' || parsed.vendor || parsed.frame.type !== 'control.prompt.request' || parsed.frame.session_id !== session_id) {
      this.hub.receive(connection_id, raw);
      return undefined;
    }
    const frame = parsed.frame;
    const { prompt_text, input_type: _typed, ...extras } = frame.payload;
    const action = await entry.commands.route(prompt_text, extras);
    if (action.kind === 'control') {
      this.hub.receive(connection_id, buildFrame(action.type, action.payload as never, { session_id }));
      return { action };
    }
    if (action.kind !== 'prompt') return { action };
    // The queue sends synchronously when idle; `routing` tells sendQueued which frame that is.
    entry.routing = { frame, connection_id };
    try {
      const delivery = entry.commands.queue.submit(action.payload);
      if (delivery.status === 'queued') entry.held.set(action.payload, frame);
      return { action, delivery };
    } finally {
      entry.routing = undefined;
    }
  }

  /** The follow-up queue releases a prompt: now (during routing) or after the running turn. */
  private sendQueued(session_id: string, entry: Entry, payload: PayloadOf<'control.prompt.request'>): void {
    const routing = entry.routing;
    if (routing) {
      // Sent at once: the view's own frame (same id, so no view shows it twice), expanded payload.
      this.hub.receive(routing.connection_id, { ...routing.frame, payload });
      return;
    }
    const original = entry.held.get(payload);
    this.hostFrame(session_id, original ? { ...original, payload } : buildFrame('control.prompt.request', payload, { session_id }));
  }

  /**
   * A control frame the host itself sends (palette commands): logged, then into the hub as if
   * from the recorder, so every view and master sees it once.
   */
  hostFrame(session_id: string, frame: Record<string, unknown> & { message_id: string; type: string }): boolean {
    const entry = this.entries.get(session_id);
    if (!entry) return false;
    entry.log.append(frame);
    this.hub.receive(entry.recorderId, frame);
    return true;
  }

  /** VS Code's workspace folders changed: every session's slash-command discovery follows. */
  setWorkspaceFolders(folders: readonly string[]): void {
    if (this.options.commands) this.options.commands = { ...this.options.commands, workspaceFolders: [...folders] };
    for (const [id, e] of this.entries) {
      e.commands?.service.setWorkspaceFolders(folders).catch((err: unknown) => this.options.logger.warn('slash commands: refresh after a folder change failed', { session_id: id, error: String(err) }));
    }
  }

  log(session_id: string): TranscriptLog | undefined {
    return this.entries.get(session_id)?.log;
  }

  has(session_id: string): boolean {
    return this.entries.has(session_id) && this.registry.get(session_id) !== undefined;
  }

  list(): SessionSummary[] {
    return this.registry.list().map((s) => ({
      session_id: s.session_id,
      name: s.name,
      agent: s.agent,
      state: s.state,
      created_at: s.created_at,
      shared: s.shared,
      masters: this.hub.connections(s.session_id).filter((c) => c.kind === 'remote').length,
    }));
  }

  rename(session_id: string, name: string): boolean {
    return this.registry.rename(session_id, name, 'client');
  }

  delete(session_id: string): Promise<boolean> {
    return this.registry.delete(session_id, 'user_request', 'client');
  }

  /** Window closing: write what is pending, end agents without deleting their stored sessions. */
  async dispose(): Promise<void> {
    this.options.store?.flushSync();
    this.disposed = true;
    await this.registry.disposeAll();
    await this.options.store?.settled();
  }

  private emit(e: HostEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.options.logger.error('session host listener failed', { error: String(err) });
      }
    }
  }
}

/**
 * The next turn_index of a stored transcript: one past the highest main-agent turn it holds (the
 * log keeps a byte budget, so early turns may be gone: counting them would go backwards).
 */
export function nextTurnIndex(frames: readonly LoggedFrame[]): number {
  let next = 0;
  for (const f of frames) {
    if (f.type !== 'session.turn.start' || (f.metadata as { subagent_context?: unknown } | undefined)?.subagent_context) continue;
    const index = (f.payload as { turn_index?: unknown }).turn_index;
    if (typeof index === 'number' && index + 1 > next) next = index + 1;
  }
  return next;
}
