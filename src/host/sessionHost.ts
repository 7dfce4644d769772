// The sessions of this editor window (or of `rawp serve`): one hub, one registry, and per session
// ONE history buffer (sessionHistory.ts) that serves §13.7 reattach, the chat view's replay and
// persistence — its sink is the session's journal (journal/), which survives a window reload and a
// `kill -9` alike. A hidden local "recorder" connection of the hub feeds the host's events
// (sessionEntry.ts); the journal and the file store open on first use (hostStorage.ts). No
// vscode here: the extension wires settings, storage and the webview around it, and tests drive it
// with plain Node.
import { buildFrame, newId } from '../protocol/build';
import { agentSummaryOf, type AgentSummary, type SessionSummary } from '../protocol/webviewMessages';
import type { WireFrame } from '../session/connection';
import type { BufferStatus, HistoryBuffer } from '../session/history';
import { Hub, type SessionOrigin } from '../session/hub';
import { SessionRegistry } from '../session/registry';
import { PermissionBroker, type PermissionRule } from '../session/permissions';
import { selectAgent } from './agentChoice';
import type { Journal, RestoredSession } from './journal/journal';
import { migrateSnapshots } from './journal/migrateSnapshots';
import { agentSessionIdOf, continuedFromIn } from './restore';
import { SessionAdmission } from './promptAdmission';
import { splitRestored } from './sessionHistory';
import { SessionCommands } from './sessionCommands';
import { AjvSchemaValidator } from './jsonSchemaValidator';
import type { FileStore } from './files/fileStore';
import { sessionFiles } from './files/sessionFiles';
import type { FileTransferPayload, OutgoingFile } from '../session/contextFiles';
import { createCheckpoints } from './checkpoints/hostCheckpoints';
import type { SessionCheckpoints } from './checkpoints/sessionCheckpoints';
import { AttachmentCopies } from './attachmentCopies';
import { createSharedToolState, type SharedToolState } from '../tools/toolkit';
import { NodeFsBackend } from '../workspace/nodeFsBackend';
import { HostStorage } from './hostStorage';
import { notePromptName, recorderConnection, startingName, type RecorderHost, type SessionEntry } from './sessionEntry';
import type { AgentSwitch, HostEvent, SessionHostOptions } from './sessionHostOptions';
import { cleanSessionName } from '../protocol/sessionName';
import type { ContinuedFrom } from '../protocol/continuation';
import { continuingAdapter } from './continuation/continuingAdapter';
import type { Continuation, ContinueOptions } from './continuation/continuations';
import { hostContinuations } from './continuation/hostContinuations';

export { LOCAL_VIEW_FEATURES } from './sessionEntry';
export type { AgentSwitch, HostEvent, SessionHostOptions } from './sessionHostOptions';

export class SessionHost {
  readonly hub: Hub;
  readonly registry: SessionRegistry;
  /** Every session's permission asks go through this; its rules are what the settings list shows. */
  readonly permissions: PermissionBroker;
  private readonly entries = new Map<string, SessionEntry>();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  /** Local copies of attachments for agents that take paths (Codex --image), per session. */
  private readonly attachmentCopies = new AttachmentCopies();
  private disposed = false;
  /** The journal and the file store, each opened on first use (hostStorage.ts). */
  private readonly storage: HostStorage;
  /** Checkpoints and rewind (undefined when off); the review UI calls `checkpoints.service` and `restore`. */
  readonly checkpoints?: SessionCheckpoints;
  private sharedTools?: SharedToolState;

  /** Sessions an error ended, kept so the user can continue their conversation (decision 630). */
  readonly continuations = hostContinuations(this, this.entries, (req) => this.start(req), () => this.options, () => this.storage.journal?.dir);

  /** The tool state the host's agents share (issue 17 item 4), built on first use. */
  toolState(): SharedToolState {
    return (this.sharedTools ??= this.options.toolState?.() ?? createSharedToolState({ fs: new NodeFsBackend([this.options.workspacePath], { otherNames: this.options.workspaceOtherName !== undefined ? [this.options.workspaceOtherName] : [] }) }));
  }

  constructor(private readonly options: SessionHostOptions) {
    // Sessions stamp strictly increasing timestamps by default (§2.3); a clock is only for tests.
    const clock = options.clock ? { clock: options.clock } : {};
    this.storage = new HostStorage(options);
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
      for (const id of this.entries.keys()) this.storage.journal?.update(id, { session_rules: rules.of(id) });
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

  /** The state folder's journal, opened (and locked) on first use; throws when it cannot be (another host holds its lock). */
  openJournal(): Journal | undefined {
    return this.storage.openJournal();
  }

  /** The §4.5.1 file store, opened on first use (undefined when there is none; logged once). */
  get fileStore(): FileStore | undefined {
    return this.storage.fileStore();
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
    const journal = this.storage.journalOrNone();
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
        restored.push(await this.start({ agent: r.meta.agent, name: r.meta.name, session_id: r.meta.session_id, restored: r, resumeSessionId: r.meta.agent_session_id ?? agentSessionIdOf(r.frames), continuedFrom: continuedFromIn(r.frames) }));
      } catch (e) {
        this.options.logger.warn('a stored session could not be restored', { session_id: r.meta.session_id, error: String(e) });
      }
    }
    return restored;
  }

  private async start(req: { agent?: string; name?: string; session_id?: string; restored?: RestoredSession; resumeSessionId?: string; continuedFrom?: ContinuedFrom }): Promise<string> {
    const blocked = this.options.blocked?.();
    if (blocked) throw new Error(blocked);
    await this.options.agentsReady?.();
    const choice = selectAgent(this.options.agents(), req.agent ?? this.options.defaultAgent());
    if (!choice) throw new Error('no agent is available');
    const session_id = req.session_id ?? newId();
    // One line of visible text, or the agent's name (decision 566); a stored name is cleaned as well.
    const name = req.name === undefined ? undefined : cleanSessionName(req.name) || undefined;
    // A restored session of the same agent continues the agent's own conversation where it can.
    const resumeSessionId = req.resumeSessionId && choice.id === req.agent ? req.resumeSessionId : undefined;
    const adapter = continuingAdapter(choice.create({ toolState: this.toolState(), ...(resumeSessionId ? { resumeSessionId } : {}) }), req.continuedFrom);
    const origin: SessionOrigin = this.options.origin ?? 'local';
    const { defaultName, nameByPerson } = startingName(name, req.restored?.meta, adapter.info.displayName);
    const h = this.storage.history({
      session_id,
      name: name ?? adapter.info.displayName,
      name_by_person: nameByPerson,
      agent: choice.id,
      created_at: req.restored?.meta.created_at ?? new Date().toISOString(),
      origin,
      shared: origin !== 'local',
      ...(req.restored?.meta.session_rules ? { session_rules: req.restored.meta.session_rules } : {}),
      ...(resumeSessionId ? { agent_session_id: resumeSessionId } : {}),
    }, req.restored);
    const entry: SessionEntry = { history: h.history, journal: h.journal, restoredThrough: h.restoredThrough, agent: choice.id, recorderId: `recorder:${session_id}`, defaultName, namesFromPrompt: req.restored === undefined && this.options.namesFromPrompt !== false, ...(resumeSessionId ? { agentSessionId: resumeSessionId } : {}) };
    // §18.3: the id the agent names in a turn is kept with the session for the next restart.
    const onAgentSession = (id: string): void => {
      entry.agentSessionId = id;
      this.storage.journal?.update(session_id, { agent_session_id: id });
    };
    const cmdOptions = this.options.commands;
    if (cmdOptions) {
      entry.commands = new SessionCommands({
        ...cmdOptions,
        send: (payload) => entry.admission?.send(payload),
        report: (error, where) => this.options.logger.warn(`slash commands: ${where}`, { error: String(error) }),
      });
      entry.admission = new SessionAdmission(session_id, entry.commands, {
        release: (frame) => this.hostFrame(session_id, frame),
        firstPrompt: (prompt) => notePromptName(entry, prompt),
        rename: (name) => (this.registry.rename(session_id, name, 'client') ? this.registry.get(session_id)?.name : undefined),
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
        name,
        workspacePath: this.options.workspacePath,
        historyBuffer: h.history,
        // A restored session's turns go on from where the previous process stopped (§7.5.1).
        engine: { ...h.engine, ...(entry.admission ? { admission: entry.admission } : {}), ...(files ? { contextFiles: files.contextFiles, files: files.files } : {}), ...(this.checkpoints ? { turnHooks: this.checkpoints.hooks() } : {}), onAgentSession, nameByPerson, localCopy: (file) => this.attachmentCopies.copy(session_id, file) },
      });
    } catch (e) {
      entry.commands?.dispose();
      this.entries.delete(session_id);
      // A new session that never started leaves nothing; a restored one is tried again next time.
      if (req.restored) entry.journal?.close();
      else this.storage.forget(session_id);
      throw e;
    }
    // Before anyone can prompt it: what the user allowed "for this session" still holds.
    if (req.restored?.meta.session_rules) (this.options.sessionRules ?? this.permissions.rules).restore(session_id, req.restored.meta.session_rules);
    // A turn the previous process was killed in gets its checkpoint (decision 617).
    if (req.restored) void this.checkpoints?.recoverInterrupted(session_id);
    this.hub.attach(session_id, recorderConnection(session_id, entry, this.recorderHost), { history: false });
    this.emit({ kind: 'sessions' });
    return session_id;
  }

  /** What the recorder connection of each session does to the host (sessionEntry.ts). */
  private readonly recorderHost: RecorderHost = {
    renamed: (session_id, name) => this.storage.journal?.update(session_id, { name, name_by_person: this.registry.get(session_id)?.nameByPerson !== false }),
    promptNamed: (session_id, name) => void this.registry.rename(session_id, name, 'client', false), // no person's name (725)
    emit: (e) => this.emit(e),
    // Before the hub forgets it: the name and sharing the ended session had (decision 630). A
    // shutdown's own ends are not ends: its sessions come back on the next start.
    deleted: (f, entry) => !this.disposed && this.continuations.sessionEnded(f, entry, { name: this.registry.get(f.payload.session_id)?.name, shared: this.hub.isShared(f.payload.session_id) }),
    ended: (session_id, entry) => {
      this.entries.delete(session_id);
      entry.commands?.dispose();
      this.attachmentCopies.release(session_id);
      // Deleted (§7.7): its journal goes. A host shutting down keeps them for the next start.
      if (!this.disposed) {
        this.storage.forget(session_id);
        this.checkpoints?.service.forgetSession(session_id);
      }
    },
  };

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

  /** §18.3: the agent's own session id (its own resume: `claude --resume`, `codex resume`), once named. */
  agentSessionId(session_id: string): string | undefined {
    return this.entries.get(session_id)?.agentSessionId;
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
  agents(): AgentSummary[] {
    return this.options.agents().map((a) => agentSummaryOf(a));
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

  /** "Continue this conversation" (decisions 630, 641): a new session going on with an ended one's agent conversation. */
  continueSession(ended_id: string, o: ContinueOptions = {}): Promise<Continuation> {
    return this.continuations.continueSession(ended_id, o);
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
    this.storage.closed = true;
    this.storage.journal?.close();
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
