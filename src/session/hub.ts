// The hub: fans one session's frames out to every connection attached to it (§2.4), relays a
// connection's control.* frames to the others (never back to the sender, duplicates by
// message_id processed once), keeps local sessions away from remote connections unless shared,
// filters frames per connection by the features that connection announced (§12.2.1), and runs the
// per-connection opening sequences of §13.1 (attach) and §13.7 (reattach).
// Hardening (issue 12): nothing a peer sends can throw out of `receive`; a frame reusing a known
// message_id is refused (it would move that id's history position and poison reattach, §13.7);
// a connection whose frames keep being refused is closed (policy violation); and refusals are
// still sent to every connection (§2.4) but not kept in history, so they cannot evict it.
import { FrameFactory } from '../protocol/build';
import type { FeatureSet } from '../protocol/capabilities';
import type { Frame, FrameOf } from '../protocol/frameTypes';
import { rawpExtensionOf } from '../protocol/rawpExtension';
import { admitPrompt, type PromptAdmission } from './admission';
import type { Connection, ConnectionKind, WireFrame } from './connection';
import type { HistoryBuffer } from './history';
import { Inbox } from './inbox';
import { openingFrames } from './hubOpening';
import { DEFAULT_FRAME_RATE, DEFAULT_REFUSAL_LIMIT, FrameBudget, RefusalWindow, type FrameRate, type RefusalLimit } from './refusals';
import { silentLogger, systemClock, systemTimers, type Clock, type Logger, type Timers } from './ports';
import type { AttachOptions, AttachResult, HubOptions, HubSessionSource, SessionOrigin, VendorFrameHandler } from './hubContract';
import { MAX_BACKLOG, mayDeliver, type ConnRecord, type Handling, type HubSession } from './hubRecords';
import { intakePeerFrame, rememberControl } from './peerIntake';
import { fitForPeer, tooLargeForPeer } from './frameFit';
import { peerLimitsOf } from './peerLimits';

export type { AttachOptions, AttachResult, HubOptions, HubSessionSource, SessionOrigin, VendorFrameHandler } from './hubContract';

export class Hub {
  private readonly sessions = new Map<string, HubSession>();
  private readonly conns = new Map<string, ConnRecord>();
  /**
   * Each session's connections in attach order, copy-on-write: a fan-out walks the array it got
   * while a failed send drops a connection (a new array), and no frame pays a scan of every
   * connection of every session.
   */
  private readonly bySession = new Map<string, readonly ConnRecord[]>();
  /** Vendor frame types a peer may send (e.g. x-rawp.checkpoint.restore), by type; the rest are ignored. */
  private readonly vendorHandlers = new Map<string, VendorFrameHandler>();
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly handshakeTimeoutMs: number;
  private readonly refusalLimit: RefusalLimit;
  private readonly frameRate: FrameRate;
  readonly maxFrameSize: number;

  constructor(options: HubOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.logger = options.logger ?? silentLogger;
    this.handshakeTimeoutMs = options.handshakeTimeoutMs ?? 3000;
    this.maxFrameSize = options.maxFrameSize ?? 4 * 1024 * 1024;
    this.refusalLimit = options.refusalLimit ?? DEFAULT_REFUSAL_LIMIT;
    this.frameRate = options.frameRate ?? DEFAULT_FRAME_RATE;
  }

  addSession(source: HubSessionSource, options: { origin: SessionOrigin; history: HistoryBuffer<WireFrame> }): void {
    this.sessions.set(source.session_id, {
      source,
      origin: options.origin,
      shared: options.origin === 'remote',
      history: options.history,
      factory: new FrameFactory(source.session_id, source.clock ?? this.clock),
      seenControls: new Map(),
    });
  }

  /**
   * Accept one vendor frame type from any peer (§3.1.1: a peer's `x-` frames are otherwise
   * ignored). The handler gets it once (a repeated message_id is dropped), for its own session
   * only; it is not relayed to the other connections, and what it causes is published as usual.
   */
  onVendorFrame(type: string, handler: VendorFrameHandler): { dispose(): void } {
    this.vendorHandlers.set(type, handler);
    return { dispose: () => this.vendorHandlers.get(type) === handler && this.vendorHandlers.delete(type) };
  }

  hasSession(session_id: string): boolean {
    return this.sessions.has(session_id);
  }

  /** Forget a session and close every connection it has (after its last frames went out, §7.5.3). */
  removeSession(session_id: string, reason: string): void {
    for (const rec of this.recordsOf(session_id)) this.drop(rec, reason);
    this.sessions.delete(session_id);
  }

  isShared(session_id: string): boolean {
    return this.sessions.get(session_id)?.shared ?? false;
  }

  /** Make a local session reachable by remote connections. */
  share(session_id: string): void {
    const s = this.sessions.get(session_id);
    if (s) s.shared = true;
  }

  /** Stop sharing: remote connections are disconnected and no new ones attach. */
  unshare(session_id: string): void {
    const s = this.sessions.get(session_id);
    if (!s) return;
    s.shared = false;
    for (const rec of this.recordsOf(session_id)) if (rec.conn.kind === 'remote') this.drop(rec, 'session is no longer shared');
  }

  /** Connections of a session: id, kind and the features it announced. */
  connections(session_id: string): { id: string; kind: ConnectionKind; features?: FeatureSet; phase: 'handshake' | 'live' }[] {
    return this.recordsOf(session_id).map((r) => ({ id: r.conn.id, kind: r.conn.kind, features: r.features, phase: r.phase }));
  }

  /** One frame to one connection only, not into history: a vendor answer meant for its asker (§3.1.1). */
  sendTo(connection_id: string, frame: WireFrame): void {
    const rec = this.conns.get(connection_id);
    if (!rec) return;
    if (rec.phase === 'handshake') rec.queue.push(frame);
    else this.deliver(rec, frame);
  }

  /** A frame of the session (the engine's output): into history, then to every connection (§2.4). */
  publish(session_id: string, frame: WireFrame): void {
    const s = this.sessions.get(session_id);
    const refusal = s ? this.refusalOf(s, frame) : undefined;
    if (s && refusal) {
      const offender = this.conns.get(refusal);
      if (s.handling && frame.parent_id === s.handling.control.message_id) {
        // §2.4: every connection still sees it; history does not keep it (nor the refused control).
        s.handling.refused = true;
        s.handling.published.push({ frame, keep: false });
        if (s.handling.privateIfRefused) this.sendTo(refusal, frame);
        else s.handling.deliveries.push({ frame, except: undefined });
      } else this.fanOut(session_id, frame, undefined);
      if (offender) this.countRefusal(offender);
      return;
    }
    this.fanOut(session_id, frame, undefined);
  }

  attach(session_id: string, conn: Connection, options: AttachOptions = {}): AttachResult {
    const s = this.sessions.get(session_id);
    if (!s) return { ok: false, code: 'SESSION_NOT_FOUND', message: `no session ${session_id}` };
    if (conn.kind === 'remote' && !s.shared) {
      return { ok: false, code: 'SESSION_NOT_SHARED', message: `session ${session_id} is local and not shared (§2.4)` };
    }
    if (this.conns.has(conn.id)) return { ok: false, code: 'DUPLICATE_CONNECTION', message: `connection ${conn.id} is already attached` };
    const rec: ConnRecord = {
      conn,
      session_id,
      features: conn.features,
      phase: 'handshake',
      queue: [],
      last_message_id: options.last_message_id,
      freshHistory: options.history !== false,
      extensions: conn.extensions,
      frameBudget: rawpExtensionOf(conn.extensions).frame_budget,
      attachedAt: s.history.position,
      refusals: new RefusalWindow(this.refusalLimit),
      budget: new FrameBudget(this.frameRate),
      inbox: new Inbox(MAX_BACKLOG, (item) => this.receiveNow(rec, item.raw, item.admitted), () => this.conns.get(conn.id) === rec),
    };
    this.conns.set(conn.id, rec);
    this.bySession.set(session_id, [...this.recordsOf(session_id), rec]);
    // §13.1 / §13.7: our capabilities go first, before any other frame.
    this.sendHandshake(rec, s, s.factory.make('session.capabilities', s.source.capabilities()));
    if (rec.features !== undefined) this.finishHandshake(rec);
    else if (this.conns.has(conn.id)) rec.timer = this.timers.setTimeout(() => this.finishHandshake(rec), this.handshakeTimeoutMs);
    return { ok: true };
  }

  /** The transport closed (or was closed): forget the connection, and tell its session. */
  detach(connection_id: string): void {
    const rec = this.conns.get(connection_id);
    if (!rec) return;
    if (rec.timer !== undefined) this.timers.clearTimeout(rec.timer);
    this.conns.delete(connection_id);
    const rest = this.recordsOf(rec.session_id).filter((r) => r !== rec);
    if (rest.length > 0) this.bySession.set(rec.session_id, rest);
    else this.bySession.delete(rec.session_id);
    this.sessions.get(rec.session_id)?.source.detached?.(connection_id); // its file searches stop
  }

  /**
   * A frame arrived on a connection: text from a WebSocket or an object from postMessage.
   * `admitted`: a prompt the host already admitted (the follow-up queue releasing one).
   */
  receive(connection_id: string, raw: unknown, options: { admitted?: boolean } = {}): void {
    const rec = this.conns.get(connection_id);
    if (!rec) return;
    // A remote master over its frame rate is refused before its frame costs anything (not parsed);
    // the refusals count, so a flood ends with 1008 after a few of them.
    if (rec.conn.kind === 'remote' && !rec.budget.take(this.clock.now().getTime())) {
      const s = this.sessions.get(rec.session_id);
      if (s) this.replyError(rec, s, 'RATE_LIMITED', `more than ${this.frameRate.perSecond} frames a second (burst ${this.frameRate.burst}); this one was dropped`, undefined);
      return;
    }
    if (rec.inbox.push({ raw, admitted: options.admitted === true })) return;
    const s = this.sessions.get(rec.session_id);
    if (s) this.replyError(rec, s, 'RATE_LIMITED', 'too many frames while a prompt is being admitted; this one was dropped', undefined);
  }

  private receiveNow(rec: ConnRecord, raw: unknown, admitted: boolean): Promise<void> | undefined {
    const connection_id = rec.conn.id;
    const s = this.sessions.get(rec.session_id);
    if (!s) return undefined;
    try {
      return this.receiveFrame(rec, s, raw, admitted);
    } catch (e) {
      // The catch-all: one peer's frame must never end the host or another connection.
      this.logger.error('failed to handle a peer frame', { connection: connection_id, error: String(e) });
      this.replyError(rec, s, 'INTERNAL_ERROR', `the frame could not be handled: ${e instanceof Error ? e.message : String(e)}`, undefined);
      return undefined;
    }
  }

  /** Handles one frame (peerIntake.ts sorts it); a prompt that goes through admission returns when it is done. */
  private receiveFrame(rec: ConnRecord, s: HubSession, raw: unknown, admitted: boolean): Promise<void> | undefined {
    const intake = intakePeerFrame(raw, rec, s, { maxFrameSize: this.maxFrameSize, vendorHandlers: this.vendorHandlers, admitted, logger: this.logger, now: this.clock.now().getTime() });
    const from = { connection_id: rec.conn.id, kind: rec.conn.kind };
    switch (intake.kind) {
      case 'refuse':
        this.replyError(rec, s, intake.error_code, intake.message, intake.parent_id);
        return undefined;
      case 'ignore':
        return undefined;
      case 'vendor':
        intake.handler(intake.frame, from);
        return undefined;
      case 'capabilities': {
        // A limit no frame of ours fits in is refused, not honoured frame by frame (decision 546).
        const limits = peerLimitsOf(intake.frame.payload);
        if (typeof limits === 'string') return void this.countRefusal(rec, limits);
        rec.features = intake.frame.payload.features ?? {};
        rec.extensions = intake.frame.payload.extensions;
        ({ frameBudget: rec.frameBudget, maxFrameSize: rec.maxFrameSize } = limits);
        if (rec.phase === 'handshake') this.finishHandshake(rec);
        return undefined;
      }
      case 'control': {
        const frame = intake.frame;
        if (frame.type === 'control.prompt.request' && s.source.admission && !admitted) return this.admit(rec, s, frame, s.source.admission);
        this.handleControl(s, rec, frame, from);
        return undefined;
      }
      case 'upload':
        // §2.4 + §4.5.1: a master's upload announcement reaches every other connection (the other
        // masters, the editor's view) as its controls do — with its own message_id, not back to its
        // sender, kept in history — once the host accepted it; a refused one stays with its sender.
        this.handleControl(s, rec, intake.frame, from, { privateIfRefused: true });
        return undefined;
      case 'session':
        s.source.handle(intake.frame, from);
        return undefined;
    }
  }

  /** Prompt admission (admission.ts): the verdict decides what the engine and the others see. */
  private async admit(rec: ConnRecord, s: HubSession, frame: FrameOf<'control.prompt.request'>, admission: PromptAdmission): Promise<void> {
    const from = { connection_id: rec.conn.id, kind: rec.conn.kind };
    await admitPrompt(admission, frame, from, rawpExtensionOf(rec.extensions), {
      live: () => this.sessions.get(rec.session_id) === s && this.conns.get(rec.conn.id) === rec,
      handle: (f) => {
        if (f.type !== 'control.prompt.request') rememberControl(s, f.message_id, rec.conn.id);
        this.handleControl(s, rec, f, from);
      },
      only: (f) => {
        s.history.alias(f.message_id);
        this.deliver(rec, f);
      },
      refuse: (code, message, notice) => (notice ? (this.deliver(rec, notice), this.countRefusal(rec)) : this.replyError(rec, s, code, message, frame.message_id)),
      clock: s.source.clock ?? this.clock,
      logger: this.logger,
    });
  }

  /**
   * §2.4: the other connections see the control at once (master B sees master A's prompt); history
   * keeps it, and what handling it published, only once we know it was not refused — a refused
   * frame and its refusal are not history anyone needs, so a flood of them cannot evict it.
   */
  private handleControl(s: HubSession, rec: ConnRecord, frame: Frame, from: { connection_id: string; kind: ConnectionKind }, o: { privateIfRefused?: boolean } = {}): void {
    if (s.handling) {
      // Re-entered from inside another control's handling: nothing to defer twice.
      this.fanOut(rec.session_id, frame, rec.conn.id);
      s.source.handle(frame, from);
      return;
    }
    const handling: Handling = { control: frame, refused: false, published: [], deliveries: [{ frame, except: rec.conn.id }], ...(o.privateIfRefused ? { privateIfRefused: true } : {}) };
    s.handling = handling;
    try {
      s.source.handle(frame, from);
    } finally {
      s.handling = undefined;
      if (handling.refused) s.history.alias(frame.message_id);
      else s.history.append(frame);
      for (const p of handling.published) {
        if (p.keep) s.history.append(p.frame);
        else s.history.alias(p.frame.message_id);
      }
      for (const d of handling.deliveries) {
        if (d.frame === frame && handling.refused && handling.privateIfRefused) continue;
        this.deliverAll(s, rec.session_id, d.frame, d.except);
      }
    }
  }

  private fanOut(session_id: string, frame: WireFrame, except: string | undefined): void {
    const s = this.sessions.get(session_id);
    if (!s) return;
    if (s.handling) {
      s.handling.published.push({ frame, keep: true });
      s.handling.deliveries.push({ frame, except });
      return;
    }
    s.history.append(frame);
    this.deliverAll(s, session_id, frame, except);
  }

  private deliverAll(_s: HubSession, session_id: string, frame: WireFrame, except: string | undefined): void {
    for (const rec of this.recordsOf(session_id)) {
      if (rec.conn.id === except) continue;
      if (rec.phase === 'handshake') rec.queue.push(frame);
      else this.deliver(rec, frame);
    }
  }

  /** The connection a non-fatal session.error answers, when it answers a control one of them sent. */
  private refusalOf(s: HubSession, frame: WireFrame): string | undefined {
    if (frame.type !== 'session.error' || frame.payload.fatal !== false || frame.parent_id === undefined) return undefined;
    return s.seenControls.get(frame.parent_id);
  }

  /** One refusal counted (the editor's own view is never cut off); `now`: cut it off now, for this reason. */
  private countRefusal(rec: ConnRecord, now?: string): void {
    if (rec.conn.kind !== 'remote' || !this.conns.has(rec.conn.id) || (now === undefined && !rec.refusals.record(this.clock.now().getTime()))) return;
    const { max, windowMs } = this.refusalLimit;
    const reason = now ?? `more than ${max} refused frames in ${windowMs / 1000} s; reattach with last_message_id`;
    this.logger.warn('closing a connection for what it sent', { connection: rec.conn.id, reason });
    this.detach(rec.conn.id);
    try {
      rec.conn.close(reason, 'policy_violation');
    } catch (e) {
      this.logger.warn('connection failed to close', { connection: rec.conn.id, error: String(e) });
    }
  }

  private finishHandshake(rec: ConnRecord): void {
    if (rec.phase !== 'handshake' || !this.conns.has(rec.conn.id)) return;
    if (rec.timer !== undefined) this.timers.clearTimeout(rec.timer);
    rec.timer = undefined;
    const s = this.sessions.get(rec.session_id);
    if (!s) return;
    // §13.7: a reattach's history already contains everything queued meanwhile.
    const queue = rec.last_message_id !== undefined ? [] : rec.queue;
    for (const { frame, at } of openingFrames(rec, s, this.clock.now())) this.sendHandshake(rec, s, frame, at);
    rec.phase = 'live';
    rec.queue = [];
    for (const f of queue) this.deliver(rec, f);
  }

  /** A frame for one connection only: not broadcast, not kept, but its id is known to history. */
  private sendHandshake(rec: ConnRecord, s: HubSession, frame: WireFrame, at?: number): void {
    s.history.alias(frame.message_id, at);
    this.deliver(rec, frame);
  }

  /** A refusal for the sender only (not broadcast, not kept); it counts towards its limit. */
  private replyError(rec: ConnRecord, s: HubSession, error_code: string, message: string, parent_id: string | undefined): void {
    const frame = s.factory.make('session.error', { error_code, message, fatal: false }, parent_id ? { parent_id } : {});
    this.deliver(rec, frame);
    this.countRefusal(rec);
  }

  private deliver(rec: ConnRecord, frame: WireFrame): void {
    if (!this.conns.has(rec.conn.id)) return;
    if (!mayDeliver(frame.type, rec.features)) return; // §12.2.1, per connection
    // Never more than the peer announced it takes (decisions 515, 516): cut, or a note instead.
    const fitted = fitForPeer(frame, rec.maxFrameSize, rec.frameBudget) ?? this.sessions.get(rec.session_id)?.factory.make('session.error', tooLargeForPeer(frame, rec.maxFrameSize, rec.frameBudget));
    if (!fitted) return;
    try {
      rec.conn.send(fitted);
    } catch (e) {
      this.logger.warn('connection failed to send; dropping it', { connection: rec.conn.id, error: String(e) });
      this.drop(rec, 'send failed');
    }
  }

  private drop(rec: ConnRecord, reason: string): void {
    this.detach(rec.conn.id);
    try {
      rec.conn.close(reason);
    } catch (e) {
      this.logger.warn('connection failed to close', { connection: rec.conn.id, error: String(e) });
    }
  }

  private recordsOf(session_id: string): readonly ConnRecord[] {
    return this.bySession.get(session_id) ?? [];
  }
}
