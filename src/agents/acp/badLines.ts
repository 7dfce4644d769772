// Lines of an ACP agent that the line reader could not read (decision 551): a line over its length
// limit (dropped whole, decision 543) or one that is not JSON. Each is shown as a recoverable
// warning, as Claude Code's adapter does; and when the line's start shows that it was the answer
// to one of our requests, the pipe (stream.ts) fails that request rather than leave it waiting.
import type { AgentEvent } from '../../session/agentAdapter';
import { BAD_LINE_HEAD_CHARS, badLineMessage } from '../process/jsonLines';

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

const KEY = /\s*("(?:[^"\\]|\\.)*")\s*:\s*/y;
const SCALAR = /(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*,/y;

/**
 * The id of the JSON-RPC answer this line starts as, or undefined when its start does not show it.
 * Read from the first character: `{`, then members whose values are plain (string, number, true,
 * false, null) each followed by a comma, until the key `result` or `error`. An `id` among them and
 * no `method` is an answer (JSON-RPC 2.0: a message with `result` or `error` is a response). Any
 * other start (a nested value first, the id after the result, a head cut inside a member) tells
 * nothing, and nothing is guessed. Only the first 200 characters are read, what the reader keeps
 * of a dropped line, so both kinds of lines are judged alike.
 */
export function responseIdAtStart(line: string): string | number | undefined {
  try {
    return idAtStart(line.slice(0, BAD_LINE_HEAD_CHARS));
  } catch {
    return undefined; // a key or value JSON does not accept (a bad escape): nothing is known
  }
}

function idAtStart(line: string): string | number | undefined {
  const open = /^\s*\{/.exec(line);
  if (!open) return undefined;
  let pos = open[0].length;
  let id: unknown;
  for (;;) {
    KEY.lastIndex = pos;
    const key = KEY.exec(line);
    if (!key) return undefined;
    const name = JSON.parse(key[1]) as string;
    pos = KEY.lastIndex;
    if (name === 'result' || name === 'error') return typeof id === 'string' || typeof id === 'number' ? id : undefined;
    if (name === 'method') return undefined;
    SCALAR.lastIndex = pos;
    const value = SCALAR.exec(line);
    if (!value) return undefined;
    pos = SCALAR.lastIndex;
    if (name === 'id') id = JSON.parse(value[0].replace(/\s*,$/, ''));
  }
}
