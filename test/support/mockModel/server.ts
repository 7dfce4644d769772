// A scripted local model server for end-to-end tests of real agent CLIs: Node built-ins only,
// bound to 127.0.0.1 on a free port. The core knows nothing of any provider: routes are plugged in
// (`server.route('POST', '/v1/messages', handler)`) by provider files such as anthropic.ts, and
// each route pops its replies from its own queue. The core gives every route the same tools:
// a request log for assertions, scripted API errors, delays, and streams that hang until the
// client goes away (for cancel tests).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Controls every scripted reply understands, whatever its route. */
export interface ReplyControl {
  /** Answer with this HTTP error instead of a model reply (the route shapes the body). */
  error?: { status: number; type?: string; message?: string; body?: unknown; headers?: Record<string, string> };
  /** Wait this long before the first byte. */
  delayMs?: number;
  /** Wait this long between stream events. */
  eventDelayMs?: number;
  /** After the scripted events, keep the stream open (no end) until the client disconnects. */
  hang?: boolean;
  /** Only take this reply for a request it matches (others skip it); e.g. the main model vs a side call. */
  match?(req: MockRequest): boolean;
}

export interface MockRequest {
  /** 1-based arrival number. */
  seq: number;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  body: unknown;
  /** The route key that served it ("POST /v1/messages"), or undefined for a 404. */
  route?: string;
  /** The client closed the connection before the reply ended (e.g. a cancelled turn). */
  aborted: boolean;
  /** The reply was completely written. */
  completed: boolean;
}

export interface RouteContext<R extends ReplyControl = ReplyControl> {
  req: MockRequest;
  res: ServerResponse;
  /** The next scripted reply for this route that matches the request, or undefined. */
  reply: R | undefined;
  /** Path parameters from a pattern route (`:name` segments or RegExp groups). */
  params: Record<string, string>;
  server: MockModelServer;
  /** An SSE writer honouring `eventDelayMs`, `hang` and client aborts. */
  sse(): SseWriter;
}

export type RouteHandler<R extends ReplyControl = ReplyControl> = (ctx: RouteContext<R>) => Promise<void> | void;

/** Writes `event:`/`data:` frames; `end()` honours `hang`. Writes after a client abort are dropped. */
export class SseWriter {
  private started = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly req: MockRequest,
    private readonly control: ReplyControl,
  ) {}

  get aborted(): boolean {
    return this.req.aborted;
  }

  private head(): void {
    if (this.started) return;
    this.started = true;
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  /** One SSE event. `event` omitted gives a data-only event (OpenAI style). */
  async send(data: unknown, event?: string): Promise<void> {
    if (this.req.aborted) return;
    this.head();
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.res.write(`${event ? `event: ${event}\n` : ''}data: ${text}\n\n`);
    if (this.control.eventDelayMs) await sleep(this.control.eventDelayMs);
  }

  /** Finish the stream, or with `hang` keep it open until the client disconnects. */
  async end(): Promise<void> {
    this.head();
    if (this.control.hang) {
      await new Promise<void>((resolve) => {
        if (this.req.aborted) return resolve();
        this.res.once('close', () => resolve());
      });
      return;
    }
    if (!this.req.aborted) this.res.end();
  }
}

interface RouteEntry {
  key: string;
  method: string;
  match(path: string): Record<string, string> | undefined;
  handler: RouteHandler<ReplyControl>;
}

export class MockModelServer {
  /** Every request, in arrival order. */
  readonly requests: MockRequest[] = [];
  private readonly routes: RouteEntry[] = [];
  private readonly queues = new Map<string, ReplyControl[]>();
  private readonly fallbacks = new Map<string, ReplyControl>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private server: Server | undefined;
  private _port = 0;

  static async start(setup?: (s: MockModelServer) => void): Promise<MockModelServer> {
    const s = new MockModelServer();
    setup?.(s);
    await s.listen();
    return s;
  }

  get port(): number {
    return this._port;
  }

  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  get url(): string {
    return `http://127.0.0.1:${this._port}`;
  }

  /**
   * Plug a route in. `path` is exact ("/v1/messages"), has `:name` parameters after a slash
   * ("/v1beta/models/:model:streamGenerateContent"), or is a RegExp whose named groups become
   * params. The first registered route that matches serves the request.
   * Returns the route key that `enqueue` takes.
   */
  route<R extends ReplyControl>(method: string, path: string | RegExp, handler: RouteHandler<R>): string {
    const key = `${method.toUpperCase()} ${String(path)}`;
    // Each route owns its queue, so the replies it pops are the R it was registered with.
    this.routes.push({ key, method: method.toUpperCase(), match: pathMatcher(path), handler: handler as unknown as RouteHandler<ReplyControl> });
    if (!this.queues.has(key)) this.queues.set(key, []);
    return key;
  }

  /** Script replies for a route, consumed in order (skipping ones whose `match` says no). */
  enqueue<R extends ReplyControl>(routeKey: string, ...replies: R[]): this {
    const q = this.queues.get(routeKey);
    if (!q) throw new Error(`mock: no route "${routeKey}" (routes: ${[...this.queues.keys()].join(', ')})`);
    q.push(...replies);
    return this;
  }

  /** A reply used whenever the queue has nothing that matches (e.g. for side calls of an agent). */
  setFallback<R extends ReplyControl>(routeKey: string, reply: R | undefined): this {
    if (reply) this.fallbacks.set(routeKey, reply);
    else this.fallbacks.delete(routeKey);
    return this;
  }

  /** Replies still waiting in a route's queue (assert it is empty at the end of a test). */
  pending(routeKey: string): number {
    return this.queues.get(routeKey)?.length ?? 0;
  }

  /** Requests served by one route. */
  requestsFor(routeKey: string): MockRequest[] {
    return this.requests.filter((r) => r.route === routeKey);
  }

  /** Drop scripted replies and the log (between tests that share a server). */
  reset(): void {
    for (const q of this.queues.values()) q.length = 0;
    this.fallbacks.clear();
    this.requests.length = 0;
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (sock) => {
      this.sockets.add(sock);
      sock.on('close', () => this.sockets.delete(sock));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this._port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private takeReply(key: string, req: MockRequest): ReplyControl | undefined {
    const q = this.queues.get(key) ?? [];
    const i = q.findIndex((r) => !r.match || r.match(req));
    if (i >= 0) return q.splice(i, 1)[0];
    return this.fallbacks.get(key);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const logged: MockRequest = {
      seq: this.requests.length + 1,
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      headers: req.headers,
      rawBody,
      body,
      aborted: false,
      completed: false,
    };
    this.requests.push(logged);
    res.on('close', () => {
      if (!res.writableFinished) logged.aborted = true;
    });
    res.on('finish', () => {
      logged.completed = true;
    });

    for (const r of this.routes) {
      if (r.method !== logged.method) continue;
      const params = r.match(logged.path);
      if (!params) continue;
      logged.route = r.key;
      const reply = this.takeReply(r.key, logged);
      try {
        if (reply?.delayMs) await sleep(reply.delayMs);
        await r.handler({ req: logged, res, reply, params, server: this, sse: () => new SseWriter(res, logged, reply ?? {}) });
      } catch (e) {
        if (!res.headersSent) jsonResponse(res, 500, { error: { type: 'mock_error', message: `mock route failed: ${(e as Error).message}` } });
        else res.destroy();
      }
      return;
    }
    jsonResponse(res, 404, { error: { type: 'not_found', message: `mock: no route for ${logged.method} ${logged.path}` } });
  }
}

export function jsonResponse(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The scripted HTTP error of a reply, in the shape `shape` gives it (each provider has its own). */
export function sendScriptedError(res: ServerResponse, error: NonNullable<ReplyControl['error']>, shape: (type: string, message: string) => unknown): void {
  const body = error.body ?? shape(error.type ?? 'api_error', error.message ?? 'scripted error');
  jsonResponse(res, error.status, body, error.headers);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function pathMatcher(path: string | RegExp): (p: string) => Record<string, string> | undefined {
  if (path instanceof RegExp) {
    return (p) => {
      const m = path.exec(p);
      return m ? { ...(m.groups ?? {}) } : undefined;
    };
  }
  if (!path.includes('/:')) return (p) => (p === path ? {} : undefined);
  const names: string[] = [];
  // A `:name` right after a slash is a parameter; it stops at `/` and `:` so Google-style
  // "/models/:model:streamGenerateContent" works.
  const re = new RegExp('^' + path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:([A-Za-z_]\w*)/g, (_m, n: string) => (names.push(n), '/([^/:]+)')) + '$');
  return (p) => {
    const m = re.exec(p);
    if (!m) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
  };
}

/** Split text into pieces of about `size` characters (several deltas per block, like real models). */
export function chunkText(text: string, size = 12): string[] {
  if (!text) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
