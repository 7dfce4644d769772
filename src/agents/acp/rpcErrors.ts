// What a failed JSON-RPC request of an ACP agent says, for the user's notices and the login card:
// the error's message plus what its `data` adds (agents put the real reason there), and the code
// and data themselves for `details`.

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
  return String(e);
}

/** The error's message, then its `data.details` / `data.message` in parentheses when that adds anything. */
export function rpcErrorText(e: unknown): string {
  const message = messageOf(e);
  const data = (e as { data?: { details?: unknown; message?: unknown } } | null)?.data;
  const d = typeof data?.details === 'string' ? data.details : typeof data?.message === 'string' ? data.message : undefined;
  return d && !message.includes(d) ? `${message} (${d})` : message;
}

/** The JSON-RPC code and data, for an agent.error's `details`. */
export function rpcErrorData(e: unknown): Record<string, unknown> {
  const code = (e as { code?: unknown } | null)?.code;
  const data = (e as { data?: unknown } | null)?.data;
  return { ...(typeof code === 'number' ? { rpc_code: code } : {}), ...(data !== undefined ? { rpc_data: data } : {}) };
}
