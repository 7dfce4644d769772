// Which JSON values the ACP SDK reads as messages, and which it would answer itself. Mirrors
// @agentclientprotocol/sdk 2.4.0 (dist/core/jsonrpc.js, Connection.receiveUnvalidatedMessage):
// a request (`jsonrpc: "2.0"`, a string `method`, an `id` that is a string, a finite number or
// null), a notification (the same without `id`) and anything response-shaped (no `method`; an
// `id`, `result` or `error`) are read. The SDK answers any other object or array with -32600 and
// id null, its `data` the whole value, once per value and without bound; a string, number,
// boolean or null never reached it (the pipe dropped them without a word). The pipe now keeps all
// of these from the SDK and answers them within its bound, with the request's id when it has one
// (decision 556, unreadableReplies.ts).

export type Id = string | number;

/** A string or number id: what the adapter keys requests by (a null id names no request). */
export const isId = (v: unknown): v is Id => typeof v === 'string' || typeof v === 'number';

const isRpcId = (v: unknown): boolean => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Why the SDK would not read this value as a message; undefined when it would. */
export function notAMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return 'a JSON array, and ACP uses no batches';
  if (typeof value !== 'object' || value === null) return `a JSON ${value === null ? 'null' : typeof value}, not an object`;
  const m = value as Record<string, unknown>;
  const envelope = m.jsonrpc === '2.0';
  if (envelope && typeof m.method === 'string' && (!('id' in m) || isRpcId(m.id))) return undefined; // a request or a notification
  if (!('method' in m)) return 'id' in m || 'result' in m || 'error' in m ? undefined : 'neither a request, a notification nor a response';
  if (!envelope) return 'its "jsonrpc" is not "2.0"';
  if (typeof m.method !== 'string') return 'its "method" is not a string';
  return 'its "id" is not a string, a number or null';
}

/** The longest string id we echo: what a line's head can show (badLines.ts reads 200 characters). */
export const MAX_ECHOED_ID_CHARS = 200;

/**
 * The id to answer a value that is not a message with: its `id` when it has a `method` (it meant to
 * be a request) and the id is one JSON-RPC allows; otherwise null ("If there was an error in
 * detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null"). A
 * string id longer than a line's head is not echoed either: our answer stays small whatever the
 * agent wrote, and an unreadable line could not have shown it.
 */
export function requestIdOf(value: unknown): Id | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('method' in value)) return null;
  const id = (value as { id?: unknown }).id;
  if (typeof id === 'string') return id.length <= MAX_ECHOED_ID_CHARS ? id : null;
  return typeof id === 'number' && Number.isFinite(id) ? id : null;
}
