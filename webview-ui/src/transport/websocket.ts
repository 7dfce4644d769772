// Transport of the browser master: one WebSocket per attached session at
// `/v1/sessions/{id}/stream`, authenticated by the subprotocols ['rawp-dps-1.0', 'bearer.<token>']
// (the token never goes into a URL). Raw DPS frames on the wire become `frames` host messages;
// a drop becomes `session.disconnected` (the UI finalizes, §7.8.1) and a reconnect with
// `?last_message_id=` brings `session.history` (§7.1, §13.7). Host-only requests the browser can
// serve go to the HTTP API with an Authorization header; the rest get a notice.
import { buildFrame } from '../../../src/protocol/build';
import { ENVELOPE_VERSION } from '../../../src/protocol/envelope';
import { parseValue } from '../../../src/protocol/parse';
import { noticeOf } from '../../../src/protocol/rawpExtension';
import { ResumePoint } from '../../../src/protocol/resumePoint';
import { buildCheckpointFrame, CHECKPOINT_DIFF_TYPE } from '../../../src/protocol/checkpointFrames';
import { AgentSummary, agentSummaryOf, hostMessage, webviewMessage, type HostMessage, type WebviewMessage } from '../../../src/protocol/webviewMessages';
import { Listeners, type Transport } from './types';
import { t } from '../i18n';
import { uploadAttachment } from './upload';

export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** The browser's WebSocket seen through WebSocketLike (its events carry only what we read). */
function browserSocket(url: string, protocols: string[]): WebSocketLike {
  const ws = new WebSocket(url, protocols);
  const like: WebSocketLike = {
    get readyState() {
      return ws.readyState;
    },
    onopen: null,
    onclose: null,
    onerror: null,
    onmessage: null,
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
  };
  ws.onopen = (ev) => like.onopen?.(ev);
  ws.onclose = (ev) => like.onclose?.({ code: ev.code, reason: ev.reason });
  ws.onerror = (ev) => like.onerror?.(ev);
  ws.onmessage = (ev) => like.onmessage?.({ data: ev.data });
  return like;
}

export interface WebSocketTransportOptions {
  /** `http(s)://host:port` of the server; the socket uses ws(s) on the same origin. */
  baseUrl: string;
  token: string;
  sessionId?: string;
  createSocket?: (url: string, protocols: string[]) => WebSocketLike;
  fetchFn?: typeof fetch;
  /** Reconnect delays in ms; the last one repeats. */
  backoffMs?: number[];
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

const OPEN = 1;
/** Close codes after which retrying cannot help (policy violation, our auth/not-found codes). */
const FINAL_CODES = new Set([1008, 4401, 4403, 4404]);
/** The host stopped sharing the session (src/remote/controlPlane.ts CLOSE.UNSHARED). */
const CLOSE_UNSHARED = 4403;
const MAX_QUEUE = 200;
/** Files (§4.5.1) kept as blob: URLs at once; the oldest is released beyond it. */
const MAX_FILE_FETCH = 50;

/** A session.renamed frame, or the history of a reattach (what was missed) that holds one. The
 *  first attach's history needs no look: the list was asked for when the view started. */
function renames(frame: { type: string; payload?: unknown }, reattach: boolean): boolean {
  if (frame.type === 'session.renamed') return true;
  const frames = reattach && frame.type === 'session.history' ? (frame.payload as { frames?: unknown }).frames : undefined;
  return Array.isArray(frames) && frames.some((f) => (f as { type?: unknown } | null)?.type === 'session.renamed');
}

export class WebSocketTransport implements Transport {
  readonly place = 'browser';
  private readonly listeners = new Listeners<HostMessage>();
  private socket?: WebSocketLike;
  private sessionId?: string;
  /** Where a reconnect resumes from: not inside an opening (src/protocol/resumePoint.ts). */
  private readonly resume = new ResumePoint();
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private stopped = false;
  private readonly queue: string[] = [];
  private readonly backoff: number[];
  private readonly agentNames = new Map<string, string>();
  private readonly blobs = new Map<string, string>();

  constructor(private readonly options: WebSocketTransportOptions) {
    this.backoff = options.backoffMs ?? [500, 1000, 2000, 5000, 10000];
    this.sessionId = options.sessionId;
  }

  onMessage(listener: (message: HostMessage) => void): () => void {
    return this.listeners.add(listener);
  }

  send(message: WebviewMessage): void {
    switch (message.kind) {
      case 'ready':
        void this.refreshSessions();
        void this.refreshAgents();
        if (this.sessionId) this.attach(this.sessionId);
        return;
      case 'frame': {
        const text = JSON.stringify(message.payload.frame);
        if (this.socket?.readyState === OPEN) this.socket.send(text);
        else if (this.queue.length < MAX_QUEUE) this.queue.push(text);
        return;
      }
      case 'session.switch':
        this.attach(message.payload.session_id);
        return;
      case 'session.new':
        void this.createSession(message.payload.name, message.payload.agent);
        return;
      case 'agent.pick':
        void this.pickAgent(message.payload.agent_id);
        return;
      case 'session.continue':
        void this.continueSession(message.payload.session_id);
        return;
      case 'session.delete':
        void this.api('DELETE', `/v1/sessions/${encodeURIComponent(message.payload.session_id)}`).then(() => this.refreshSessions());
        return;
      case 'clipboard.write':
        void navigator.clipboard?.writeText(message.payload.text).catch(() => undefined);
        return;
      case 'attach.copyUrl':
        void navigator.clipboard?.writeText(`${this.options.baseUrl}/#session=${encodeURIComponent(message.payload.session_id)}`).catch(() => undefined);
        this.notice('info', t('remote.attachUrlCopied'));
        return;
      case 'attachment.add':
        void uploadAttachment(this.options, message.payload).then((m) => this.listeners.emit(m));
        return;
      case 'checkpoint.review': {
        // No diff editor here: ask the host for the unified diffs (x-rawp.checkpoint.diff, decision
        // 401); the answer comes back on this socket only and the footer shows them.
        const frame = buildCheckpointFrame(CHECKPOINT_DIFF_TYPE, { checkpoint_id: message.payload.checkpoint_id }, message.payload.session_id);
        return this.send(webviewMessage('frame', { frame }));
      }
      case 'log':
        if (message.payload.level === 'error' || message.payload.level === 'warn') console.warn(`rawp: ${message.payload.message}`);
        return;
      default:
        this.notice('info', t('remote.onlyInVsCode', message.kind));
    }
  }

  getState(): unknown {
    try {
      const raw = this.options.storage?.getItem('rawp.webview');
      return raw ? JSON.parse(raw) : undefined;
    } catch {
      return undefined;
    }
  }

  setState(state: unknown): void {
    try {
      this.options.storage?.setItem('rawp.webview', JSON.stringify(state));
    } catch {
      // Storage full or disabled: the state is a convenience only.
    }
  }

  /** Stops reconnecting and closes the socket. */
  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, 'closed by the user');
  }

  private attach(sessionId: string): void {
    const switching = sessionId !== this.sessionId || this.socket === undefined;
    if (switching) {
      this.resume.forget();
      this.queue.length = 0;
    }
    this.sessionId = sessionId;
    this.attempt = 0;
    const old = this.socket;
    this.socket = undefined;
    if (old) {
      old.onclose = null;
      old.close(1000, 'switching session');
    }
    this.listeners.emit(hostMessage('session.attached', { session_id: sessionId, live: true }));
    this.connect();
  }

  private connect(): void {
    if (this.stopped || !this.sessionId) return;
    const sessionId = this.sessionId;
    const ws = this.options.baseUrl.replace(/^http/, 'ws');
    const resumeId = this.resume.value;
    const query = resumeId ? `?last_message_id=${encodeURIComponent(resumeId)}` : '';
    this.resume.connecting();
    const url = `${ws}/v1/sessions/${encodeURIComponent(sessionId)}/stream${query}`;
    const create = this.options.createSocket ?? browserSocket;
    let socket: WebSocketLike;
    try {
      socket = create(url, ['rawp-dps-1.0', `bearer.${this.options.token}`]);
    } catch (e) {
      this.notice('error', t('remote.cannotConnect', e instanceof Error ? e.message : String(e)));
      return;
    }
    this.socket = socket;
    let errored = false;
    socket.onopen = () => {
      this.attempt = 0;
      for (const text of this.queue.splice(0)) socket.send(text);
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return; // parseFrame would say MALFORMED_JSON; nothing to show.
      }
      if (typeof frame === 'object' && frame !== null && !Array.isArray(frame)) {
        const v = (frame as { v?: unknown }).v;
        if (v !== ENVELOPE_VERSION) {
          // §2.1-2: a frame of an envelope version we do not speak is ignored and answered.
          const id = (frame as { message_id?: unknown }).message_id;
          const answer = buildFrame('session.error', { error_code: 'UNSUPPORTED_VERSION', message: `unsupported envelope version v=${JSON.stringify(v) ?? 'undefined'}; this master speaks v=1`, fatal: false }, { session_id: sessionId, ...(typeof id === 'string' ? { parent_id: id } : {}) });
          if (socket.readyState === OPEN) socket.send(JSON.stringify(answer));
          return;
        }
        const { type, message_id: id, payload } = frame as { type?: unknown; message_id?: unknown; payload?: { last_message_id?: unknown } };
        if (typeof id === 'string' && typeof type === 'string') this.resume.track(type, id, type === 'session.history' && typeof payload?.last_message_id === 'string' ? payload.last_message_id : undefined);
        // A reply for this master only (queued, /help, a command error): shown as a notice, like
        // the editor's host does for its view.
        const notice = noticeOf(frame as { type: string; payload?: unknown });
        if (notice) return this.listeners.emit(hostMessage('notice', notice));
        // Off the wire it is data: validated here, typed after (a bad frame is not shown, §2.2).
        const outcome = parseValue(frame);
        if (outcome.kind !== 'accepted') return;
        this.listeners.emit(hostMessage('frames', { session_id: sessionId, frames: [outcome.frame] }));
        // §7.6.1: a rename (/rename here, another master, the agent) changes the session list's
        // name; the host sends its own view a new list, this page asks for one (decision 605).
        if (renames(outcome.frame, query !== '')) void this.refreshSessions();
      }
    };
    socket.onerror = () => {
      errored = true;
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.listeners.emit(hostMessage('session.disconnected', { session_id: sessionId, reason: errored ? 'connection_error' : 'connection_closed' }));
      if (FINAL_CODES.has(ev.code)) {
        // Sharing stopped (4403) or the session went away: say so plainly, and refresh the list so
        // it no longer calls the session shared (issue 15 Why 8).
        if (ev.code === CLOSE_UNSHARED) this.notice('warning', t('remote.unshared'));
        else this.notice('error', t('remote.closed', ev.reason || `code ${ev.code}`));
        void this.refreshSessions();
        return;
      }
      const delay = this.backoff[Math.min(this.attempt++, this.backoff.length - 1)];
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  private notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.listeners.emit(hostMessage('notice', { level, message }));
  }

  /**
   * §4.5.1: a transfer's file on this server (`/v1/files/{id}`, relative or on the server's own
   * origin) fetched with the token and handed to the view as a `blob:` URL; the token never goes
   * to another origin, and no other URL is fetched. At most MAX_FILE_FETCH files are kept.
   */
  async resolveFile(_session_id: string, transfer: { transfer_id: string; file_url: string }): Promise<string | undefined> {
    let base: URL;
    let url: URL;
    try {
      base = new URL(this.options.baseUrl);
      url = new URL(transfer.file_url, base);
    } catch {
      return undefined;
    }
    if (url.origin !== base.origin || !/^\/v1\/files\/[0-9a-fA-F-]{36}$/.test(url.pathname)) return undefined;
    const known = this.blobs.get(transfer.transfer_id);
    if (known) return known;
    try {
      const res = await (this.options.fetchFn ?? fetch)(url.href, { headers: { Authorization: `Bearer ${this.options.token}` } });
      if (!res.ok) return undefined;
      const href = URL.createObjectURL(await res.blob());
      this.blobs.set(transfer.transfer_id, href);
      while (this.blobs.size > MAX_FILE_FETCH) {
        const [oldest, old] = this.blobs.entries().next().value as [string, string];
        this.blobs.delete(oldest);
        URL.revokeObjectURL(old);
      }
      return href;
    } catch {
      return undefined;
    }
  }

  private async api(method: string, path: string, body?: unknown): Promise<unknown> {
    const f = this.options.fetchFn ?? fetch;
    try {
      const res = await f(`${this.options.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.options.token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}`);
      return res.status === 204 ? undefined : await res.json();
    } catch (e) {
      this.notice('error', e instanceof Error ? e.message : String(e));
      return undefined;
    }
  }

  private async refreshSessions(): Promise<void> {
    const list = (await this.api('GET', '/v1/sessions')) as { sessions?: unknown } | unknown[] | undefined;
    const raw = Array.isArray(list) ? list : (list as { sessions?: unknown } | undefined)?.sessions;
    if (!Array.isArray(raw)) return;
    const sessions = raw.flatMap((s) => {
      const o = s as Record<string, unknown>;
      return typeof o.session_id === 'string'
        ? [{ session_id: o.session_id, name: typeof o.name === 'string' ? o.name : o.session_id, ...(typeof o.agent === 'string' ? { agent: o.agent } : {}), ...(typeof o.state === 'string' ? { state: o.state } : {}), shared: true }]
        : [];
    });
    this.listeners.emit(hostMessage('session.list', { sessions, ...(this.sessionId ? { active_session_id: this.sessionId } : {}) }));
  }

  /** GET /v1/agents: the host's agents for the picker; a host without the route offers none (quietly). */
  private async refreshAgents(): Promise<void> {
    const f = this.options.fetchFn ?? fetch;
    try {
      const res = await f(`${this.options.baseUrl}/v1/agents`, { headers: { Authorization: `Bearer ${this.options.token}` } });
      if (!res.ok) return;
      const body = (await res.json()) as { agents?: unknown };
      if (!Array.isArray(body.agents)) return;
      const agents = body.agents.flatMap((a) => {
        // The picker's fields only; an entry that does not read as an agent is left out.
        const o = AgentSummary.safeParse(a);
        return o.success ? [agentSummaryOf(o.data)] : [];
      });
      for (const a of agents) this.agentNames.set(a.id, a.name);
      this.listeners.emit(hostMessage('agent.list', { agents }));
    } catch {
      // no agent picker then
    }
  }

  /** The host decides, as for its own view (decision 361): switched, kept (offer), or unchanged. */
  private async pickAgent(agent: string): Promise<void> {
    const session_id = this.sessionId;
    if (!session_id) return;
    const r = (await this.api('POST', `/v1/sessions/${encodeURIComponent(session_id)}/agent`, { agent })) as { kind?: unknown; session_id?: unknown } | undefined;
    if (r?.kind === 'replaced' && typeof r.session_id === 'string') {
      this.attach(r.session_id);
      await this.refreshSessions();
    } else if (r?.kind === 'has_history') {
      this.listeners.emit(hostMessage('agent.offer', { session_id, agent_id: agent, agent_name: this.agentNames.get(agent) ?? agent }));
    }
  }

  /** POST /v1/sessions/{id}/continue (decision 630): the host starts the new session; this page attaches to it. */
  private async continueSession(session_id: string): Promise<void> {
    const r = (await this.api('POST', `/v1/sessions/${encodeURIComponent(session_id)}/continue`)) as { session_id?: unknown } | undefined;
    if (typeof r?.session_id === 'string') {
      this.attach(r.session_id);
      await this.refreshSessions();
    }
  }

  private async createSession(name?: string, agent?: string): Promise<void> {
    const r = (await this.api('POST', '/v1/sessions', { ...(name ? { name } : {}), ...(agent ? { agent } : {}) })) as { session_id?: unknown } | undefined;
    if (typeof r?.session_id === 'string') {
      this.attach(r.session_id);
      await this.refreshSessions();
    }
  }
}
