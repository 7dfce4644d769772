// The errors a `rawp run` keeps (its stderr lines, the json `errors[]`), bounded (decision 716).
// Every agent.error and session.error was kept whole and without a cap: an agent writing 300,000
// unreadable lines gave 300,000 entries, and one 20 MB agent error a 20 MB line. The first
// RUN_ERRORS_HEAD and the last RUN_ERRORS_TAIL are kept (the last ones often say why the run
// ended), one entry between them counts those left out, and each message is cut.
import { cutAt } from '../protocol/cutText';

export interface RunError {
  source: 'agent' | 'session';
  error_code: string;
  message: string;
  severity?: string;
}

export const RUN_ERRORS_HEAD = 50;
export const RUN_ERRORS_TAIL = 50;
/** The longest message kept, in UTF-16 units; the rest is counted. */
export const RUN_ERROR_CHARS = 4000;
/** The code of the entry that counts the errors left out. */
export const ERRORS_LEFT_OUT = 'ERRORS_LEFT_OUT';

/** `message` cut at `max` characters, saying how many were left out. */
export function cutMessage(message: string, max = RUN_ERROR_CHARS): string {
  return message.length > max ? `${cutAt(message, max)}… [${message.length - max} more characters]` : message;
}

/**
 * Adds `e` to `errors`, keeping it bounded: once the head and the tail are full, the oldest of the
 * tail is left out and counted in the entry that then follows the head (the list's length is the
 * sign: it holds one entry more than the head and the tail only once that entry is there).
 */
export function keepError(errors: RunError[], e: RunError): void {
  const entry = { ...e, error_code: cutMessage(e.error_code, 200), message: cutMessage(e.message) };
  const full = RUN_ERRORS_HEAD + RUN_ERRORS_TAIL;
  if (errors.length < full) {
    errors.push(entry);
    return;
  }
  const counted = errors.length > full ? (leftOut.get(errors[RUN_ERRORS_HEAD]) ?? 0) : 0;
  // Out: the oldest of the tail (right after the head, or after the counter once there is one).
  errors.splice(counted > 0 ? RUN_ERRORS_HEAD + 1 : RUN_ERRORS_HEAD, 1);
  const left = counted + 1;
  const counter: RunError = { source: 'session', error_code: ERRORS_LEFT_OUT, message: `${left} more errors and warnings came here and were left out (the first ${RUN_ERRORS_HEAD} and the last ${RUN_ERRORS_TAIL} are kept)`, severity: 'warning' };
  leftOut.set(counter, left);
  errors.splice(RUN_ERRORS_HEAD, counted > 0 ? 1 : 0, counter);
  errors.push(entry);
}

/** The count of each counter entry made here. */
const leftOut = new WeakMap<RunError, number>();
