// `rawp attach URL --continue ID` (decision 647): asks the host to continue the shared session ID
// that an error ended (POST /v1/sessions/{id}/continue, decision 630) and gives the id of the
// session that goes on with its conversation — a new one, or the one that already does. The
// host's refusals are said in its own words (no such ended session, the agent cannot run now).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RETRY_STATUSES, retryAfterMs } from './retryAfter';

/** How many "not now" answers (429, 503) are waited out before giving up. */
const ATTEMPTS = 5;
/** An answer is a small JSON object; anything longer is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function continueEnded(base: string, session_id: string, token: string, ca?: Buffer): Promise<string> {
  const url = `${base}/v1/sessions/${encodeURIComponent(session_id)}/continue`;
  for (let attempt = 1; ; attempt++) {
    const r = await post(url, token, ca);
    if (RETRY_STATUSES.has(r.status) && attempt < ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs(r.retryAfter, 1000)));
      continue;
    }
    let answer: { session_id?: unknown; error?: unknown } = {};
    try {
      answer = JSON.parse(r.body) as typeof answer;
    } catch {
      // said below with the status
    }
    if ((r.status === 200 || r.status === 201) && typeof answer.session_id === 'string') return answer.session_id;
    throw new Error(typeof answer.error === 'string' ? answer.error : `the host answered ${r.status}`);
  }
}

function post(url: string, token: string, ca: Buffer | undefined): Promise<{ status: number; body: string; retryAfter: string | string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 }, ...(ca ? { ca } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (body.length > MAX_ANSWER_BYTES) res.destroy(new Error('the answer is too long'));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
      res.on('error', (e) => reject(new Error(`continuing: ${e.message}`)));
    });
    req.on('error', (e) => reject(new Error(`cannot reach ${url}: ${e.message}`)));
    req.end('{}');
  });
}
