// The sessions of this editor window (or of `rawp serve`): one hub, one registry, and per session
// ONE history buffer (sessionHistory.ts) that serves §13.7 reattach, the chat view's replay and
// persistence — its sink is the session's journal (journal/), which survives a window reload and a
// `kill -9` alike. A hidden local "recorder" connection of the hub feeds the host's events. No
// vscode here: the extension wires settings, storage and the webview around it, and tests drive it
// with plain Node.
import { buildFrame, newId } from '../protocol/build';
import type { FrameOf } from '../protocol/frameTypes';
import { EVERY_FEATURE, type FeatureSet } from '../protocol/capabilities';
import type { SessionSummary } from '../protocol/webviewMessages';
import type { Connection, WireFrame } from '../session/connection';
import type { AgentSessionOptions } from '../session/engine';
import type { BufferStatus, HistoryBuffer, HistoryOptions } from '../session/history';
import { Hub, type SessionOrigin } from '../session/hub';
import type { Clock, Logger } from '../session/ports';
import { SessionRegistry } from '../session/registry';
import { PermissionBroker, type PermissionRule } from '../session/permissions';
import { selectAgent, type AgentChoice } from './agentChoice';
import { Journal, type RestoredSession } from './journal/journal';
import { migrateSnapshots } from './journal/migrateSnapshots';
import type { SessionJournal } from './journal/sessionJournal';
import { agentSessionIdOf } from './restore';
import { SessionAdmission } from './promptAdmission';
import { prepareHistory, splitRestored, type SessionHistory } from './sessionHistory';
import type { SessionRulesPort } from './sessionRules';
import { SessionCommands } from './sessionCommands';
import { AjvSchemaValidator } from './jsonSchemaValidator';
import { join } from 'node:path';
import { FileStore } from './files/fileStore';
import { sessionFiles } from './files/sessionFiles';
import type { FileTransferPayload, OutgoingFile } from '../session/contextFiles';
import { createCheckpoints, type HostCheckpointOptions } from './checkpoints/hostCheckpoints';
import type { SessionCheckpoints } from './checkpoints/sessionCheckpoints';
import { AttachmentCopies } from './attachmentCopies';
import { createSharedToolState, type SharedToolState } from '../tools/toolkit';
import { NodeFsBackend } from '../workspace/nodeFsBackend';

/** A local view renders every frame type, so it announces every feature (§12.2.1). */
export const LOCAL_VIEW_FEATURES: FeatureSet = EVERY_FEATURE;

export interface SessionHostOptions {
  logger: Logger;
  agents: () => readonly AgentChoice[];
  /** `auto` or an agent id (setting rawp.defaultAgent). */
  defaultAgent: () => string;
  workspacePath: string;
  history?: () => HistoryOptions;
  /**
   * Where sessions are journaled (journal/, docs/decisions/120-123): the editor's storage folder, or
   * `rawp serve --state-dir`. Absent: sessions live in memory only.
   */
  state?: {
    dir: string;
    budgetBytes?: number;
    /** Where the journal's warnings go (default: `logger`). */
    logger?: Logger;
    /** A folder of the editor's older session snapshots, carried over once (migrateSnapshots.ts). */
    migrateFrom?: string;
  };
  /** The permission rules store's session rules: journaled with their session, back on restore. */
  sessionRules?: SessionRulesPort;
  /** §16.1 file search, served for every session. */
  fileSearch?: AgentSessionOptions['fileSearch'];
  /** Why no agent may run right now (Restricted Mode), or undefined. */
  blocked?: () => string | undefined;
  clock?: Clock;
  /** Settles when agent detection is done (a new session waits, so `auto` sees every agent). */
  agentsReady?: () => Promise<void>;
  /** Slash-command discovery: the home folder and workspace folders (absent: no discovery). */
  commands?: { home: string; workspaceFolders: readonly string[]; watch?: boolean };
  /** `local` (the editor: visible to masters once shared, §2.4) or `remote` (`rawp serve`: shared). */
  origin?: SessionOrigin;
  /**
   * The one permission policy and rules store of every session (hostPermissionBroker(): the
   * settings' timeout, the rules file). Absent: in memory, with the default policy.
   */
  permissions?: PermissionBroker;
  /**
   * The §4.5.1 file store (files/): kept in `dir`, by default the state folder's `files/`; without
   * either, no files are stored and adapters' context-file reads are refused. `maxBytes`: the
   * size limit (rawp.files.maxBytes, --max-file-bytes; default 20 MB).
   */
  files?: {
    dir?: string;
    maxBytes?: number;
    workspaceRoots?: () => readonly string[];
    /** Host names besides loopback whose absolute /v1/files URLs are this host's (`--public-host`). */
    ownHostNames?: () => ReadonlySet<string>;
  };
  /**
   * Checkpoints of every turn of every agent (issue 17, src/host/checkpoints): on when the host
   * has a state folder (kept in `<state>/checkpoints`) or a `dir` is given; `false` turns them off.
   */
  checkpoints?: HostCheckpointOptions;
  /**
   * The tool state every agent of this host shares (one read-before-write ledger, issue 17 item 4):
   * handed to each agent the host creates, and a rewind makes its ledger forget the files it
   * restored, for every session at once. The editor passes its own (the VS Code backend); default:
   * one on the workspace's files.
   */
  toolState?: () => SharedToolState;
}

interface Entry {
  history: HistoryBuffer<WireFrame>;
  journal?: SessionJournal;
  /** The newest frame from before a restart, if the session was restored (the view's replay split). */
  restoredThrough?: string;
  agent: string;
  recorderId: string;
  commands?: SessionCommands;
  /** Where every control.prompt.request of the session is admitted (promptAdmission.ts). */
  admission?: SessionAdmission;
  /** No name was asked for: the session carries its agent's display name (a switch renames it). */
  defaultName: boolean;
}

/** What `switchAgent` did (issue 15 Why 5, decision 361). */
export type AgentSwitch =
  /** The session already runs that agent. */
  | { kind: 'unchanged'; session_id: string }
  /** The session was empty: it was replaced by one with the chosen agent (this id). */
  | { kind: 'replaced'; session_id: string; agent: string }
  /** The session has history and keeps its agent: offer a new session with the chosen one. */
  | { kind: 'has_history'; session_id: string; agent: string };

export type HostEvent =
  | { kind: 'sessions' }
  | { kind: 'frame'; session_id: string; frame: WireFrame }
  | { kind: 'ended'; session_id: string }
  /** `/clear` typed in a view of ours (a local connection): that view starts a new conversation. */
  | { kind: 'clear'; session_id: string; connection_id: string };

export class SessionHost {
  readonly hub: Hub;
  readonly registry: SessionRegistry;
  /** Every session's permission asks go through this; its rules are what the settings list shows. */
  readonly permissions: PermissionBroker;
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  /** Local copies of attachments for agents that take paths (Codex --image), per session. */
  private readonly attachmentCopies = new AttachmentCopies();
  private disposed = false;
  private journal?: Journal | null;
  private store?: FileStore | null;
  /** Checkpoints and rewind (undefined when off); the review UI calls `checkpoints.service` and `restore`. */
  readonly checkpoints?: SessionCheckpoints;

  private sharedTools?: SharedToolState;

  /** The tool state the host's agents share (issue 17 item 4), built on first use. */
  toolState(): SharedToolState {
    return (this.sharedTools ??= this.options.toolState?.() ?? createSharedToolState({ fs: new NodeFsBackend([this.options.workspacePath]) }));
  }

  constructor(private readonly options: SessionHostOptions) {
    // Sessions stamp strictly increasing timestamps by default (§2.3); a clock is only for tests.
    const clock = options.clock ? { clock: options.clock } : {};
    this.hub = new Hub({ logger: options.logger, ...clock });
    this.permissions = options.permissions ?? new PermissionBroker();
    this.registry = new SessionRegistry(this.hub, {
      ...clock,
      permissions: this.permissions,
      logger: options.logger,
      ...(options.fileSearch ? { fileSearch: options.fileSearch } : {}),
      // §11 structured output for every agent: the engine validates with ajv (decision 322).
      schemaValidator: new AjvSchemaValidator(),
    });
    // A rewind makes every session's ledger forget what it restored: the next edit needs a fresh read.
    this.checkpoints = createCheckpoints({ ...options, ledger: () => this.toolState().ledger?.policy.ledger }, this.hub, this.registry);
    // The session rules of the host's one store survive a restart with their session (item 6).
    const rules = options.sessionRules ?? this.permissions.rules;
    // A rule given or revoked: the sessions' index entries follow (a no-op when nothing changed).
    rules?.onChange(() => {
      for (const id of this.entries.keys()) this.journal?.update(id, { session_rules: rules.of(id) });
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

  /**
   * The state folder's journal, opened (and locked) on first use. Throws when it cannot be opened
   * (e.g. another host holds its lock); `rawp serve` reports that and stops.
   */
  openJournal(): Journal | undefined {
    if (this.journal !== undefined) return this.journal ?? undefined;
    const state = this.options.state;
    if (!state || this.disposed) return undefined;
    this.journal = null;
    this.journal = Journal.open({ dir: state.dir, logger: state.logger ?? this.options.logger, ...(state.budgetBytes ? { budgetBytes: state.budgetBytes } : {}) });
    return this.journal;
  }

  /** The journal, or undefined (with one error logged) when there is none or it cannot be opened. */
  private journalOrNone(): Journal | undefined {
    try {
      return this.openJournal();
    } catch (e) {
      this.options.logger.error('sessions will not be kept across restarts: the state folder could not be opened', { error: String(e) });
      return undefined;
    }
  }

  /**
   * The §4.5.1 file store, opened on first use (undefined when the host has no folder for it, or
   * it could not be opened — logged once).
   */
  get fileStore(): FileStore | undefined {
    if (this.store !== undefined) return this.store ?? undefined;
    const dir = this.options.files?.dir ?? (this.options.state ? join(this.options.state.dir, 'files') : undefined);
    this.store = null;
    if (!dir || this.disposed) return undefined;
    try {
      this.store = FileStore.open({ dir, logger: this.options.logger, ...(this.options.files?.maxBytes !== undefined ? { maxBytes: this.options.files.maxBytes } : {}) });
    } catch (e) {
      this.options.logger.error('files cannot be exchanged: the file store could not be opened', { dir, error: String(e) });
    }
    return this.store ?? undefined;
  }

  /**
   * Offer a file to the session's connections (§4.5.1 direction `download`): stored, then
   * announced with `agent.file.transfer` through the session (checksum and file_url set).
   */
  async publishFile(session_id: string, file: OutgoingFile): Promise<FileTransferPayload> {
    const session = this.registry.get(session_id);
    if (!session) throw new Error(`no session ${session_id}`);
    return session.publishFile(file);
  }

  /** Bring back the sessions a previous process left: closed where they stopped (§7.8.2), running again. */
  async restoreAll(): Promise<string[]> {
    const journal = this.journalOrNone();
    if (!journal) return [];
    const from = this.options.state?.migrateFrom;
    if (from) migrateSnapshots(from, journal, this.options.state?.logger ?? this.options.logger);
    const restored: string[] = [];
    const kept = journal.restore();
    // Files of sessions deleted while no host ran go now; the others' stay with them.
    this.fileStore?.prune(new Set([...kept.map((r) => r.meta.session_id), ...this.entries.keys()]));
    for (const r of kept) {
      if (this.entries.has(r.meta.session_id)) continue;
      try {
        restored.push(await this.start({ agent: r.meta.agent, name: r.meta.name, session_id: r.meta.session_id, restored: r, resumeSessionId: agentSessionIdOf(r.frames) }));
      } catch (e) {
        this.options.logger.warn('a stored session could not be restored', { session_id: r.meta.session_id, error: String(e) });
      }
    }
    return restored;
  }

  private async start(req: { agent?: string; name?: string; session_id?: string; restored?: RestoredSession; resumeSessionId?: string }): Promise<string> {
    const blocked = this.options.blocked?.();
    if (blocked) throw new Error(blocked);
    await this.options.agentsReady?.();
    const choice = selectAgent(this.options.agents(), req.agent ?? this.options.defaultAgent());
    if (!choice) throw new Error('no agent is available');
    const session_id = req.session_id ?? newId();
    // A restored session of the same agent continues the agent's own conversation where it can.
    const adapter = choice.create({ toolState: this.toolState(), ...(req.resumeSessionId && choice.id === req.agent ? { resumeSessionId: req.resumeSessionId } : {}) });
    const origin: SessionOrigin = this.options.origin ?? 'local';
    const h = this.history({
      session_id,
      name: req.name ?? adapter.info.displayName,
      agent: choice.id,
      created_at: req.restored?.meta.created_at ?? new Date().toISOString(),
      origin,
      shared: origin !== 'local',
      ...(req.restored?.meta.session_rules ? { session_rules: req.restored.meta.session_rules } : {}),
    }, req.restored);
    const entry: Entry = { history: h.history, journal: h.journal, restoredThrough: h.restoredThrough, agent: choice.id, recorderId: `recorder:${session_id}`, defaultName: req.name === undefined };
    const cmdOptions = this.options.commands;
    if (cmdOptions) {
      entry.commands = new SessionCommands({
        ...cmdOptions,
        send: (payload) => entry.admission?.send(payload),
        report: (error, where) => this.options.logger.warn(`slash commands: ${where}`, { error: String(error) }),
      });
      entry.admission = new SessionAdmission(session_id, entry.commands, {
        release: (frame) => this.hostFrame(session_id, frame),
        rename: (name) => this.registry.rename(session_id, name, 'client'),
        cancelTurn: () => this.cancelTurn(session_id),
        clear: (connection_id) => {
          const local = this.hub.connections(session_id).some((c) => c.id === connection_id && c.kind === 'local');
          if (local) this.emit({ kind: 'clear', session_id, connection_id });
          return local;
        },
      }, {
        source: () => this.registry.get(session_id)?.contextFiles,
        support: () => this.registry.get(session_id)?.attachments,
        agentName: () => adapter.info.displayName,
      });
    }
    this.entries.set(session_id, entry);
    const store = this.fileStore;
    const own = this.options.files?.ownHostNames;
    const files = store ? sessionFiles({ session_id, store, workspaceRoots: this.options.files?.workspaceRoots ?? (() => [this.options.workspacePath]), ...(own ? { ownHostNames: own } : {}) }) : undefined;
    try {
      await this.registry.create({
        adapter: entry.commands ? entry.commands.wrap(adapter) : adapter,
        origin,
        session_id,
        name: req.name,
        workspacePath: this.options.workspacePath,
        historyBuffer: h.history,
        // A restored session's turns go on from where the previous process stopped (§7.5.1).
        engine: { ...h.engine, ...(entry.admission ? { admission: entry.admission } : {}), ...(files ? { contextFiles: files.contextFiles, files: files.files } : {}), ...(this.checkpoints ? { turnHooks: this.checkpoints.hooks() } : {}), localCopy: (file) => this.attachmentCopies.copy(session_id, file) },
      });
    } catch (e) {
      entry.commands?.dispose();
      this.entries.delete(session_id);
      // A new session that never started leaves nothing; a restored one is tried again next time.
      if (req.restored) entry.journal?.close();
      else {
        this.journal?.remove(session_id);
        this.store?.removeSession(session_id);
      }
      throw e;
    }
    // Before anyone can prompt it: what the user allowed "for this session" still holds.
    if (req.restored?.meta.session_rules) (this.options.sessionRules ?? this.permissions.rules).restore(session_id, req.restored.meta.session_rules);
    this.hub.attach(session_id, this.recorder(session_id, entry), { history: false });
    this.emit({ kind: 'sessions' });
    return session_id;
  }

  private recorder(session_id: string, entry: Entry): Connection {
    return {
      id: entry.recorderId,
      kind: 'local',
      features: LOCAL_VIEW_FEATURES,
      send: (frame: WireFrame) => {
        // Deferred: a prompt the queue releases on turn.end must not overtake that turn.end on the
        // other connections (this runs inside the hub's fan-out of it).
        if (entry.commands && 'payload' in frame) queueMicrotask(() => entry.commands?.observe(frame as FrameOf<'session.turn.start'>));
        if (frame.type === 'session.renamed') {
          entry.defaultName = false;
          this.journal?.update(session_id, { name: frame.payload.name });
        }
        this.emit({ kind: 'frame', session_id, frame });
        if (frame.type === 'session.renamed' || frame.type === 'agent.state.changed') this.emit({ kind: 'sessions' });
      },
      close: () => {
        // The hub closes every connection when the session ends (§7.5.3 order already done).
        this.entries.delete(session_id);
        entry.commands?.dispose();
        this.attachmentCopies.release(session_id);
        // Deleted (§7.7): its journal goes. A host shutting down keeps them for the next start.
        if (!this.disposed) {
          this.journal?.remove(session_id);
          this.store?.removeSession(session_id);
        }
        if (!this.disposed) this.checkpoints?.service.forgetSession(session_id);
        this.emit({ kind: 'ended', session_id });
        this.emit({ kind: 'sessions' });
      },
    };
  }

  /** The session's one history buffer, journaled when the host has a state folder. */
  private history(meta: Parameters<typeof prepareHistory>[0]['meta'], restored: RestoredSession | undefined): SessionHistory {
    const base = { meta, ...(this.options.history ? { options: this.options.history() } : {}), ...(this.options.clock ? { clock: this.options.clock } : {}) };
    const journal = this.journalOrNone();
    try {
      return prepareHistory({ ...base, journal, restored });
    } catch (e) {
      this.options.logger.error('this session is not journaled: its journal could not be opened', { session_id: meta.session_id, error: String(e) });
      return prepareHistory({ ...base, restored });
    }
  }

  /**
   * A frame a view of ours sent on its hub connection. It goes to the hub like a master's: the hub
   * validates it and passes every prompt through the session's admission (promptAdmission.ts).
   */
  fromView(connection_id: string, raw: unknown): void {
    this.hub.receive(connection_id, raw);
  }

  /**
   * A control frame the host itself sends (palette commands, prompts the queue releases): logged,
   * then into the hub as if from the recorder, so every view and master sees it once. Already
   * admitted: a released prompt does not pass the pipeline twice.
   */
  hostFrame(session_id: string, frame: WireFrame): boolean {
    const entry = this.entries.get(session_id);
    if (!entry) return false;
    this.hub.receive(entry.recorderId, frame, { admitted: true });
    return true;
  }

  /** §6.1.2: cancel the session's running turn; false when none runs. */
  cancelTurn(session_id: string): boolean {
    const turn = this.registry.get(session_id)?.currentTurnId;
    if (!turn) return false;
    return this.hostFrame(session_id, buildFrame('control.prompt.cancel', { target_turn_id: turn, reason: 'user_cancelled' }, { session_id }));
  }

  /** VS Code's workspace folders changed: every session's slash-command discovery follows. */
  setWorkspaceFolders(folders: readonly string[]): void {
    if (this.options.commands) this.options.commands = { ...this.options.commands, workspaceFolders: [...folders] };
    for (const [id, e] of this.entries) {
      e.commands?.service.setWorkspaceFolders(folders).catch((err: unknown) => this.options.logger.warn('slash commands: refresh after a folder change failed', { session_id: id, error: String(err) }));
    }
  }

  /** The session's history: every frame its connections saw, within the budget (§7.1.1). */
  log(session_id: string): HistoryBuffer<WireFrame> | undefined {
    return this.entries.get(session_id)?.history;
  }

  /** The kept frames, split where a previous process stopped (the view marks that point, §7.8.2). */
  replay(session_id: string): { restored: WireFrame[]; live: WireFrame[]; buffer_status: BufferStatus } | undefined {
    const entry = this.entries.get(session_id);
    // §7.1.1: what the byte budgets (ring, journal) no longer hold is counted, so the view can say so.
    return entry ? { ...splitRestored(entry.history, entry.restoredThrough), buffer_status: entry.history.upTo().buffer_status } : undefined;
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

  /** Every permission rule, whichever agent's ask created it (the settings list, issue 11 item 4). */
  permissionRules(): PermissionRule[] {
    return this.permissions.rules.list();
  }

  revokePermissionRule(id: string): boolean {
    return this.permissions.rules.revoke(id);
  }

  rename(session_id: string, name: string): boolean {
    return this.registry.rename(session_id, name, 'client');
  }

  /** The agents sessions can be started with (the pickers of the view and of remote masters). */
  agents(): { id: string; name: string; available: boolean; unavailable_reason?: string }[] {
    return this.options.agents().map(({ id, name, available, unavailable_reason }) => ({ id, name, available, ...(unavailable_reason ? { unavailable_reason } : {}) }));
  }

  /** Has anyone prompted this session (a prompt or a turn in its history)? */
  isEmpty(session_id: string): boolean {
    const entry = this.entries.get(session_id);
    if (!entry) return false;
    return !entry.history.all().some((f) => f.type === 'control.prompt.request' || f.type === 'session.turn.start');
  }

  /**
   * Another agent for a session, the same for the editor's view and any other caller (issue 15
   * Why 5, decision 361). A session nobody has prompted yet is replaced by one of the chosen agent
   * (its given name kept, shared if it was), so the chat in front of the user runs that agent; a
   * session with history keeps its agent, and the caller offers a new session with the other one.
   */
  async switchAgent(session_id: string, agent: string): Promise<AgentSwitch> {
    const entry = this.entries.get(session_id);
    if (!entry) throw new Error(`there is no session ${session_id}`);
    const choice = selectAgent(this.options.agents(), agent);
    if (!choice || choice.id !== agent) throw new Error(`the agent ${agent} is not available`);
    if (entry.agent === agent) return { kind: 'unchanged', session_id };
    if (!this.isEmpty(session_id)) return { kind: 'has_history', session_id, agent };
    const shared = this.hub.isShared(session_id);
    const name = entry.defaultName ? undefined : this.registry.get(session_id)?.name;
    // The new one first: if the agent cannot start, the old session is still there.
    const replacement = await this.start({ agent, ...(name !== undefined ? { name } : {}) });
    if (shared) this.hub.share(replacement);
    await this.delete(session_id);
    return { kind: 'replaced', session_id: replacement, agent };
  }

  /** End a session (§7.5.3); a master's DELETE /v1/sessions/{id} says so in session.deleted. */
  delete(session_id: string, by: 'client' | 'master' = 'client'): Promise<boolean> {
    return by === 'master' ? this.registry.delete(session_id, 'master_request', 'master') : this.registry.delete(session_id, 'user_request', 'client');
  }

  /**
   * Window closing (or `rawp serve` stopping): journals are flushed and closed first, so the
   * shutdown's own clean-up frames are not journaled and the sessions come back on the next start.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.journal?.close();
    await this.registry.disposeAll();
    this.attachmentCopies.releaseAll();
    // A snapshot still running (the first one of a big workspace takes seconds) would write into the
    // state folder after we returned: wait for it, bounded, so shutdown never hangs on git.
    this.checkpoints?.dispose();
    if (this.checkpoints) await Promise.race([this.checkpoints.service.idle(), new Promise((r) => setTimeout(r, 10_000).unref())]);
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
