// Lines of an ACP agent that the line reader could not read (decision 551): a line over its length
// limit (dropped whole, decision 543) or one that is not JSON. Each is shown as a recoverable
// warning, as Claude Code's adapter does; and what the line's start shows decides the rest (the
// pipe, stream.ts): the answer to one of our requests fails that request rather than leave it
// waiting (551); anything but an answer gets a JSON-RPC error back, with the id of the agent's
// request when the start shows one (556, unreadableReplies.ts).
import type { AgentEvent } from '../../session/agentAdapter';
import { BAD_LINE_HEAD_CHARS, badLineMessage } from '../process/jsonLines';
import { isId, type Id } from './rpcShape';

export function badLineWarning(agent: { id: string; displayName: string }, line: string, reason: string): AgentEvent {
  return {
    type: 'agent.error',
    payload: {
      error_code: 'UNPARSEABLE_OUTPUT',
      message: badLineMessage(agent.displayName, line, reason),
      severity: 'warning',
      recoverable: true,
      details: { module: agent.id },
    },
  };
}

// Both patterns are anchored (sticky) and every alternative starts with a different character, so
// a match never backtracks more than once over what it read: linear in the (at most 200) characters.
const KEY = /\s*("(?:[^"\\]|\\.)*")\s*:\s*/y;
const SCALAR = /("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*([,}])/y;

/**
 * What the start of a line shows of the message it began (decisions 551, 556):
 * - `answer`: a `result` or `error` key came first among the plain members — a response; `id` is set
 *   only when an `id` came before it and no `method` did;
 * - `request`: a `method` with a string value and an `id` came, and no `result`/`error` so far;
 * - `unknown`: anything else (no `{`, a nested value or the end of the head before those keys, a
 *   `method` without a visible id — a notification, or a request whose id comes later).
 */
export type LineStart = { kind: 'answer'; id?: Id } | { kind: 'request'; id: Id } | { kind: 'unknown' };

/**
 * Reads only the first 200 characters, what the reader keeps of a dropped line, so both kinds of
 * lines are judged alike. From the first character: `{`, then members whose values are plain
 * (string, number, true, false, null) each followed by a comma (or the closing brace), until the
 * key `result` or `error` or a value that is not plain. Nothing is guessed beyond that.
 */
export function lineStart(line: string): LineStart {
  try {
    return readHead(line.slice(0, BAD_LINE_HEAD_CHARS));
  } catch {
    return { kind: 'unknown' }; // a key or value JSON does not accept (a bad escape): nothing is known
  }
}

/**
 * The id of the JSON-RPC answer this line starts as, or undefined when its start does not show it
 * (JSON-RPC 2.0: a message with `result` or `error` is a response). Any other start (a nested
 * value first, the id after the result, a head cut inside a member, a `method`) tells nothing.
 */
export function responseIdAtStart(line: string): Id | undefined {
  const start = lineStart(line);
  return start.kind === 'answer' ? start.id : undefined;
}

function readHead(line: string): LineStart {
  const open = /^\s*\{/.exec(line);
  if (!open) return { kind: 'unknown' };
  let pos = open[0].length;
  let id: unknown;
  let method: 'none' | 'string' | 'other' = 'none';
  for (;;) {
    KEY.lastIndex = pos;
    const key = KEY.exec(line);
    if (!key) break;
    const name = JSON.parse(key[1]) as string;
    pos = KEY.lastIndex;
    if (name === 'result' || name === 'error') return method === 'none' && isId(id) ? { kind: 'answer', id } : { kind: 'answer' };
    if (name === 'method') method = 'other'; // until its value shows it is a string
    SCALAR.lastIndex = pos;
    const value = SCALAR.exec(line);
    if (!value) break;
    pos = SCALAR.lastIndex;
    const parsed: unknown = JSON.parse(value[1]);
    if (name === 'id') id = parsed;
    if (name === 'method') method = typeof parsed === 'string' ? 'string' : 'other';
    if (value[2] === '}') break; // the message ended without a result or error
  }
  return method === 'string' && isId(id) ? { kind: 'request', id } : { kind: 'unknown' };
}
