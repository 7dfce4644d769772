// The webview's state: one transcript (src/protocol's reducer, the only place frames become a
// view model) plus what the host tells us outside frames (session and agent lists, settings,
// notices) and the few frame-derived things the transcript does not keep (file candidates of the
// @ picker, the peer's features, file transfers by invocation).
// Frames are queued as they arrive and applied once per animation frame, so a burst of text deltas
// costs one render (coalescing); listeners are told after each flush. Notices: noticeBoard.ts.
import { buildFrame } from '../../../src/protocol/build';
import { maySend, type FeatureSet } from '../../../src/protocol/capabilities';
import { catalogNotices } from '../../../src/protocol/catalogNotices';
import { isKnownFrame, type Frame, type FrameType, type PayloadOf, type VendorFrame, type WireFrame } from '../../../src/protocol/frameTypes';
import type { Metadata } from '../../../src/protocol/envelope';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import { hostNoticeText } from '../i18n/hostWords';
import { applyFrame, createTranscript, currentTurn, finalize, isCheckpointFrameType, type Transcript } from '../../../src/protocol/transcript';
import { buildCheckpointFrame, checkpointPayloadOf, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_RESTORE_TYPE, type CheckpointDiffResultPayload } from '../../../src/protocol/checkpointFrames';
import {
  webviewMessage,
  type AgentSummary,
  type HostMessage,
  type PermissionRuleView,
  type SessionSummary,
} from '../../../src/protocol/webviewMessages';
import type { Transport } from '../transport/types';
import { TransferFiles, type FileView } from './transferFiles';
import type { CandidatesView, EndedSession, FlushStats, Notice } from './storeTypes';
import { EarlierChats } from './earlierChats';
import { NoticeBoard } from './noticeBoard';

export type { CandidatesView, EndedSession, FlushStats, Notice } from './storeTypes';

/** What this UI can render, announced to the peer (§12.2.1). A master never sets subagent_context. */
export const MASTER_FEATURES: FeatureSet = {
  thinking_stream: true,
  tool_streaming: true,
  structured_output: true,
  subagent: true,
  context_compaction: true,
  plan_mode: true,
  file_reference: true,
  file_search_fuzzy: true,
};

type Scheduler = (cb: () => void) => void;

const defaultScheduler: Scheduler =
  typeof requestAnimationFrame === 'function' ? (cb) => void requestAnimationFrame(() => cb()) : (cb) => void setTimeout(cb, 16);

export type { FileView } from './transferFiles';

export class ChatStore {
  transcript: Transcript = createTranscript();
  sessionId?: string;
  sessionName?: string;
  /** The agent the host named when the view attached (the list forgets an ended session). */
  sessionAgent?: string;
  sessions: SessionSummary[] = [];
  /** The earlier chats' digests of continued sessions, by session (decision 641). */
  readonly earlierChats = new EarlierChats();
  /** Sessions an error ended that can still be continued, newest first (the editor's host, decision 646). */
  endedSessions: EndedSession[] = [];
  activeSessionId?: string;
  agents: AgentSummary[] = [];
  selectedAgent?: string;
  /** The host's offer after an agent was picked for a session with history (issue 15 Why 5). */
  agentOffer?: { session_id: string; agent_id: string; agent_name: string };
  permissionRules: PermissionRuleView[] = [];
  /** Enter sends (true) or Ctrl/Cmd+Enter sends and Enter breaks the line (false): a host setting. */
  enterSends = true;
  /** The host's workspace folders (VS Code; empty in the browser master). */
  workspaceRoots: string[] = [];
  readonly noticeBoard = new NoticeBoard();
  connected = false;
  /** The peer's (agent side's) latest announced features. */
  peerFeatures?: FeatureSet;
  private peerIsClient = false;
  /** Catalog facts already shown as notices in this session (§5.4.1). */
  private catalogShown = new Set<string>();
  candidates?: CandidatesView;
  /** The query the picker waits for (its id and text); candidates of any other query are stale. */
  activeQueryId?: string;
  activeQuery?: string;
  readonly transfersByInvocation = new Map<string, PayloadOf<'agent.file.transfer'>>();
  /** §4.5.1: where each transfer's file can be loaded from here (transport.resolveFile), once asked. */
  private readonly files: TransferFiles;
  /** When this UI first saw each interaction request (for the countdown). */
  readonly interactionSeenAt = new Map<string, number>();
  /** Grows on every change listeners should render. */
  version = 0;
  /** Grows on every change but a transcript-only flush: what the header, composer and banners read
   *  outside the transcript changes only with it (useStoreSelect; issue 18). */
  metaVersion = 0;
  /** Grows with every prompt this view sends: the transcript scrolls to it (issue 15 Why 8). */
  promptsSent = 0;
  lastFlush?: FlushStats;

  private readonly sent = new Set<string>();
  /** x-rawp.checkpoint.diff.result answers by checkpoint_id (issue 17, the browser master's review). */
  readonly checkpointDiffs = new Map<string, CheckpointDiffResultPayload>();
  private pending: WireFrame[] = [];
  private scheduled = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly transport: Transport,
    private readonly schedule: Scheduler = defaultScheduler,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.files = new TransferFiles(transport);
    transport.onMessage((m) => this.onHostMessage(m));
  }

  start(): void {
    this.transport.send(webviewMessage('ready', { version: 1 }));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `meta`: something outside the transcript may have changed too (the default). */
  private changed(meta = true): void {
    this.version++;
    if (meta) this.metaVersion++;
    for (const l of [...this.listeners]) l();
  }

  onHostMessage(m: HostMessage): void {
    switch (m.kind) {
      case 'session.attached':
        this.reset(m.payload.session_id, m.payload.name, m.payload.agent);
        this.connected = m.payload.live !== false;
        // Our capabilities first (§13.1); our extension (decision 101): queued follow-ups, notices.
        this.sendFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: MASTER_FEATURES, extensions: OUR_MASTER_EXTENSIONS });
        this.changed();
        return;
      case 'frames':
        // Whatever session they are of: the digest waits for its session's note.
        if (this.earlierChats.take(m.payload.frames, m.payload.session_id)) this.changed();
        if (m.payload.session_id !== this.sessionId) {
          // Frames may arrive before `session.attached` when a host skips it: adopt the session.
          if (this.sessionId !== undefined) return;
          this.reset(m.payload.session_id);
        }
        this.connected = true;
        for (const f of m.payload.frames) this.pending.push(f);
        this.scheduleFlush();
        return;
      case 'session.disconnected':
        if (m.payload.session_id !== this.sessionId) return;
        this.flushNow();
        this.connected = false;
        finalize(this.transcript, { reason: m.payload.reason });
        this.changed();
        return;
      case 'session.list':
        this.sessions = m.payload.sessions;
        this.endedSessions = m.payload.ended ?? [];
        this.activeSessionId = m.payload.active_session_id;
        this.changed();
        return;
      case 'agent.list':
        this.agents = m.payload.agents;
        this.selectedAgent = m.payload.selected;
        this.changed();
        return;
      case 'agent.offer':
        this.agentOffer = m.payload;
        this.changed();
        return;
      case 'settings':
        this.permissionRules = m.payload.permission_rules;
        this.enterSends = m.payload.enter_sends ?? true;
        this.workspaceRoots = m.payload.workspace_roots ?? [];
        this.changed();
        return;
      case 'notice':
        this.notify(m.payload.level, hostNoticeText(m.payload, this.transcript.commands, this.transcript.unloadedCommands), m.payload.error_code);
        return;
      case 'file.resolved':
        // Answered to the transport's resolveFile (VS Code); nothing to render by itself.
        return;
    }
  }

  /** §4.5.1: the file of a transfer as this view can load it (asked once per transfer; never rejects). */
  loadFile(transfer: { transfer_id: string; file_url: string }): Promise<FileView> {
    return this.files.load(this.sessionId, transfer);
  }

  /** What loadFile has found so far (`loading` until it settles). */
  fileView(transfer_id: string): FileView {
    return this.files.view(transfer_id);
  }

  /** The notices on screen. */
  get notices(): readonly Notice[] {
    return this.noticeBoard.shown;
  }

  /** A new notice: a confirmation (info) stands until the next notice comes (decision 648). */
  notify(level: Notice['level'], message: string, code?: string): void {
    this.noticeBoard.add(level, message, code);
    this.changed();
  }

  /**
   * §5.4.1-4 / -6: a degraded tool's limits and error / fatal diagnostics become notices, each fact
   * once per session. Unavailable tools are left to the catalog's status_description: the
   * built-in agent's are routine (no shell, no subagents) and would bury the host's notices.
   */
  private showCatalog(catalog: PayloadOf<'tool.catalog.publish'>): void {
    for (const n of catalogNotices(catalog)) {
      if (n.kind === 'unavailable' || this.catalogShown.has(n.key) || this.catalogShown.size >= 200) continue;
      this.catalogShown.add(n.key);
      this.notify(n.level === 'blocked' ? 'error' : 'warning', n.text);
    }
  }

  dismissAgentOffer(): void {
    this.agentOffer = undefined;
    this.changed();
  }

  /** The agent of the session in front of the user, ended too (else the one new sessions use). */
  currentAgent(): string | undefined {
    const id = this.activeSessionId ?? this.sessionId;
    const ended = this.endedSessions.find((s) => s.session_id === id)?.agent ?? (id === this.sessionId ? this.sessionAgent : undefined);
    return this.sessions.find((s) => s.session_id === id)?.agent ?? ended ?? this.selectedAgent;
  }

  dismissNotice(id: number): void {
    this.noticeBoard.dismiss(id);
    this.changed();
  }

  private reset(sessionId: string, name?: string, agent?: string): void {
    // Notices belong to their chat (decision 648): a re-attach keeps them, another chat's go.
    if (sessionId !== this.sessionId) this.noticeBoard.clear();
    this.sessionId = sessionId;
    if (this.agentOffer?.session_id !== sessionId) this.agentOffer = undefined;
    this.catalogShown.clear();
    this.sessionName = name;
    this.sessionAgent = agent;
    this.transcript = createTranscript({ sessionId });
    this.pending = [];
    this.peerFeatures = undefined;
    this.peerIsClient = false;
    this.candidates = undefined;
    this.activeQueryId = undefined;
    this.transfersByInvocation.clear();
    this.interactionSeenAt.clear();
  }

  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.flushNow();
    });
  }

  /** Applies every queued frame now (one render for the whole batch). */
  flushNow(): void {
    if (this.pending.length === 0) return;
    const start = performance.now();
    const batch = this.pending;
    this.pending = [];
    let changed = false;
    let meta = false;
    // Validated when the message was parsed (webviewMessages `frames`); vendor frames are not shown.
    for (const frame of batch) {
      const checkpoint = this.observeCheckpoint(frame);
      if (checkpoint !== false) {
        changed = true;
        if (checkpoint === 'meta') meta = true;
        continue;
      }
      if (!isKnownFrame(frame)) continue;
      if (this.observe(frame)) changed = meta = true;
      if (applyFrame(this.transcript, frame)) changed = true;
    }
    if (changed) this.changed(meta);
    this.lastFlush = { frames: batch.length, ms: performance.now() - start };
  }

  /**
   * Issue 17: the checkpoint frames the transcript keeps (created, restored) go to it; a diff answer
   * (only this connection gets it) is kept here by checkpoint. What changed: the transcript, the
   * diffs kept here ('meta'), or nothing visible (false).
   */
  private observeCheckpoint(frame: WireFrame): 'transcript' | 'meta' | false {
    if (isCheckpointFrameType(frame.type)) return applyFrame(this.transcript, frame as VendorFrame) ? 'transcript' : false;
    const diff = checkpointPayloadOf(CHECKPOINT_DIFF_RESULT_TYPE, frame);
    if (!diff) return false;
    this.checkpointDiffs.set(diff.checkpoint_id, diff);
    return 'meta';
  }

  /**
   * Rewind to before a checkpoint's turn (issue 17 item 3) — all its files, or only `paths`
   * ("revert this file") — through the hub like any master; `force` names the conflicts the person
   * chose to overwrite. The answer comes back as x-rawp.checkpoint.restored to every connection.
   */
  restoreCheckpoint(checkpoint_id: string, opts: { force?: string[]; paths?: string[] } = {}): VendorFrame | undefined {
    if (this.sessionId === undefined) return undefined;
    const frame = buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id, ...(opts.force?.length ? { force: opts.force } : {}), ...(opts.paths?.length ? { paths: opts.paths } : {}) }, this.sessionId);
    this.sent.add(frame.message_id);
    this.transport.send(webviewMessage('frame', { frame }));
    return frame;
  }

  /** Frame facts the transcript does not keep. Returns true when something visible changed. */
  private observe(frame: Frame): boolean {
    switch (frame.type) {
      case 'session.capabilities': {
        if (this.sent.has(frame.message_id)) return false;
        // A recorded stream (or a relay) may hold another master's capabilities too. Only the
        // client side reports adapter_type (§17.4) or subagent_context (§10.6): once such a frame
        // was seen, frames without them are taken for a master's and do not replace it.
        const features = frame.payload.features ?? {};
        const clientSide = features.adapter_type !== undefined || features.subagent_context !== undefined;
        if (!clientSide && this.peerIsClient) return false;
        this.peerFeatures = features;
        this.peerIsClient ||= clientSide;
        return true;
      }
      case 'session.file.candidates':
        if (frame.payload.query_id !== this.activeQueryId) return false;
        this.candidates = { queryId: frame.payload.query_id, query: this.activeQuery ?? '', candidates: frame.payload.candidates, truncated: frame.payload.truncated };
        return true;
      case 'agent.file.transfer': {
        const inv = frame.payload.context?.related_tool_invocation_id;
        if (inv) this.transfersByInvocation.set(inv, frame.payload);
        return inv !== undefined;
      }
      case 'agent.interaction.request': {
        // A request replayed from history started counting when it was sent, not now.
        const sentAt = Date.parse(frame.timestamp);
        const seen = this.now();
        if (!this.interactionSeenAt.has(frame.payload.interaction_id)) this.interactionSeenAt.set(frame.payload.interaction_id, Number.isNaN(sentAt) ? seen : Math.min(seen, sentAt));
        return false;
      }
      case 'session.renamed':
        this.sessionName = frame.payload.name;
        return true;
      case 'tool.catalog.publish':
        this.showCatalog(frame.payload);
        return false;
      default:
        return false;
    }
  }

  /** May we send this frame type to the peer (§12.2.1)? */
  may(type: FrameType): boolean {
    return maySend(type, this.peerFeatures).allowed;
  }

  /**
   * Builds and sends a frame of this session. control.* frames are applied to our own transcript
   * too: the hub never echoes a frame back to its sender (§2.4). Returns the frame, or undefined
   * when there is no session or the peer's features forbid it (§12.2.1).
   */
  sendFrame<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx: { turn_id?: string; parent_id?: string; metadata?: Metadata } = {}): Frame | undefined {
    if (this.sessionId === undefined) return undefined;
    if (type !== 'session.capabilities' && !this.may(type)) return undefined;
    const frame = buildFrame(type, payload, { session_id: this.sessionId, ...ctx }) as Frame;
    this.sent.add(frame.message_id);
    if (type === 'control.prompt.request') this.promptsSent++;
    this.transport.send(webviewMessage('frame', { frame }));
    if (type.startsWith('control.') && applyFrame(this.transcript, frame)) this.changed();
    return frame;
  }

  /** The open turn a cancel should target (§6.1.2). */
  openTurnId(): string | undefined {
    return currentTurn(this.transcript)?.turnId;
  }

  searchFiles(query: string, /** scope `global`: what ignore rules hide too (decision 636) */ hidden = false): void {
    if (!this.may('control.file.search')) return;
    const previous = this.activeQueryId;
    const query_id = globalThis.crypto.randomUUID();
    this.activeQueryId = query_id;
    this.activeQuery = query;
    if (previous !== undefined && this.candidates?.queryId !== previous) this.sendFrame('control.file.search.cancel', { query_id: previous });
    this.sendFrame('control.file.search', { query_id, query, max_results: 20, ...(hidden ? { scope: 'global' as const } : {}) });
  }

  /** §16.1.3: the user left @ mode (Esc, or the @ was deleted). */
  cancelSearch(): void {
    const id = this.activeQueryId;
    this.activeQueryId = undefined;
    this.candidates = undefined;
    if (id !== undefined) this.sendFrame('control.file.search.cancel', { query_id: id });
    this.changed();
  }
}
