// One request of `rawp attach` to the host's HTTP API (listing its sessions, continuing an ended
// one), with the access token, waiting out "not now" answers (429, 503) as their Retry-After says,
// at most `attempts` answers; the last answer is given back whatever it is, for the caller to word.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RETRY_STATUSES, retryAfterMs } from './retryAfter';

export interface HostAnswer {
  status: number;
  body: string;
}

export interface AskOptions {
  token: string;
  ca?: Buffer;
  /** A POST with this JSON body; a GET without one. */
  json?: string;
  attempts: number;
  /** An answer longer than this is refused (an error), not read on. */
  maxBytes?: number;
}

export async function askHost(url: string, o: AskOptions): Promise<HostAnswer> {
  for (let attempt = 1; ; attempt++) {
    const r = await once(url, o);
    if (!RETRY_STATUSES.has(r.status) || attempt >= o.attempts) return r;
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs(r.retryAfter, 1000)));
  }
}

function once(url: string, o: AskOptions): Promise<HostAnswer & { retryAfter: string | string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const headers: Record<string, string | number> = { authorization: `Bearer ${o.token}`, ...(o.json !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(o.json) } : {}) };
    const req = send(url, { method: o.json !== undefined ? 'POST' : 'GET', headers, ...(o.ca ? { ca: o.ca } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (o.maxBytes !== undefined && body.length > o.maxBytes) res.destroy(new Error('the answer is too long'));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
      res.on('error', (e) => reject(new Error(`${url}: ${e.message}`)));
    });
    req.on('error', (e) => reject(new Error(`cannot reach ${url}: ${e.message}`)));
    req.end(o.json);
  });
}
