// A DPS master over WebSocket that reconnects by itself: on open it announces its own
// `session.capabilities` (§13.1); when the connection drops it reattaches with
// `?last_message_id=` (§13.7) and gets what it missed as `session.history`.
//
// Which id to resume from is the rule every master of ours keeps (src/protocol/resumePoint.ts).
import WebSocket from 'ws';
import { buildFrame } from '../../protocol/build';
import { ResumePoint } from '../../protocol/resumePoint';
import { refusalFor } from '../../protocol/catalogNotices';
import { EVERY_FEATURE, type FeatureSet } from '../../protocol/capabilities';
import type { Frame, FrameType, PayloadOf, VendorFrame } from '../../protocol/frameTypes';
import { parseFrame } from '../../protocol/parse';
import { CLOSE, DPS_SUBPROTOCOL, REATTACH_PARAM } from '../../remote/controlPlane';
import { RETRY_STATUSES, retryAfterMs } from './retryAfter';

/** What this master announces: it renders everything. */
export const MASTER_FEATURES: FeatureSet = EVERY_FEATURE;

export interface MasterClientHandlers {
  frame?(frame: Frame | VendorFrame): void;
  /** A frame the server refused or could not parse locally. */
  invalid?(message: string): void;
  /** The opening sequence (§13.1 / §13.7) is complete: prompts may be sent. */
  connected?(info: { reattach: boolean }): void;
  /** The connection ended; `retryInMs` is set when the client will reconnect. */
  disconnected?(info: { code: number; reason: string; cause: CloseCause; retryInMs?: number }): void;
  /** No more reconnects (session gone, token refused, closed by us). */
  ended?(info: { code: number; reason: string; cause: EndCause }): void;
}

/**
 * Why a connection closed, in parts: `reason` is it in English (logs, tests), and a reader that
 * words it in another language takes these (terminalMaster.ts, decision 601) rather than parse
 * the English back.
 */
export type CloseCause =
  /** The server refused the upgrade with an HTTP status, e.g. "503 Service Unavailable". */
  | { kind: 'answered'; status: string }
  /** The close frame's reason as the host wrote it ('' when it gave none). */
  | { kind: 'host'; reason: string };
/** Why no reconnect follows: a close as above, the session deleted, or `stop()`. */
export type EndCause = CloseCause | { kind: 'session_deleted' } | { kind: 'stopped' };

export interface MasterClientOptions {
  /** ws(s)://host:port/v1/sessions/{id}/stream */
  url: string;
  token: string;
  session_id: string;
  handlers: MasterClientHandlers;
  features?: FeatureSet;
  /** `session.capabilities.extensions` to announce (rawp attach: our x-rawp extension, decision 101). */
  extensions?: Record<string, unknown>;
  /**
   * The largest frame this client takes: announced as `max_frame_size` and enforced by the socket
   * (a bigger message closes it, 1009). Default: announced none, the socket's own 100 MiB.
   */
  maxFrameSize?: number;
  /** Reconnect backoff; false: never reconnect. */
  reconnect?: { initialMs: number; maxMs: number } | false;
  /** TLS: trust this CA (a self-signed server certificate). */
  ca?: string | Buffer;
  /** Send the token as a subprotocol (as a browser does) instead of a header. */
  tokenAsSubprotocol?: boolean;
  /**
   * A connection on which nothing (not even the server's heartbeat ping, every 30 s) arrived for
   * this long is taken for dead and reconnected. Default 75 s.
   */
  idleTimeoutMs?: number;
}

/** Close codes after which reconnecting cannot help. */
const FINAL_CODES = new Set<number>([CLOSE.SESSION_ENDED, CLOSE.UNSHARED, CLOSE.SESSION_NOT_FOUND, CLOSE.TOO_BIG]);
export class MasterClient {
  private socket?: WebSocket;
  private readonly resume = new ResumePoint();
  private attempt = 0;
  private stopped = false;
  private timer?: ReturnType<typeof setTimeout>;
  private deleted = false;
  private reattaching = false;
  /** The client's latest tool catalog (§5.4.1): which tools this master refuses. */
  private catalog?: PayloadOf<'tool.catalog.publish'>;

  constructor(private readonly options: MasterClientOptions) {}

  /** The message_id a reattach would resume from. */
  get lastMessageId(): string | undefined {
    return this.resume.value;
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN && !this.resume.inOpening;
  }

  start(): void {
    this.connect();
  }

  /** Send a control frame; undefined when not connected (nothing is queued behind the user's back). */
  send<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx: { turn_id?: string; parent_id?: string } = {}): Frame | undefined {
    if (this.socket?.readyState !== WebSocket.OPEN) return undefined;
    const frame = buildFrame(type, payload, { session_id: this.options.session_id, ...ctx }) as Frame;
    this.socket.send(JSON.stringify(frame));
    return frame;
  }

  /** Send raw text (tests: malformed input). */
  sendRaw(text: string): void {
    this.socket?.send(text);
  }

  /** Cut the connection without a close handshake, as a network drop would (reconnects). */
  drop(): void {
    this.socket?.terminate();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, 'master leaving');
  }

  private connect(): void {
    const url = new URL(this.options.url);
    const resumeId = this.resume.value;
    if (resumeId !== undefined) url.searchParams.set(REATTACH_PARAM, resumeId);
    else url.searchParams.delete(REATTACH_PARAM);
    const reattach = resumeId !== undefined;
    const protocols = this.options.tokenAsSubprotocol ? [DPS_SUBPROTOCOL, `bearer.${this.options.token}`] : [DPS_SUBPROTOCOL];
    const socket = new WebSocket(url, protocols, {
      headers: this.options.tokenAsSubprotocol ? {} : { authorization: `Bearer ${this.options.token}` },
      ...(this.options.ca ? { ca: this.options.ca } : {}),
      ...(this.options.maxFrameSize ? { maxPayload: this.options.maxFrameSize } : {}),
      // No compression: the server offers none (server.ts), and a deflated message is a small
      // thing to send and a big one to inflate.
      perMessageDeflate: false,
    });
    this.socket = socket;
    this.resume.connecting();
    this.reattaching = reattach;
    /** The HTTP status the server refused the upgrade with, for good. */
    let refused: string | undefined;
    /** Set when the server said "not now" (429/503): wait what it asked, then try again. */
    let toldToWait: { ms: number; status: string } | undefined;
    const backoff = this.options.reconnect || { initialMs: 250, maxMs: 5000 };
    socket.on('unexpected-response', (_req, res) => {
      const status = `${res.statusCode} ${res.statusMessage ?? ''}`.trim();
      if (RETRY_STATUSES.has(res.statusCode ?? 0)) toldToWait = { ms: retryAfterMs(res.headers['retry-after'], backoff.maxMs), status };
      else refused = status;
      res.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      this.attempt = 0;
      socket.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: this.options.features ?? MASTER_FEATURES, ...(this.options.extensions ? { extensions: this.options.extensions } : {}), ...(this.options.maxFrameSize ? { max_frame_size: this.options.maxFrameSize } : {}) }, { session_id: this.options.session_id })));
    });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => socket.terminate(), this.options.idleTimeoutMs ?? 75_000);
      idle.unref();
    };
    socket.on('open', alive);
    socket.on('ping', alive);
    // Bytes of a message still arriving count too: a big history read on a slow link is one
    // message for longer than the idle time (decision 571). Listened to once `ws` reads the
    // socket ('open'): a listener added at 'upgrade' would start the flow before `ws` listens.
    let tcp: { on(event: 'data', listener: () => void): unknown } | undefined;
    socket.on('upgrade', (res) => (tcp = res.socket));
    socket.on('open', () => tcp?.on('data', alive));
    socket.on('message', (data) => {
      alive();
      this.onMessage(String(data));
    });
    socket.on('error', () => {
      // 'close' follows and decides what happens next.
    });
    socket.on('close', (code, reasonBuf) => {
      if (idle) clearTimeout(idle);
      if (this.socket !== socket) return;
      const status = refused ?? toldToWait?.status;
      const cause: CloseCause = status !== undefined ? { kind: 'answered', status } : { kind: 'host', reason: reasonBuf.toString() };
      const reason = closeReason(cause);
      this.socket = undefined;
      const final = this.stopped || this.deleted || refused !== undefined || FINAL_CODES.has(code) || this.options.reconnect === false;
      if (final) {
        this.options.handlers.disconnected?.({ code, reason, cause });
        const end: EndCause = this.deleted ? { kind: 'session_deleted' } : this.stopped ? { kind: 'stopped' } : cause;
        this.options.handlers.ended?.({ code, reason: endReason(end, code), cause: end });
        return;
      }
      const retryInMs = toldToWait?.ms ?? Math.min(backoff.maxMs, backoff.initialMs * 2 ** this.attempt++);
      this.options.handlers.disconnected?.({ code, reason, cause, retryInMs });
      this.timer = setTimeout(() => this.connect(), retryInMs);
    });
  }

  private onMessage(text: string): void {
    const outcome = parseFrame(text);
    if (outcome.kind === 'error' && outcome.error.error_code === 'UNSUPPORTED_VERSION') {
      // §2.1-2: a frame of an envelope version we do not speak is ignored and answered.
      const ctx = outcome.message_id ? { parent_id: outcome.message_id } : {};
      this.send('session.error', { error_code: 'UNSUPPORTED_VERSION', message: outcome.error.message, fatal: false }, ctx);
    }
    if (outcome.kind !== 'accepted') {
      this.options.handlers.invalid?.(outcome.kind === 'error' ? outcome.error.message : outcome.reason);
      return;
    }
    const frame = outcome.frame;
    this.track(frame);
    if (frame.type === 'session.deleted') this.deleted = true;
    if (frame.type === 'tool.catalog.publish') this.catalog = frame.payload;
    this.options.handlers.frame?.(frame);
    if (frame.type === 'tool.invoke.request') this.refuseBlockedTool(frame);
  }

  /**
   * §5.4.1-3: a call of a tool the catalog blocks (a fatal diagnostic; or unavailable, decision
   * 261) is answered with a non-fatal session.error naming the request. The client decides what
   * runs; this tells it, and every other master, that this one does not accept the call.
   */
  private refuseBlockedTool(frame: Frame & { type: 'tool.invoke.request' }): void {
    const refusal = refusalFor(this.catalog, frame.payload.tool_name);
    if (!refusal) return;
    this.send('session.error', { error_code: refusal.code, message: refusal.message, fatal: false }, { parent_id: frame.message_id, ...(frame.turn_id ? { turn_id: frame.turn_id } : {}) });
  }

  private track(frame: Frame | VendorFrame): void {
    const historyLast = frame.type === 'session.history' ? (frame as Frame & { type: 'session.history' }).payload.last_message_id : undefined;
    // Deliver the frame that ends the opening first, then say the connection is ready.
    if (this.resume.track(frame.type, frame.message_id, historyLast)) queueMicrotask(() => this.options.handlers.connected?.({ reattach: this.reattaching }));
  }
}

/** A close's cause in English: "the server answered 503 Service Unavailable", or the host's reason. */
function closeReason(cause: CloseCause): string {
  return cause.kind === 'answered' ? `the server answered ${cause.status}` : cause.reason;
}

/** Why no reconnect follows, in English ("closed (1006)" when the host gave no reason). */
function endReason(end: EndCause, code: number): string {
  if (end.kind === 'session_deleted') return 'session deleted';
  if (end.kind === 'stopped') return 'closed';
  return closeReason(end) || `closed (${code})`;
}

