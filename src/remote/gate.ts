// The door every request goes through, plain HTTP and WebSocket upgrade alike: route, method,
// browser Origin (403), bearer token (401), lockout of a source that keeps presenting wrong
// tokens (429). A refused upgrade gets a plain HTTP answer and never becomes a WebSocket.
// Lockout rules (issue 12 #4, decision 162): a missing token is a plain 401 and counts for
// nothing (a web page's <img> requests carry none); the right token is checked first and always
// passes, whatever others did from the same source; loopback is one source (sourceKey).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { sourceKey, type FailureThrottle, type TokenVerifier } from './auth';
import { crossSiteWithoutOrigin, hostAllowed, originAllowed, presentedToken, PUBLIC_ROUTES, route, ROUTE_METHODS, type Route } from './controlPlane';

export interface GateContext {
  verifier: TokenVerifier;
  throttle: FailureThrottle;
  /** The names this host answers to (ownHostNames): the Host header must be one of them. */
  hostNames: ReadonlySet<string>;
  ownOrigins: ReadonlySet<string>;
  allowedOrigins: ReadonlySet<string>;
}

export type Refusal = { status: number; message: string; headers?: Record<string, string> };
export type GateResult = { ok: true; route: Route } | ({ ok: false } & Refusal);

export function gate(req: IncomingMessage, ctx: GateContext, upgrade: boolean): GateResult {
  const r = route(req.url ?? '/');
  if (r.kind === 'not_found' || (upgrade && r.kind !== 'stream')) return { ok: false, status: 404, message: 'not found' };
  const method = req.method ?? 'GET';
  if (!ROUTE_METHODS[r.kind].includes(method)) {
    return { ok: false, status: 405, message: `${method} is not allowed here`, headers: { allow: ROUTE_METHODS[r.kind].join(', ') } };
  }
  // DNS rebinding (issue 12 #11): a page whose name now resolves here still sends its own name.
  if (!hostAllowed(req.headers.host, ctx.hostNames)) {
    return { ok: false, status: 421, message: `host ${req.headers.host ?? '(none)'} is not a name of this server (add it with --public-host)` };
  }
  const origin = req.headers.origin;
  if (!originAllowed(origin, { own: ctx.ownOrigins, allowed: ctx.allowedOrigins })) {
    return { ok: false, status: 403, message: `origin ${origin} is not allowed` };
  }
  if (PUBLIC_ROUTES.has(r.kind)) return { ok: true, route: r };
  if (crossSiteWithoutOrigin(req.headers)) return { ok: false, status: 403, message: 'cross-site requests are not allowed here' };
  const token = presentedToken(req.headers);
  if (token === undefined) return { ok: false, status: 401, message: 'a bearer token is required', headers: { 'www-authenticate': 'Bearer realm="rawp"' } };
  if (ctx.verifier.matches(token)) return { ok: true, route: r };
  const source = sourceKey(req.socket.remoteAddress);
  const wait = ctx.throttle.retryAfterMs(source);
  ctx.throttle.recordFailure(source);
  if (wait > 0) {
    return { ok: false, status: 429, message: 'too many wrong tokens; try again later', headers: { 'retry-after': String(Math.ceil(wait / 1000)) } };
  }
  return { ok: false, status: 401, message: 'the token is not valid', headers: { 'www-authenticate': 'Bearer realm="rawp"' } };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Answer a WebSocket upgrade request with an HTTP error and close the socket (no upgrade). */
export function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const body = JSON.stringify({ error: refusal.message });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...refusal.headers,
  };
  const head = [`HTTP/1.1 ${refusal.status} ${REASONS[refusal.status] ?? 'Error'}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  if (socket.writable) socket.end(`${head}\r\n\r\n${body}`);
  else socket.destroy();
}
