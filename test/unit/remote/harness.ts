// Shared set-up of the remote tests: a real registry + hub + RemoteServer on a loopback port, and
// masters that are real WebSocket clients (MasterClient, the terminal master's transport).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { MASTER_FEATURES, MasterClient, type MasterClientOptions } from '../../../src/cli/attach/masterClient';
import { buildFrame } from '../../../src/protocol/build';
import { registerStream } from '../../support/streamCheck';
import type { Frame, VendorFrame } from '../../../src/protocol/frameTypes';
import { createTranscript, type Transcript } from '../../../src/protocol/transcript';
import { applyFrame } from '../../../src/protocol/transcript/reduce';
import { finalize } from '../../../src/protocol/transcript/finalize';
import { generateToken } from '../../../src/remote/auth';
import { RemoteServer, type RemoteServerOptions } from '../../../src/remote/server';
import type { HistoryOptions } from '../../../src/session/history';
import { Hub } from '../../../src/session/hub';
import { SessionRegistry, type CreateSessionOptions } from '../../../src/session/registry';
import type { AgentSession } from '../../../src/session/engine';
import type { AgentAdapter, AgentHost, AgentPrompt, TurnOutcome } from '../../../src/session/agentAdapter';
import { ScriptedAdapter, type ScriptedAdapterOptions } from '../../support/scriptedAdapter';

export interface Rig {
  server: RemoteServer;
  registry: SessionRegistry;
  hub: Hub;
  session: AgentSession;
  adapter: ScriptedAdapter;
  token: string;
  close(): Promise<void>;
}

export async function rig(
  options: {
    adapter?: ScriptedAdapterOptions;
    history?: HistoryOptions;
    origin?: 'local' | 'remote';
    server?: Partial<RemoteServerOptions>;
    hub?: ConstructorParameters<typeof Hub>[0];
    /** Another agent instead of the scripted one. */
    agent?: AgentAdapter;
    /** Engine options of the session (e.g. its file search port). */
    engine?: CreateSessionOptions['engine'];
  } = {},
): Promise<Rig> {
  const hub = new Hub({ handshakeTimeoutMs: 2000, ...options.hub });
  // The host's clock (rawp serve uses the same): strictly increasing stamps keep §2.3 replay order exact.
  const registry = new SessionRegistry(hub);
  const adapter = new ScriptedAdapter(options.adapter);
  const session = await registry.create({ adapter: options.agent ?? adapter, origin: options.origin ?? 'remote', name: 'test session', history: options.history, ...(options.engine ? { engine: options.engine } : {}) });
  const token = generateToken();
  const server = await RemoteServer.start({ registry, token, ...options.server });
  return {
    server,
    registry,
    hub,
    session,
    adapter,
    token,
    async close() {
      await registry.disposeAll();
      await server.close();
    },
  };
}

/** A master: the real reconnecting client plus its own transcript and every frame it got. */
export class TestMaster {
  readonly frames: Array<Frame | VendorFrame> = [];
  /** What this master got, with its own session.capabilities where it sent it (validated after each test). */
  readonly wire: Array<Frame | VendorFrame> = [];
  readonly transcript: Transcript;
  readonly closes: { code: number; reason: string; retryInMs?: number }[] = [];
  /** Messages the client could not accept (must stay empty). */
  readonly invalid: string[] = [];
  connects = 0;
  ended?: string;
  readonly client: MasterClient;

  constructor(r: { server: RemoteServer; token: string; session: { session_id: string } }, options: Partial<MasterClientOptions> = {}) {
    this.transcript = createTranscript({ sessionId: r.session.session_id });
    this.client = new MasterClient({
      url: r.server.attachUrl(r.session.session_id),
      token: r.token,
      session_id: r.session.session_id,
      reconnect: { initialMs: 10, maxMs: 50 },
      ...options,
      handlers: {
        frame: (f) => {
          this.frames.push(f);
          this.wire.push(f);
          // The master's half of the §13.1 exchange, sent on open by the client library.
          if (f.type === 'session.capabilities') this.wire.push(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: options.features ?? MASTER_FEATURES }, { session_id: r.session.session_id }) as Frame);
          applyFrame(this.transcript, f);
        },
        connected: () => this.connects++,
        invalid: (message) => this.invalid.push(message),
        disconnected: (info) => {
          this.closes.push(info);
          finalize(this.transcript, { reason: 'connection_closed' });
        },
        ended: ({ reason }) => (this.ended = reason),
      },
    });
  }

  /** Connect and wait for the end of the opening sequence. */
  async open(): Promise<this> {
    // What this master received, in the order it arrived. Its own controls are left out: they
    // cross the client's frames on the wire, so only the client's order can place them.
    registerStream('TestMaster', () => this.wire);
    this.client.start();
    await waitFor(() => this.client.connected, 'master attached');
    return this;
  }

  types(): string[] {
    return this.frames.map((f) => f.type);
  }
}

/** Wait on real I/O: the event loop turns until the condition holds (no wall-clock assertion). */
export async function waitFor(condition: () => boolean, what: string, bound = 20_000): Promise<void> {
  // A bound on loop turns with a 1 ms pause each, so a slow machine is not mistaken for a bug.
  for (let i = 0; i < bound; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`gave up waiting for: ${what}`);
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function http(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    // A connection of its own: Node's global agent keeps sockets alive, and one the server closed as
    // idle (its 10 s request timeout) while being reused here read ECONNRESET — a flake of the
    // descriptors test under CI load, not an answer of the server.
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Try a WebSocket upgrade; resolves with the HTTP status of a refusal, or 101 and the socket. */
export function tryUpgrade(url: string, options: { protocols?: string[]; headers?: Record<string, string>; ca?: Buffer } = {}): Promise<{ status: number; socket?: WebSocket; protocol?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers, ...(options.ca ? { ca: options.ca } : {}) });
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.on('open', () => resolve({ status: 101, socket: ws, protocol: ws.protocol }));
    ws.on('error', () => resolve({ status: 0 }));
  });
}

/** Frames that every connection of a session gets (not its own opening frames). */
export function broadcastIds(frames: Array<Frame | VendorFrame>, openingCount: number): string[] {
  return frames.slice(openingCount).map((f) => `${f.type}:${f.message_id}`);
}

/** An agent that streams `batches` × `perBatch` text deltas, yielding the event loop between batches. */
export class PacedAgent implements AgentAdapter {
  readonly info = { id: 'paced', displayName: 'Paced agent', adapter_type: 'sdk' as const };
  private host?: AgentHost;

  constructor(private readonly o: { batches: number; perBatch: number; text: string }) {}

  async start(host: AgentHost) {
    this.host = host;
    return { capabilities: { features: {} }, tools: [], commands: [] };
  }

  async prompt(_p: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    for (let b = 0; b < this.o.batches && !signal.aborted; b++) {
      for (let i = 0; i < this.o.perBatch; i++) this.host?.emit({ type: 'agent.text.delta', payload: { content_index: 0, text: this.o.text } });
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.host?.emit({ type: 'agent.text.done', payload: { content_index: 0 } });
    return { stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };
  }

  async dispose(): Promise<void> {}
}
