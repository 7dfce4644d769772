// Which session `rawp attach URL` means. Accepted: the server's base URL as `rawp serve` prints it
// (http[s]://host:port, then --session or the only/first shared session), a session URL
// (…/v1/sessions/ID) or the stream itself (ws[s]://…/v1/sessions/ID/stream).
import { isSessionId, route, streamPath } from '../../remote/controlPlane';
import { askHost, hostWords } from './askHost';

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
    const sessions = await listSessions(`${base}/v1/sessions`, options.token, options.ca);
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

/**
 * The ids of the host's shared sessions (GET /v1/sessions), waiting out 429/503 as Retry-After
 * says. The host is not trusted with the terminal nor with the next URL (decision 703): its words
 * in an error are quoted through `hostWords`, and an id that is not one is refused.
 */
async function listSessions(url: string, token: string, ca: Buffer | undefined): Promise<{ session_id: string }[]> {
  const r = await askHost(url, { token, ...(ca ? { ca } : {}), attempts: LIST_ATTEMPTS });
  if (r.status !== 200) throw new Error(`listing sessions: the server answered ${r.status} ${hostWords(r.body)}`);
  let sessions: unknown;
  try {
    sessions = (JSON.parse(r.body) as { sessions?: unknown }).sessions;
  } catch (e) {
    throw new Error(`listing sessions: the answer is not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(sessions) || !sessions.every((s) => isSessionId((s as { session_id?: unknown } | null)?.session_id))) throw new Error('listing sessions: the answer is not a list of sessions');
  return sessions as { session_id: string }[];
}
