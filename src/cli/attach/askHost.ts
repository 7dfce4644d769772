// One request of `rawp attach` to the host's HTTP API (listing its sessions, continuing an ended
// one), with the access token, waiting out "not now" answers (429, 503) as their Retry-After says,
// at most `attempts` answers; the last answer is given back whatever it is, for the caller to word.
// The host is not trusted with the terminal (decision 703): its answer is read up to a size, and
// what of it an error quotes goes through `hostWords`.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { cutAt } from '../../protocol/cutText';
import { showControls } from '../controlPictures';
import { RETRY_STATUSES, retryAfterMs } from './retryAfter';

/** The longest answer read when the caller names no limit: a session list is a few KB. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
/** How much of the host's own words an error message quotes. */
const QUOTED_CHARS = 300;

/** Text from the host as an error message may quote it: control characters shown (␛), cut short. */
export function hostWords(text: string): string {
  const one = text.trim();
  return showControls(one.length > QUOTED_CHARS ? `${cutAt(one, QUOTED_CHARS)}…` : one);
}

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
  /** An answer longer than this many bytes is refused (an error), not read on; DEFAULT_MAX_ANSWER_BYTES when left out. */
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
    const maxBytes = o.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const req = send(url, { method: o.json !== undefined ? 'POST' : 'GET', headers, ...(o.ca ? { ca: o.ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes > maxBytes) res.destroy(new Error(`the answer is longer than ${maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), retryAfter: res.headers['retry-after'] }));
      res.on('error', (e) => reject(new Error(`${url}: ${e.message}`)));
    });
    req.on('error', (e) => reject(new Error(`cannot reach ${url}: ${e.message}`)));
    req.end(o.json);
  });
}
