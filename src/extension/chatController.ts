// The chat view's side of the host: one webview (when visible) is one LOCAL connection of the hub
// for the active session — the same frames a remote master gets (DESIGN.md). Every message from
// the webview is validated against the typed map (src/protocol/webviewMessages.ts) and invalid
// ones are logged and dropped. No vscode here: editor actions (open file, diff, clipboard, rules)
// come in as `HostActions`, so this runs in plain Node tests too.
import { buildFrame } from '../protocol/build';
import { noticeOf, OUR_MASTER_EXTENSIONS } from '../protocol/rawpExtension';
import type { HostLanguage } from '../protocol/hostPhrases';
import type { AgentModeName } from '../protocol/common';
import { hostMessage, parseWebviewMessage, type AgentSummary, type HostMessage, type WebviewMessage } from '../protocol/webviewMessages';
import type { Connection, WireFrame } from '../session/connection';
import type { Logger } from '../session/ports';
import { LOCAL_VIEW_FEATURES, type SessionHost } from '../host/sessionHost';
import { cannotRunText, englishWords, type Words } from './words';
import { AgentCannotRun } from '../host/continuation/continuations';
import { storeAttachment } from './attachmentUpload';
import { forView } from './viewFrames';
import type { HostActions } from './hostActions';

export type { HostActions } from './hostActions';

export interface ChatControllerOptions {
  host: SessionHost;
  actions: HostActions;
  logger: Logger;
  agents: () => AgentSummary[];
  /** Why no agent may run (Restricted Mode), or undefined. */
  blocked: () => string | undefined;
  /** Settles once the previous window's sessions are restored (the view waits for it). */
  restored?: Promise<unknown>;
  /** Settles when the agent list is complete (the view's agent list is sent again then). */
  agentsChanged?: Promise<void>;
  /** Localised words of the notices (`vscode.l10n` in the editor; English by default). */
  l10n?: Words;
  /** The editor's display language, for the host's own phrases inside them (an agent's reason, decision 609). */
  language?: HostLanguage;
}

/** Frames per `frames` message when a transcript is replayed. */
const REPLAY_CHUNK = 500;

export class ChatController {
  private active?: string;
  private selectedAgent?: string;
  private post?: (m: HostMessage) => void;
  /** The view's resource URI of a local file (asWebviewUri), for §4.5.1 files. */
  private resourceUri?: (fsPath: string) => string;
  private conn?: { id: string; session_id: string };
  private pending: WireFrame[] = [];
  private counter = 0;
  private starting?: Promise<string | undefined>;
  /** The session an agent switch is replacing: its end is not the view's cue to move elsewhere. */
  private replacing?: string;
  private readonly changeListeners = new Set<() => void>();

  private readonly l10n: Words;

  constructor(private readonly o: ChatControllerOptions) {
    this.l10n = o.l10n ?? englishWords;
    void o.agentsChanged?.then(() => this.postLists());
    o.host.onEvent((e) => {
      if (e.kind === 'sessions') this.postLists();
      if (e.kind === 'ended' && e.session_id === this.active && e.session_id !== this.replacing) {
        // An error's end stays in view: its banner offers to continue the conversation (decision 630).
        const next = this.o.host.continuations.continuable(e.session_id) ? undefined : this.o.host.list()[0]?.session_id;
        this.active = undefined;
        this.conn = undefined;
        if (next) this.switchTo(next);
        else this.changed();
      }
      // `/clear` typed in this view: a new conversation with the same agent (slash-commands host command).
      if (e.kind === 'clear' && e.connection_id === this.conn?.id) void this.newSession(this.o.host.list().find((s) => s.session_id === e.session_id)?.agent);
      if (e.kind === 'frame' && e.session_id === this.active && (e.frame.type === 'agent.state.changed' || e.frame.type.startsWith('session.turn'))) this.changed();
      // An "Always allow" answer may have saved a rule: the view's rule list follows.
      if (e.kind === 'frame' && e.frame.type === 'session.turn.end') this.postSettings();
    });
  }

  get activeSessionId(): string | undefined {
    return this.active;
  }

  agentsForPicker(): AgentSummary[] {
    return this.o.agents();
  }

  /** The agent of the session in front of the user. */
  get activeAgent(): string | undefined {
    return this.active ? this.o.host.list().find((s) => s.session_id === this.active)?.agent : undefined;
  }

  get agentId(): string | undefined {
    return this.selectedAgent;
  }

  /** Active session or state changed (status bar). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  /** A webview was resolved (post set) or went away (undefined). */
  setView(post: ((m: HostMessage) => void) | undefined, resourceUri?: (fsPath: string) => string): void {
    this.detachView();
    this.post = post;
    this.resourceUri = resourceUri;
  }

  /**
   * §4.5.1 in the editor: the file of a transfer is shown from the host's store through the
   * webview's resource mechanism (its folder is a localResourceRoot), so no byte leaves the machine.
   */
  private resolveFile(session_id: string, transfer_id: string): void {
    const store = this.o.host.fileStore;
    const info = store?.get(transfer_id);
    const path = info && info.session_id === session_id ? store?.pathOf(transfer_id) : undefined;
    const uri = path && this.resourceUri ? this.resourceUri(path) : undefined;
    this.post?.(hostMessage('file.resolved', uri ? { transfer_id, uri } : { transfer_id, error: info ? 'the view cannot load files' : 'the file is not stored on this machine' }));
  }

  /** A raw message from the webview. Never throws. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.o.logger.warn(`invalid message from the chat view rejected: ${parsed.error}`);
      return;
    }
    try {
      await this.dispatch(parsed.message);
    } catch (e) {
      this.o.logger.error(`chat view message ${parsed.message.kind} failed`, { error: String(e) });
      // An agent that cannot run (a continuation's, decision 644) is said in the editor's language.
      this.notice('error', e instanceof AgentCannotRun ? cannotRunText(this.l10n, e.agent, this.o.language) : e instanceof Error ? e.message : String(e));
    }
  }

  private async dispatch(m: WebviewMessage): Promise<void> {
    switch (m.kind) {
      case 'ready':
        return this.onReady();
      case 'frame':
        return this.fromView(m.payload.frame);
      case 'session.new':
        await this.newSession(m.payload.agent, m.payload.name);
        return;
      case 'session.switch':
        return this.switchTo(m.payload.session_id);
      case 'session.delete':
        await this.deleteSession(m.payload.session_id);
        return;
      case 'session.continue': // the host decides and starts it (decision 630); the view follows
        return this.switchTo((await this.o.host.continueSession(m.payload.session_id)).session_id);
      case 'session.dismissEnded': // no longer offered, nor kept for the next start (decision 646)
        this.o.host.continuations.forget(m.payload.session_id);
        return this.postLists();
      case 'agent.pick':
        return this.pickAgent(m.payload.agent_id);
      case 'file.resolve':
        return this.resolveFile(m.payload.session_id, m.payload.transfer_id);
      case 'file.open':
        return this.o.actions.openFile(m.payload.path, m.payload.line);
      case 'diff.open':
        return this.o.actions.openDiff(this.active ?? '', m.payload.invocation_id, m.payload.file_path);
      case 'attach.copyUrl':
        return this.o.actions.copyAttachUrl(m.payload.session_id);
      case 'checkpoint.review':
        if (!this.o.actions.reviewCheckpoint) return this.notice('warning', this.l10n.t('Reviewing changes is only available inside VS Code.'));
        return this.o.actions.reviewCheckpoint(m.payload.session_id, m.payload.checkpoint_id, m.payload.path);
      case 'permissionRule.revoke':
        if (!this.o.actions.revokeRule(m.payload.rule_id)) this.notice('warning', this.l10n.t('That rule no longer exists.'));
        this.postSettings();
        return;
      case 'clipboard.write':
        return this.o.actions.writeClipboard(m.payload.text);
      case 'agent.login':
        if (!this.o.actions.login) return this.notice('warning', this.l10n.t('Logging in is only available inside VS Code.'));
        return this.o.actions.login(m.payload.agent_id, m.payload.via);
      case 'attachment.add':
        this.post?.(await storeAttachment(this.o.host, m.payload, this.l10n));
        return;
      case 'log': {
        const level = m.payload.level;
        this.o.logger[level](`[webview] ${m.payload.message}`);
        return;
      }
    }
  }

  private async onReady(): Promise<void> {
    await this.o.restored?.catch(() => undefined);
    this.postLists();
    this.postSettings();
    const blocked = this.o.blocked();
    if (blocked) {
      this.notice('warning', blocked);
      return;
    }
    if (this.active && this.o.host.has(this.active)) return this.switchTo(this.active);
    const first = this.o.host.list()[0]?.session_id;
    if (first) return this.switchTo(first);
    // Two quick "ready"s (a reloading view) must not start two sessions.
    if (this.starting) {
      // The other "ready" is starting it; this (newer) view attaches once it is there.
      const id = await this.starting;
      if (id && this.active === id) this.switchTo(id);
      return;
    }
    this.starting = this.newSession().finally(() => (this.starting = undefined));
    await this.starting;
  }

  private fromView(frame: Record<string, unknown>): void {
    const conn = this.conn;
    if (!conn) {
      this.notice('warning', this.o.blocked() ?? this.l10n.t('No session is open. Start one with “New Session”.'));
      return;
    }
    // Prompts are admitted by the host for every connection alike (slash commands, the queue);
    // its replies come back on this connection as x-rawp.notice frames (see queueFrame).
    this.o.host.fromView(conn.id, frame);
  }

  // ---- operations (also used by palette commands) ---------------------------------------

  async newSession(agent?: string, name?: string): Promise<string | undefined> {
    const blocked = this.o.blocked();
    if (blocked) {
      this.notice('warning', blocked);
      return undefined;
    }
    const id = await this.o.host.create({ agent: agent ?? this.selectedAgent, name });
    this.switchTo(id);
    return id;
  }

  switchTo(session_id: string): void {
    const parts = this.o.host.replay(session_id);
    if (!parts || !this.o.host.has(session_id)) {
      this.notice('warning', this.l10n.t('There is no session {0}.', session_id));
      return;
    }
    this.active = session_id;
    this.changed();
    if (!this.post) return;
    this.detachView();
    const info = this.o.host.list().find((s) => s.session_id === session_id);
    const { restored, live } = parts;
    this.send(hostMessage('session.attached', { session_id, ...(info ? { name: info.name, agent: info.agent } : {}), live: restored.length === 0 }));
    // §7.1.1: a long session outgrows the history's byte budget; the view is told how much of the
    // start is gone (its truncation banner) rather than shown a transcript that silently begins mid-way.
    if (parts.buffer_status.truncated) {
      const first = restored[0] ?? live[0];
      this.send(hostMessage('frames', { session_id, frames: [buildFrame('session.history', { frames: [], buffer_status: parts.buffer_status, last_sync_timestamp: new Date().toISOString(), last_message_id: first?.message_id ?? '' }, { session_id })] }));
    }
    this.replay(session_id, restored);
    if (restored.length > 0) this.send(hostMessage('session.disconnected', { session_id, reason: 'app_restart' }));
    this.replay(session_id, live);
    const id = `webview:${++this.counter}`;
    const connection: Connection = {
      id,
      kind: 'local',
      features: LOCAL_VIEW_FEATURES,
      // The editor's own view queues follow-ups and takes notices from the start (decision 101).
      extensions: OUR_MASTER_EXTENSIONS,
      send: (frame) => this.queueFrame(id, session_id, frame),
      close: (reason) => {
        if (this.conn?.id === id) this.conn = undefined;
        this.o.logger.info(`chat view connection closed: ${reason}`);
      },
    };
    this.conn = { id, session_id };
    // §13.7: the view has the history up to its last frame; the hub sends what came after.
    const last = live.at(-1)?.message_id ?? restored.at(-1)?.message_id;
    const r = this.o.host.hub.attach(session_id, connection, last ? { last_message_id: last } : {});
    if (!r.ok) {
      this.conn = undefined;
      this.notice('error', r.message);
    }
    this.postLists();
  }

  async deleteSession(session_id: string): Promise<void> {
    await this.o.host.delete(session_id);
  }

  renameActive(name: string): void {
    if (this.active) this.o.host.rename(this.active, name);
  }

  cancelTurn(): boolean {
    return this.active ? this.o.host.cancelTurn(this.active) : false;
  }

  compact(instruction?: string): boolean {
    if (!this.active) return false;
    return this.o.host.hostFrame(this.active, buildFrame('control.session.compact', instruction ? { instruction } : {}, { session_id: this.active }));
  }

  switchMode(mode: AgentModeName): boolean {
    if (!this.active) return false;
    return this.o.host.hostFrame(this.active, buildFrame('control.mode.switch', { mode }, { session_id: this.active }));
  }

  /**
   * The agent picker (issue 15 Why 5, decision 361): new sessions use the agent; the session in
   * front of the user switches to it when nobody has prompted it yet (the host decides, the same
   * for every caller); a session with history keeps its agent and the view offers a new session.
   */
  async pickAgent(agent_id: string): Promise<void> {
    const agent = this.o.agents().find((a) => a.id === agent_id);
    if (!agent) return this.notice('error', this.l10n.t('Unknown agent {0}.', agent_id));
    if (!agent.available) return this.notice('warning', cannotRunText(this.l10n, agent, this.o.language));
    this.selectedAgent = agent_id;
    const active = this.active;
    if (!active || !this.o.host.has(active)) {
      this.postLists();
      return this.notice('info', this.l10n.t('New sessions use {0}.', agent.name));
    }
    this.replacing = active;
    const r = await this.o.host.switchAgent(active, agent_id).finally(() => (this.replacing = undefined));
    if (r.kind === 'replaced') {
      // Unless the user went elsewhere meanwhile, the view follows the session it now is.
      if (this.active === active) this.switchTo(r.session_id);
      this.postLists();
      return this.notice('info', this.l10n.t('This session now uses {0}.', agent.name));
    }
    this.postLists();
    if (r.kind === 'has_history') this.send(hostMessage('agent.offer', { session_id: active, agent_id, agent_name: agent.name }));
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.send(hostMessage('notice', { level, message }));
  }

  postSettings(): void {
    this.send(hostMessage('settings', { permission_rules: this.o.actions.permissionRules(), enter_sends: this.o.actions.enterSends(), workspace_roots: this.o.actions.workspaceRoots?.() ?? [] }));
  }

  // ---- plumbing ----------------------------------------------------------------------------

  /** Sessions or agents changed elsewhere (masters attached, sharing, detection): tell the view. */
  refreshLists(): void {
    this.postLists();
  }

  private postLists(): void {
    if (!this.post) return;
    // With the ended sessions that can still be continued, earlier runs' too (decision 646).
    const ended = this.o.host.continuations.endedList();
    this.send(hostMessage('session.list', { sessions: this.o.host.list(), ...(this.active ? { active_session_id: this.active } : {}), ...(ended.length > 0 ? { ended } : {}) }));
    const agents = this.o.agents();
    const selected = this.selectedAgent ?? agents.find((a) => a.available)?.id;
    this.send(hostMessage('agent.list', { agents, ...(selected ? { selected } : {}) }));
  }

  /** Posts `frames` in chunks, each cut to the view's budget (decision 516). */
  private replay(session_id: string, frames: WireFrame[]): void {
    for (let i = 0; i < frames.length; i += REPLAY_CHUNK) this.send(hostMessage('frames', { session_id, frames: forView(frames.slice(i, i + REPLAY_CHUNK), session_id) }));
  }

  /** Frames of one synchronous burst go out as one message (fewer postMessage round trips); a burst the session's end
   *  closed the connection in still goes — its session.deleted is the ended banner (§7.5.3, decision 630) — unless detachView dropped it. */
  private queueFrame(connection_id: string, session_id: string, frame: WireFrame): void {
    if (this.conn?.id !== connection_id) return;
    const notice = noticeOf(frame);
    if (notice) return this.send(hostMessage('notice', notice));
    this.pending.push(frame);
    if (this.pending.length > 1) return;
    const burst = this.pending;
    queueMicrotask(() => {
      if (this.pending !== burst) return;
      this.pending = [];
      this.send(hostMessage('frames', { session_id, frames: burst }));
    });
  }

  private detachView(): void {
    if (this.conn) this.o.host.hub.detach(this.conn.id);
    this.conn = undefined;
    this.pending = [];
  }

  private send(m: HostMessage): void {
    try {
      this.post?.(m);
    } catch (e) {
      this.o.logger.warn('posting to the chat view failed', { error: String(e) });
    }
  }

  private changed(): void {
    for (const l of [...this.changeListeners]) l();
  }
}
