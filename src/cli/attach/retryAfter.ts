// RFC 9110 §10.2.3 Retry-After: seconds or an HTTP date. A master told to wait (429, 503) waits
// that long and tries again instead of giving up (issue 12 #4): a lockout someone else caused must
// not end the user's `rawp attach`.

/** Waits are kept within these bounds, whatever a server says. */
const MIN_MS = 250;
const MAX_MS = 10 * 60_000;

/** Statuses that mean "not now" rather than "no". */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The wait a Retry-After header asks for, in ms (bounded), or `fallbackMs` when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, fallbackMs: number, now: number = Date.now()): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  let ms: number | undefined;
  if (value !== undefined && /^\d+$/.test(value)) ms = Number(value) * 1000;
  else if (value) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) ms = at - now;
  }
  return Math.min(MAX_MS, Math.max(MIN_MS, ms ?? fallbackMs));
}
