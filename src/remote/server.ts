// The remote server: HTTP and WebSocket on one port (DESIGN.md control plane). It puts each
// authenticated WebSocket into the session's hub as one more connection — the hub does the §13.1
// / §13.7 opening, the §2.4 fan-out and control relay — and adds what only a network transport
// needs: TLS, the bearer token and origin rule, max_frame_size (close 1009), heartbeats, a
// bounded send queue per master, and a count of attached masters for the editor's status bar.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { silentLogger, type Logger } from '../session/ports';
import { BinaryMessage } from '../session/hubContract';
import type { SessionRegistry } from '../session/registry';
import { readLocalFile } from '../workspace/localFiles';
import { FailureThrottle, TokenVerifier, type ThrottleOptions } from './auth';
import {
  CLOSE,
  DPS_SUBPROTOCOL,
  hostPort,
  isLoopbackHost,
  isWildcardHost,
  offeredSubprotocols,
  ownHostNames,
  ownOrigins,
  selectSubprotocol,
  streamPath,
  type Route,
} from './controlPlane';
import { gate, refuseUpgrade, type GateContext } from './gate';
import { handleHttp, json, type ContinueWithinCap, type CreateSessionRequest, type HttpApiContext } from './httpApi';
import type { FileEndpoint } from './fileApi';
import { WsConnection } from './wsConnection';
import { Liveness } from './liveness';
import { CONNECTIONS_CHECK_MS, DEFAULT_MAX_SESSIONS, HEADERS_TIMEOUT_MS, MAX_REQUESTS_PER_SOCKET, connectionCap, sessionCap } from './serverLimits';
import { capConnections } from './connectionCap';
import type { PermissionRule } from '../session/permissions';

export interface RemoteServerOptions {
  registry: SessionRegistry;
  /** The bearer token (controlPlane TOKEN_RULE); `generateToken()` makes one. */
  token: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** PEM certificate and key (contents, or read them with `tlsFromFiles`): serve https/wss. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Allow a non-loopback bind without TLS (plain ws:// over a network). */
  allowInsecureRemote?: boolean;
  /** Browser origins besides the host's own, e.g. `https://my-dashboard.example`. */
  allowedOrigins?: string[];
  /**
   * Names the host is reached by besides its bind address (and, for a wildcard bind, the machine's
   * own name and addresses), e.g. `devbox.example`: requests naming another host are refused (421).
   */
  publicHosts?: string[];
  /** POST /v1/sessions, and POST /v1/sessions/{id}/continue (an ended session's continuation, decisions 630, 641), and the ended ones GET /v1/sessions lists (646). Absent: 501. */
  createSession?: (request: CreateSessionRequest) => Promise<{ session_id: string }>;
  continueSession?: ContinueWithinCap;
  endedSessions?: HttpApiContext['endedSessions'];
  /** DELETE /v1/sessions/{id} (a shared session): the host's delete. Absent: the registry's. */
  deleteSession?: (session_id: string) => Promise<boolean>;
  /** GET /v1/permission-rules: the host's rules, whichever agent granted them. Absent: 501. */
  permissionRules?: () => readonly PermissionRule[];
  /** GET /v1/agents and POST /v1/sessions/{id}/agent (decision 361). Absent: 501. */
  agents?: HttpApiContext['agents'];
  switchAgent?: HttpApiContext['switchAgent'];
  /** GET/PUT /v1/files/{id} (§4.5.1): the host's file store. Absent: 501. */
  files?: FileEndpoint;
  /** Ping every this many ms; a peer that did not answer the previous ping is dropped. Default 30 s. */
  heartbeatMs?: number;
  /** Bytes queued to one master before it counts as stalled and is closed. Default 8 MiB. */
  maxQueuedBytes?: number;
  /**
   * Masters attached at once, over all sessions (default 32). Each may hold a whole history frame
   * plus its send queue in memory while it does not read: 150 idle attaches to a 6 MB history took
   * `rawp serve` from 101 MB to 2.2 GB. Beyond it an upgrade gets 503 + Retry-After.
   */
  maxMasters?: number;
  /**
   * Sessions the host may hold when a master asks for one more (POST /v1/sessions; default 64):
   * each holds its journal open, and an agent process for the CLI agents. At it: 503 with words.
   */
  maxSessions?: number;
  /**
   * Open connections at once (default 256, or 64 more than `maxMasters`): each is a file descriptor,
   * and connections that never finish their headers are closed after 10 s. Beyond it a new
   * connection is closed at once (decision 562).
   */
  maxConnections?: number;
  /** How long a closing peer gets to read its close frame. Default 5 s. */
  closeGraceMs?: number;
  throttle?: ThrottleOptions;
  /** Folders holding webview.js (and webview.css); defaults to the dist folder. */
  assetDirs?: string[];
  logger?: Logger;
}

export interface MastersChange {
  session_id: string;
  /** Masters attached to this session now. */
  count: number;
  /** Masters attached to any session now. */
  total: number;
}

interface Attached {
  conn: WsConnection;
  socket: WebSocket;
  session_id: string;
  liveness: Liveness;
}

/** Masters attached at once (RemoteServerOptions.maxMasters). */
export const DEFAULT_MAX_MASTERS = 32;

export function tlsFromFiles(certFile: string, keyFile: string): { cert: Buffer; key: Buffer } {
  return { cert: readLocalFile(certFile), key: readLocalFile(keyFile) };
}

export class RemoteServer {
  private readonly attached = new Map<string, Attached>();
  private readonly listeners = new Set<(change: MastersChange) => void>();
  private readonly wss: WebSocketServer;
  private readonly gateCtx: GateContext;
  private heartbeat?: ReturnType<typeof setInterval>;
  private nextId = 0;
  private closing?: Promise<void>;
  private _port = 0;
  /** POST /v1/sessions and …/continue, within one session cap (serverLimits.ts). */
  private readonly creating: Pick<HttpApiContext, 'createSession' | 'continueSession'>;

  private constructor(
    private readonly options: RemoteServerOptions,
    private readonly server: Server,
    private readonly host: string,
    private readonly logger: Logger,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.registry.hub.maxFrameSize,
      perMessageDeflate: false,
      handleProtocols: (protocols) => (protocols.has(DPS_SUBPROTOCOL) ? DPS_SUBPROTOCOL : false),
    });
    this.gateCtx = {
      verifier: new TokenVerifier(options.token),
      throttle: new FailureThrottle(options.throttle),
      hostNames: ownHostNames({ host, machineNames: isWildcardHost(host) ? machineNames() : [], publicHosts: options.publicHosts, allowedOrigins: options.allowedOrigins }),
      ownOrigins: new Set(),
      allowedOrigins: new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, ''))),
    };
    const cap = sessionCap(() => options.registry.list().length, options.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.creating = { createSession: options.createSession && cap(options.createSession), continueSession: options.continueSession && ((id) => options.continueSession!(id, (make) => cap(make)())) };
  }

  /** Start listening. Refuses a non-loopback bind without TLS unless allowInsecureRemote. */
  static async start(options: RemoteServerOptions): Promise<RemoteServer> {
    const host = options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host) && !options.tls && !options.allowInsecureRemote) {
      throw new Error(`refusing to serve plain ws:// on ${host}: give a TLS certificate and key, or allow insecure remote access explicitly`);
    }
    // Headers complete within 10 s of connecting, checked every second (Node: 60 s, every 30 s):
    // silent or trickling connections cannot hold descriptors for long (decision 562); a TLS
    // handshake gets as long (Node: 120 s).
    const timeouts = { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: CONNECTIONS_CHECK_MS };
    const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, handshakeTimeout: HEADERS_TIMEOUT_MS, ...timeouts }) : createHttpServer(timeouts);
    server.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
    const remote = new RemoteServer(options, server, host, options.logger ?? silentLogger);
    capConnections(server, connectionCap(options.maxConnections, options.maxMasters ?? DEFAULT_MAX_MASTERS), remote.logger);
    // Catch-alls (issue 12 #1): no request, upgrade or frame can throw out into the process.
    server.on('request', (req, res) => remote.guard('request', () => remote.onRequest(req, res), () => {
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    }));
    server.on('upgrade', (req, socket, head) => remote.guard('upgrade', () => remote.onUpgrade(req, socket, head), () => socket.destroy()));
    server.on('clientError', (_e, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    remote._port = (server.address() as AddressInfo).port;
    remote.gateCtx.ownOrigins = ownOrigins({ names: remote.gateCtx.hostNames, port: remote._port, tls: options.tls !== undefined });
    const every = options.heartbeatMs ?? 30_000;
    remote.heartbeat = setInterval(() => remote.beat(), every);
    remote.heartbeat.unref();
    return remote;
  }

  get port(): number {
    return this._port;
  }

  /** http(s)://host:port of the server (127.0.0.1 for a wildcard bind). */
  get url(): string {
    return `${this.options.tls ? 'https' : 'http'}://${hostPort(this.publicHost, this._port)}`;
  }

  /** The WebSocket URL a master attaches to. */
  attachUrl(session_id: string, last_message_id?: string): string {
    return `${this.options.tls ? 'wss' : 'ws'}://${hostPort(this.publicHost, this._port)}${streamPath(session_id, last_message_id)}`;
  }

  /** The browser master's URL; with a token it goes in the fragment, which no server ever sees. */
  browserUrl(options: { session_id?: string; token?: string } = {}): string {
    const frag = new URLSearchParams();
    if (options.token) frag.set('token', options.token);
    if (options.session_id) frag.set('session', options.session_id);
    const f = frag.toString();
    return `${this.url}/${f ? `#${f}` : ''}`;
  }

  /** Make a local (editor) session visible to masters (§2.4). */
  share(session_id: string): void {
    this.options.registry.hub.share(session_id);
  }

  /** Stop sharing: its masters are disconnected (close 4403) and no new one attaches. */
  unshare(session_id: string): void {
    for (const a of this.attached.values()) if (a.session_id === session_id) a.conn.closeWith(CLOSE.UNSHARED, 'session is no longer shared');
    this.options.registry.hub.unshare(session_id);
  }

  /** Masters attached to one session, or to all. */
  masterCount(session_id?: string): number {
    let n = 0;
    for (const a of this.attached.values()) if (session_id === undefined || a.session_id === session_id) n++;
    return n;
  }

  /** Called whenever a master attaches or leaves. Returns the unsubscribe function. */
  onMastersChanged(listener: (change: MastersChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stop: masters are closed (1001), the port is released. Sessions are the caller's to end. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.heartbeat) clearInterval(this.heartbeat);
      const sockets = [...this.attached.values()];
      for (const a of sockets) {
        a.conn.closeWith(CLOSE.GOING_AWAY, 'server shutting down');
        this.options.registry.hub.detach(a.conn.id);
        a.conn.close('server shutting down');
      }
      // Peers get a moment to answer the close handshake; a stalled one is cut.
      await Promise.race([
        Promise.all(sockets.map((a) => (a.socket.readyState === a.socket.CLOSED ? undefined : new Promise((resolve) => a.socket.once('close', resolve))))),
        new Promise((resolve) => setTimeout(resolve, Math.min(1000, this.options.closeGraceMs ?? 5000)).unref()),
      ]);
      for (const a of sockets) a.socket.terminate();
      await new Promise<void>((resolve) => this.wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        this.server.close(() => resolve());
        this.server.closeAllConnections();
      });
    })();
    return this.closing;
  }

  private get publicHost(): string {
    return isWildcardHost(this.host) ? '127.0.0.1' : this.host;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const g = gate(req, this.gateCtx, false);
    if (!g.ok) return json(res, g.status, { error: g.message }, g.headers);
    handleHttp(req, res, g.route, {
      registry: this.options.registry,
      ...this.creating,
      deleteSession: this.options.deleteSession,
      permissionRules: this.options.permissionRules,
      agents: this.options.agents, switchAgent: this.options.switchAgent, files: this.options.files, endedSessions: this.options.endedSessions,
      assetDirs: this.options.assetDirs ?? defaultAssetDirs(),
      wsOrigin: (r) => `${this.options.tls ? 'wss' : 'ws'}://${r.headers.host ?? hostPort(this.publicHost, this._port)}`,
    }).catch((e: unknown) => {
      this.logger.error('request failed', { url: req.url, error: String(e) });
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (this.closing) return refuseUpgrade(socket, { status: 404, message: 'server shutting down' });
    const g = gate(req, this.gateCtx, true);
    if (!g.ok) return refuseUpgrade(socket, g);
    const r = g.route as Extract<Route, { kind: 'stream' }>;
    const registry = this.options.registry;
    // A local session that is not shared answers exactly like a missing one (§2.4: invisible).
    if (!registry.get(r.session_id) || !registry.hub.isShared(r.session_id)) {
      return refuseUpgrade(socket, { status: 404, message: `no shared session ${r.session_id}` });
    }
    if (!selectSubprotocol(offeredSubprotocols(req.headers['sec-websocket-protocol'])).ok) {
      return refuseUpgrade(socket, { status: 400, message: `offer the ${DPS_SUBPROTOCOL} subprotocol` });
    }
    const maxMasters = this.options.maxMasters ?? DEFAULT_MAX_MASTERS;
    if (this.attached.size >= maxMasters) {
      return refuseUpgrade(socket, { status: 503, message: `${maxMasters} masters are attached already; try again later`, headers: { 'retry-after': '5' } });
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, r, socket));
  }

  private attach(socket: WebSocket, r: Extract<Route, { kind: 'stream' }>, transport: { cork(): void; uncork(): void }): void {
    const hub = this.options.registry.hub;
    const conn = new WsConnection(socket, {
      id: `ws-${++this.nextId}`,
      maxQueuedBytes: this.options.maxQueuedBytes ?? 8 * 1024 * 1024,
      closeGraceMs: this.options.closeGraceMs ?? 5000,
      transport,
      onUnsendable: (frame, e) => this.logger.error('frame could not be serialized; skipped', { connection: conn.id, type: frame.type, error: String(e) }),
      onProgress: () => entry.liveness.progress(),
    });
    const entry: Attached = { conn, socket, session_id: r.session_id, liveness: new Liveness() };
    socket.on('message', (data, isBinary) => this.guard('frame', () => hub.receive(conn.id, isBinary ? new BinaryMessage(rawBytes(data)) : rawText(data)), () => undefined));
    socket.on('pong', () => entry.liveness.pong());
    socket.on('error', (e) => this.logger.warn('websocket error', { connection: conn.id, error: e.message }));
    socket.on('close', () => {
      hub.detach(conn.id);
      if (this.attached.delete(conn.id)) this.changed(r.session_id);
    });
    this.attached.set(conn.id, entry);
    const result = hub.attach(r.session_id, conn, r.last_message_id === undefined ? {} : { last_message_id: r.last_message_id });
    if (!result.ok) {
      this.attached.delete(conn.id);
      conn.closeWith(result.code === 'SESSION_NOT_SHARED' ? CLOSE.UNSHARED : CLOSE.SESSION_NOT_FOUND, result.message);
      conn.close(result.message);
      return;
    }
    this.changed(r.session_id);
  }

  /** Run a handler; an exception is logged and answered by `recover`, never thrown on. */
  private guard(what: string, handler: () => void, recover: () => void): void {
    try {
      handler();
    } catch (e) {
      this.logger.error(`${what} handler failed`, { error: String(e) });
      try {
        recover();
      } catch {
        // nothing more to do
      }
    }
  }

  private beat(): void {
    for (const a of this.attached.values()) {
      if (!a.liveness.beat()) {
        this.logger.info('peer did not answer a ping; dropping it', { connection: a.conn.id });
        a.socket.terminate();
        continue;
      }
      try {
        a.socket.ping();
      } catch {
        a.socket.terminate();
      }
    }
  }

  private changed(session_id: string): void {
    const change = { session_id, count: this.masterCount(session_id), total: this.attached.size };
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (e) {
        this.logger.warn('masters listener failed', { error: String(e) });
      }
    }
  }
}

/** The machine's own names for a wildcard bind: its host name (also as .local) and every interface address. */
function machineNames(): string[] {
  const names = [hostname(), `${hostname()}.local`];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.push(a.address);
  return names;
}

/** DPS frames are JSON text; a binary message is read as UTF-8 all the same and parsed like text. */
function rawBytes(data: RawData): number {
  return Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** dist/ next to the bundled CLI, or the repository's dist/ when running from sources. */
function defaultAssetDirs(): string[] {
  return [__dirname, join(__dirname, '..', '..', 'dist')];
}
