// Our control-plane profile (DESIGN.md "Control plane"), in ONE module so it can be swapped when
// the real RAWP 1.0.2 document appears: the endpoints, the token rules, how a token travels
// (Authorization header or the `bearer.<token>` WebSocket subprotocol), the origin rule, the
// health body and the WebSocket close codes. Nothing here does I/O.
import { PROTOCOL_VERSION } from '../protocol/envelope';

/** The subprotocol a DPS connection speaks; the server selects it, never the bearer one. */
export const DPS_SUBPROTOCOL = PROTOCOL_VERSION;
/** Browsers cannot set headers on a WebSocket: they offer `bearer.<token>` beside DPS_SUBPROTOCOL. */
export const BEARER_SUBPROTOCOL_PREFIX = 'bearer.';
/** Version reported by GET /v1/health. */
export const SERVER_VERSION = '0.1.0';

/** A token must be at least 128 bits of randomness: 22+ characters of base64url (132 bits). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,512}$/;
export const TOKEN_MIN_BITS = 128;
export const TOKEN_RULE =
  'a token is 22 to 512 random characters of A-Z a-z 0-9 _ - carrying at least 128 bits (e.g. 32+ hex digits, 22+ of base64url); `rawp serve` generates 256 bits';

/** Query parameter of a reattach (§7.1, §13.7). */
export const REATTACH_PARAM = 'last_message_id';

/** WebSocket close codes this server uses, with why. */
export const CLOSE = {
  /** The session ended (§7.7): clean-up frames and `session.deleted` went out first. */
  SESSION_ENDED: 1000,
  /** The server is shutting down. */
  GOING_AWAY: 1001,
  /** The peer kept sending frames that were refused (issue 12): it may reattach. */
  POLICY_VIOLATION: 1008,
  /** A frame larger than max_frame_size (sent by `ws` itself through maxPayload). */
  TOO_BIG: 1009,
  /** The peer did not read fast enough; its send queue overflowed. Reattach with last_message_id. */
  SLOW_CONSUMER: 1013,
  /** The session stopped being shared (§2.4): remote masters may not see it any more. */
  UNSHARED: 4403,
  /** The session does not exist (any more). */
  SESSION_NOT_FOUND: 4404,
} as const;

/** The chat bundle's files, served beside the page (built into dist/ by esbuild). */
export const BROWSER_ASSETS = ['webview.js', 'webview.css', 'codicon.ttf'] as const;
export type BrowserAsset = (typeof BROWSER_ASSETS)[number];

export type Route =
  | { kind: 'health' }
  | { kind: 'sessions' }
  | { kind: 'session'; session_id: string }
  /** The host's agents, for a master's agent picker (decision 361). */
  | { kind: 'agents' }
  /** Another agent for a shared session, decided by the host as for its own view (decision 361). */
  | { kind: 'session_agent'; session_id: string }
  /** A new session going on with an ended one's agent conversation (decision 630). */
  | { kind: 'session_continue'; session_id: string }
  /** The host's permission rules, whichever agent granted them (issue 11 item 4). */
  | { kind: 'permission_rules' }
  | { kind: 'stream'; session_id: string; last_message_id?: string }
  /** §4.5.1 binary exchange; `transfer_id` is the raw path segment, validated by the handler (400). */
  | { kind: 'file'; transfer_id: string; session_id?: string; file_name?: string }
  | { kind: 'browser' }
  | { kind: 'browser_asset'; name: BrowserAsset }
  | { kind: 'not_found' };

/** Which methods each route answers (405 for the others). */
export const ROUTE_METHODS: Record<Route['kind'], readonly string[]> = {
  // HEAD too: load balancers and `curl -I` probe with it (Node sends the headers, no body).
  health: ['GET', 'HEAD'],
  sessions: ['GET', 'POST'],
  session: ['DELETE'],
  agents: ['GET'],
  session_agent: ['POST'],
  session_continue: ['POST'],
  permission_rules: ['GET'],
  stream: ['GET'],
  file: ['GET', 'PUT'],
  browser: ['GET'],
  browser_asset: ['GET'],
  not_found: [],
};

/** Routes any client may use without a token (nothing secret is in them). */
export const PUBLIC_ROUTES: ReadonlySet<Route['kind']> = new Set(['health', 'browser', 'browser_asset']);

const SESSION_ID = '([A-Za-z0-9._~-]{1,200})';
const WHOLE_SESSION_ID = new RegExp(`^${SESSION_ID}$`);

/** Whether `id` is a session id this control plane routes (what a client may take from a host's answer). */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && WHOLE_SESSION_ID.test(id);
}
const SESSION_PATH = new RegExp(`^/v1/sessions/${SESSION_ID}$`);
const STREAM_PATH = new RegExp(`^/v1/sessions/${SESSION_ID}/stream$`);
const AGENT_PATH = new RegExp(`^/v1/sessions/${SESSION_ID}/agent$`);
const CONTINUE_PATH = new RegExp(`^/v1/sessions/${SESSION_ID}/continue$`);
const FILE_PATH = /^\/v1\/files\/([^/]{1,200})$/;

/**
 * A transfer id (§4.5.1: "UUID v4"), in its canonical lower-case form: exactly 36 characters of
 * hex and dashes, so no id can name a path, a parent folder or anything but one stored file.
 * Uploads use ids their master chose; downloads ids the host generated (docs/decisions/300).
 */
export const TRANSFER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The canonical transfer id (lower case), or undefined when `raw` is not a UUID v4. */
export function canonicalTransferId(raw: string): string | undefined {
  if (raw.length !== 36) return undefined;
  const id = raw.toLowerCase();
  return TRANSFER_ID_PATTERN.test(id) ? id : undefined;
}

/** The path of a file on this host (§4.5.1 `file_url`): relative to whichever origin a master used. */
export function filePath(transfer_id: string): string {
  return `/v1/files/${encodeURIComponent(transfer_id)}`;
}

/** The transfer id of a URL (absolute or host-relative) naming /v1/files/{id}, or undefined. */
export function transferIdOfPath(pathname: string): string | undefined {
  const m = FILE_PATH.exec(pathname);
  if (!m) return undefined;
  let seg: string;
  try {
    seg = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  return canonicalTransferId(seg);
}

/** Header carrying the expected SHA-256 (lower-case hex) of an upload, and the stored one of a download. */
export const CHECKSUM_HEADER = 'x-checksum-sha256';
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** Maps a request target (`/v1/sessions/x/stream?last_message_id=y`) to a route. */
export function route(target: string): Route {
  let url: URL;
  try {
    url = new URL(target, 'http://host.invalid');
  } catch {
    return { kind: 'not_found' };
  }
  const path = url.pathname;
  if (path === '/v1/health') return { kind: 'health' };
  if (path === '/v1/sessions') return { kind: 'sessions' };
  if (path === '/v1/permission-rules') return { kind: 'permission_rules' };
  if (path === '/v1/agents') return { kind: 'agents' };
  if (path === '/' || path === '/index.html') return { kind: 'browser' };
  const asset = BROWSER_ASSETS.find((a) => path === `/${a}`);
  if (asset) return { kind: 'browser_asset', name: asset };
  let m = STREAM_PATH.exec(path);
  if (m) {
    const last = url.searchParams.get(REATTACH_PARAM);
    return last ? { kind: 'stream', session_id: m[1], last_message_id: last } : { kind: 'stream', session_id: m[1] };
  }
  m = AGENT_PATH.exec(path);
  if (m) return { kind: 'session_agent', session_id: m[1] };
  m = CONTINUE_PATH.exec(path);
  if (m) return { kind: 'session_continue', session_id: m[1] };
  m = SESSION_PATH.exec(path);
  if (m) return { kind: 'session', session_id: m[1] };
  m = FILE_PATH.exec(path);
  if (m) {
    const session_id = url.searchParams.get('session_id');
    const file_name = url.searchParams.get('file_name');
    return { kind: 'file', transfer_id: m[1], ...(session_id !== null ? { session_id } : {}), ...(file_name !== null ? { file_name } : {}) };
  }
  return { kind: 'not_found' };
}

export function streamPath(session_id: string, last_message_id?: string): string {
  const base = `/v1/sessions/${encodeURIComponent(session_id)}/stream`;
  return last_message_id === undefined ? base : `${base}?${REATTACH_PARAM}=${encodeURIComponent(last_message_id)}`;
}

export function healthBody(): { ok: true; version: string; protocol: string } {
  return { ok: true, version: SERVER_VERSION, protocol: DPS_SUBPROTOCOL };
}

/** Splits a `Sec-WebSocket-Protocol` header into its offered subprotocols. */
export function offeredSubprotocols(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The token a request carries: `Authorization: Bearer <token>` first, else the `bearer.<token>`
 * subprotocol. Undefined when there is none.
 */
export function presentedToken(headers: { authorization?: string; 'sec-websocket-protocol'?: string | string[] }): string | undefined {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  for (const p of offeredSubprotocols(headers['sec-websocket-protocol'])) {
    if (p.startsWith(BEARER_SUBPROTOCOL_PREFIX)) return p.slice(BEARER_SUBPROTOCOL_PREFIX.length);
  }
  return undefined;
}

/** The subprotocols a browser master offers for a token. */
export function browserSubprotocols(token: string): string[] {
  return [DPS_SUBPROTOCOL, `${BEARER_SUBPROTOCOL_PREFIX}${token}`];
}

/**
 * The subprotocol the server selects: DPS_SUBPROTOCOL when offered. A client that offers
 * subprotocols but not ours speaks something else and is refused; offering none is fine (a
 * non-browser client authenticated by header).
 */
export function selectSubprotocol(offered: string[]): { ok: true; protocol?: string } | { ok: false } {
  if (offered.length === 0) return { ok: true };
  if (offered.includes(DPS_SUBPROTOCOL)) return { ok: true, protocol: DPS_SUBPROTOCOL };
  return { ok: false };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** `host:port` with IPv6 literals bracketed. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A host name as compared: lower case, IPv6 without brackets. */
function normalHost(h: string): string {
  return h.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * The names this host answers to (issue 12 #11, decision 165): for a loopback bind every loopback
 * spelling; for a wildcard bind those plus the machine's own names and addresses (`machineNames`,
 * found by the server); for a specific address that address; always the operator's `publicHosts`
 * and the hosts of allow-listed origins. Never whatever a request's Host header says — a
 * DNS-rebinding page controls that.
 */
export function ownHostNames(o: { host: string; machineNames?: readonly string[]; publicHosts?: readonly string[]; allowedOrigins?: readonly string[] }): Set<string> {
  const names = new Set<string>();
  const add = (h: string) => h && names.add(normalHost(h));
  if (isLoopbackHost(o.host) || isWildcardHost(o.host)) for (const h of LOOPBACK_HOSTS) add(h);
  if (isWildcardHost(o.host)) for (const h of o.machineNames ?? []) add(h);
  else add(o.host);
  for (const h of o.publicHosts ?? []) add(h);
  for (const origin of o.allowedOrigins ?? []) {
    try {
      add(new URL(origin).hostname);
    } catch {
      // not an origin: it matches nothing anyway
    }
  }
  return names;
}

/** The origins that count as the host's own: each of its names on its port and scheme. */
export function ownOrigins(options: { names: ReadonlySet<string>; port: number; tls: boolean }): Set<string> {
  const scheme = options.tls ? 'https' : 'http';
  return new Set([...options.names].map((h) => `${scheme}://${hostPort(h, options.port)}`));
}

/** Whether a request's Host header names this host (port aside): a rebound DNS name does not. */
/** A Host header's only form here: a DNS name or IPv4 address, or a bracketed IPv6 one, and an optional port. */
const HOST_HEADER = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

export function hostAllowed(hostHeader: string | undefined, names: ReadonlySet<string>): boolean {
  // `name[:port]` and nothing else: as a URL, `localhost/;script-src *` or `evil@localhost` also
  // has a loopback hostname, and the Host goes on into the page's CSP (the socket review of 2026-12-06).
  if (hostHeader === undefined || !HOST_HEADER.test(hostHeader)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  return names.has(normalHost(hostname));
}

/**
 * The browser Origin rule: no Origin header (not a browser, or a same-origin GET) passes;
 * otherwise it must be one of the host's own origins or an allow-listed one.
 */
export function originAllowed(origin: string | undefined, rule: { own: ReadonlySet<string>; allowed: ReadonlySet<string> }): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase().replace(/\/$/, '');
  return rule.own.has(o) || rule.allowed.has(o);
}

/**
 * A browser's request made by another site's page without an Origin header (`<img>`, no-cors
 * fetch; Chromium marks it `Sec-Fetch-Site: cross-site`). Such a page may load the public routes
 * (the browser master page is one), nothing else.
 */
export function crossSiteWithoutOrigin(headers: { origin?: string; 'sec-fetch-site'?: string | string[] }): boolean {
  const site = headers['sec-fetch-site'];
  return headers.origin === undefined && (site === 'cross-site' || site === 'same-site');
}
