// How long an id from a peer may be. The spec's ids are UUID v4 (36 characters; §2.1) and agents'
// own ids are a few dozen; but the schemas take any non-empty string (decision 001), and the hub
// remembers a peer's ids by count, not by bytes (10,000 controls' message_ids for idempotency, the
// history's 20,000 positions). Eight masters sending 4 MiB message_ids under the refusal rate
// limit made the host keep 470 MB for good (the socket review of 2026-12-06). A peer's id is held
// to INCOMING_MAX_ID_CHARS before anything keeps it.

/** The longest id (message_id, session_id, parent_id, a payload's `…_id`) a peer's frame may carry. */
export const INCOMING_MAX_ID_CHARS = 256;

interface IdCarrier {
  session_id?: unknown;
  message_id?: unknown;
  parent_id?: unknown;
  payload?: unknown;
}

/** The first id of `frame` longer than `max` characters: its field name and length; undefined when none is. */
export function overlongId(frame: IdCarrier, max: number): { field: string; length: number } | undefined {
  for (const field of ['session_id', 'message_id', 'parent_id'] as const) {
    const v = frame[field];
    if (typeof v === 'string' && v.length > max) return { field, length: v.length };
  }
  const payload = frame.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  for (const [key, v] of Object.entries(payload)) {
    if (key.endsWith('_id') && typeof v === 'string' && v.length > max) return { field: `payload.${key}`, length: v.length };
  }
  return undefined;
}
