// Which session `rawp attach URL` means. Accepted: the server's base URL as `rawp serve` prints it
// (http[s]://host:port, then --session or the only/first shared session), a session URL
// (…/v1/sessions/ID) or the stream itself (ws[s]://…/v1/sessions/ID/stream).
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { route, streamPath } from '../../remote/controlPlane';
import { RETRY_STATUSES, retryAfterMs } from './retryAfter';

/** How many "not now" answers listing the sessions sits out before giving up. */
const LIST_ATTEMPTS = 20;

export interface Target {
  /** ws(s)://host:port/v1/sessions/ID/stream */
  streamUrl: string;
  session_id: string;
}

export async function resolveTarget(raw: string, options: { token: string; session?: string; ca?: Buffer }): Promise<Target> {
  const url = hostUrl(raw);
  const base = httpBaseOf(url);
  const wsBase = base.replace(/^http/, 'ws');
  const r = route(url.pathname);
  let session_id = options.session;
  if (r.kind === 'stream' || r.kind === 'session') session_id ??= r.session_id;
  if (session_id === undefined) {
    const sessions = await listSessionsPatiently(`${base}/v1/sessions`, options.token, options.ca);
    if (sessions.length === 0) throw new Error('the host shares no session');
    session_id = sessions[0].session_id;
  }
  return { streamUrl: `${wsBase}${streamPath(session_id)}`, session_id };
}

/** A URL `rawp attach` accepts (http, https, ws or wss), or why not. */
export function hostUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`not a URL: ${raw}`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new Error(`unsupported scheme ${url.protocol} (use http, https, ws or wss)`);
  return url;
}

/** http(s)://host:port of a host's URL (ws(s) becomes http(s)): where its HTTP API and files are. */
export function httpBaseOf(raw: string | URL): string {
  const url = typeof raw === 'string' ? hostUrl(raw) : raw;
  return `${url.protocol === 'https:' || url.protocol === 'wss:' ? 'https' : 'http'}://${url.host}`;
}

class NotNow extends Error {
  constructor(
    message: string,
    readonly waitMs: number,
  ) {
    super(message);
  }
}

/** listSessions, waiting out 429/503 as Retry-After says (bounded in attempts). */
async function listSessionsPatiently(url: string, token: string, ca: Buffer | undefined): Promise<{ session_id: string; name: string }[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listSessions(url, token, ca);
    } catch (e) {
      if (!(e instanceof NotNow) || attempt >= LIST_ATTEMPTS) throw e;
      await new Promise((resolve) => setTimeout(resolve, e.waitMs));
    }
  }
}

function listSessions(url: string, token: string, ca: Buffer | undefined): Promise<{ session_id: string; name: string }[]> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { headers: { authorization: `Bearer ${token}` }, ...(ca ? { ca } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const message = `listing sessions: the server answered ${res.statusCode} ${body}`;
        if (RETRY_STATUSES.has(res.statusCode ?? 0)) return reject(new NotNow(message, retryAfterMs(res.headers['retry-after'], 1000)));
        if (res.statusCode !== 200) return reject(new Error(message));
        try {
          resolve((JSON.parse(body) as { sessions: { session_id: string; name: string }[] }).sessions);
        } catch (e) {
          reject(new Error(`listing sessions: ${(e as Error).message}`));
        }
      });
    });
    req.on('error', (e) => reject(new Error(`cannot reach ${url}: ${e.message}`)));
  });
}
