// What the sharing server lets anyone hold at once, so a flood meets a plain refusal before the
// host runs out of file descriptors (decision 562): every connection is one descriptor, every
// session holds its journal open (and an agent process, for the CLI agents), and a host out of
// descriptors can no longer start git, a Bash command or an agent.

/** Sessions a host holds when a master asks for another (POST /v1/sessions). */
export const DEFAULT_MAX_SESSIONS = 64;
/** Open connections to the server, whether they have sent a request, upgraded, or nothing yet. */
export const DEFAULT_MAX_CONNECTIONS = 256;
/** Room above the attached masters (each holds one connection) for plain HTTP requests. */
const CONNECTIONS_OVER_MASTERS = 64;
/**
 * A request's headers must be complete this long after its connection opened (Node: 60 s, checked
 * every 30 s). A control plane on loopback or a LAN sends its headers in milliseconds; ten seconds
 * leaves room for a slow link and frees a silent or trickling connection within 11 s.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * Requests one connection may make. A browser never pipelines; a client that sends a thousand at
 * once on one connection gets answers to the first hundred, then the connection ends (the socket
 * review of 2026-12-06: pipelined GETs of the 1.5 MB bundle held 1.5 GB and stalled the host 8 s).
 */
export const MAX_REQUESTS_PER_SOCKET = 100;
/** How often Node looks for connections past their time (its default is 30 s). */
export const CONNECTIONS_CHECK_MS = 1_000;

/** A refusal with an HTTP status and words, thrown by a handler the HTTP API calls. */
export class RefusedRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RefusedRequest';
  }
}

/** The connection cap for a server with `maxMasters` attached at most. */
export function connectionCap(maxConnections: number | undefined, maxMasters: number): number {
  return maxConnections ?? Math.max(DEFAULT_MAX_CONNECTIONS, maxMasters + CONNECTIONS_OVER_MASTERS);
}

/**
 * What makes a session (POST /v1/sessions, and POST /v1/sessions/{id}/continue, decision 630)
 * within `max` sessions: the host's sessions (the editor's own too) and the creations still under
 * way by any of the wrapped calls count; at the cap, 503 with words.
 */
export function sessionCap(held: () => number, max: number): <A extends unknown[], T>(create: (...args: A) => Promise<T>) => (...args: A) => Promise<T> {
  let underWay = 0;
  return (create) =>
    async (...args) => {
      const now = held() + underWay;
      if (now >= max) {
        throw new RefusedRequest(503, `this host holds ${now} sessions, the most it keeps is ${max}: delete one (DELETE /v1/sessions/{id}) before creating another`);
      }
      underWay++;
      try {
        return await create(...args);
      } finally {
        underWay--;
      }
    };
}
