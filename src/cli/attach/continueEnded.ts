// `rawp attach URL --continue ID` (decision 647): asks the host to continue the shared session ID
// that an error ended (POST /v1/sessions/{id}/continue, decision 630) and gives the id of the
// session that goes on with its conversation — a new one, or the one that already does. The
// host's refusals are said in its own words (no such ended session, the agent cannot run now).
import { isSessionId } from '../../remote/controlPlane';
import { askHost, hostWords } from './askHost';

/** How many "not now" answers (429, 503) are waited out before giving up. */
const ATTEMPTS = 5;
/** An answer is a small JSON object; anything longer is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function continueEnded(base: string, session_id: string, token: string, ca?: Buffer): Promise<string> {
  const r = await askHost(`${base}/v1/sessions/${encodeURIComponent(session_id)}/continue`, { token, ...(ca ? { ca } : {}), json: '{}', attempts: ATTEMPTS, maxBytes: MAX_ANSWER_BYTES });
  let answer: { session_id?: unknown; error?: unknown } = {};
  try {
    answer = JSON.parse(r.body) as typeof answer;
  } catch {
    // said below with the status
  }
  if (r.status === 200 || r.status === 201) {
    if (isSessionId(answer.session_id)) return answer.session_id;
    throw new Error(`the host answered ${r.status} without a session id`);
  }
  // The host's words, shown and not obeyed (decision 703).
  throw new Error(typeof answer.error === 'string' ? hostWords(answer.error) : `the host answered ${r.status}`);
}
