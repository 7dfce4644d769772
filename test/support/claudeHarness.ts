// The real `claude` binary driven by our adapter and the session engine, against the scripted mock
// model server, in a temp git workspace with a throwaway HOME: one session and a master that
// answers permissions (shared by the Claude Code end-to-end test files).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeCodeAdapter, resolveClaudeCommand } from '../../src/agents/claudeCode';
import type { AgentAdapter } from '../../src/session/agentAdapter';
import { buildFrame } from '../../src/protocol/build';
import { validateText, formatText } from '../../src/protocol/conformance';
import type { Frame, FrameOf, FrameType, PayloadOf } from '../../src/protocol/frameTypes';
import { AgentSession, type PermissionBroker } from '../../src/session';
import { MockModelServer, type MockRequest } from './mockModel/server';
import { installAnthropic, type AnthropicReply } from './mockModel/anthropic';
import { claudeEnv } from './mockModel/claudeEnv';

const MASTER_FEATURES = { thinking_stream: true, tool_streaming: true, subagent: true, subagent_context: true, context_compaction: true, plan_mode: true };


/** A permission answer, or a YN question's value (§9.2 plan approval); `none`: leave the question open (the user walked away). */
export type Answer = 'allow' | 'deny' | 'allow_session' | 'none' | 'yes' | 'no';

/** One session: mock model + real claude + engine, with a master that answers permissions. */
export class Harness {
  readonly wire: Frame[] = [];
  readonly mock: MockModelServer;
  readonly key: string;
  readonly ws: string;
  readonly home: string;
  session!: AgentSession;
  adapter!: AgentAdapter;
  answer: (req: PayloadOf<'agent.interaction.request'>) => Answer = () => 'allow';
  /** The host's one permission broker, when a test shares it between sessions (issue 11 item 4). */
  permissions?: PermissionBroker;
  private listeners: Array<(f: Frame) => void> = [];
  /** Harnesses not closed yet: useRealClaude closes them after each test. */
  private static readonly live = new Set<Harness>();

  private constructor(mock: MockModelServer) {
    this.mock = mock;
    this.key = installAnthropic(mock);
    this.ws = mkdtempSync(join(tmpdir(), 'rawp-cc-ws-'));
    this.home = mkdtempSync(join(tmpdir(), 'rawp-cc-home-'));
    spawnSync('git', ['init', '-q'], { cwd: this.ws });
    writeFileSync(join(this.ws, 'a.txt'), 'hello\nworld\n');
  }

  static async create(make?: (h: Harness) => AgentAdapter, permissions?: (h: Harness) => PermissionBroker): Promise<Harness> {
    const h = new Harness(await MockModelServer.start());
    Harness.live.add(h);
    if (permissions) h.permissions = permissions(h);
    await h.open(make ?? ((x) => new ClaudeCodeAdapter({ env: x.env(), killGraceMs: 1500 })));
    return h;
  }

  env(): Record<string, string> {
    return claudeEnv(this.mock.url, this.home);
  }

  /** Start a (new) engine session on this workspace with the given adapter. */
  async open(make: (h: Harness) => AgentAdapter): Promise<void> {
    this.adapter = make(this);
    this.session = new AgentSession({ adapter: this.adapter, workspacePath: this.ws, out: (f) => this.record(f), cancelGraceMs: 8000, disposeTimeoutMs: 8000, ...(this.permissions ? { permissions: this.permissions } : {}) });
    await this.session.start();
  }

  script(...replies: AnthropicReply[]): this {
    this.mock.enqueue(this.key, ...replies);
    return this;
  }

  private record(f: Frame): void {
    this.wire.push(f);
    // §13.1: the master answers the client's capabilities with its own, before anything else.
    if (f.type === 'session.capabilities') this.master('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: MASTER_FEATURES });
    for (const l of [...this.listeners]) l(f);
    if (f.type === 'agent.interaction.request') {
      const answer = this.answer(f.payload);
      if (answer === 'none') return;
      // The session's permission options (src/session/permissions/broker.ts).
      const value = answer === 'allow' ? 'allow_once' : answer === 'deny' ? 'reject' : answer;
      setImmediate(() => this.master('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: value }));
    }
  }

  /** A frame from the master: recorded on the wire and handed to the session. */
  master<T extends FrameType>(type: T, payload: PayloadOf<T>): FrameOf<T> {
    const f = buildFrame(type, payload, { session_id: this.session.session_id });
    this.wire.push(f as Frame);
    this.session.handle(f as Frame, { connection_id: 'master', kind: 'remote' });
    return f;
  }

  /** Wait for the first frame at or after wire index `from` (default: from now on) that matches. */
  next<T extends FrameType>(type: T, pred: (f: FrameOf<T>) => boolean = () => true, from = this.wire.length, timeoutMs = 30_000): Promise<FrameOf<T>> {
    const hit = (f: Frame): f is Frame & FrameOf<T> => f.type === type && pred(f as FrameOf<T>);
    const seen = this.wire.slice(from).find(hit);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`no ${type} within ${timeoutMs} ms; last frames: ${this.wire.slice(-5).map((f) => f.type).join(', ')}`));
      }, timeoutMs);
      const listener = (f: Frame) => {
        if (hit(f)) {
          clearTimeout(timer);
          this.listeners = this.listeners.filter((l) => l !== listener);
          resolve(f);
        }
      };
      this.listeners.push(listener);
    });
  }

  /** Send a prompt and wait for its turn to end; returns the turn's frames. */
  async prompt(text: string): Promise<Frame[]> {
    const from = this.wire.length;
    this.master('control.prompt.request', { prompt_text: text });
    const turnId = (await this.next('session.turn.start', () => true, from)).payload.turn_id;
    await this.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    return this.wire.slice(from);
  }

  /** The whole wire so far must pass `rawp validate` without errors. */
  assertValid(): void {
    const text = this.wire.map((f) => JSON.stringify(f)).join('\n');
    const v = validateText(text);
    assert.equal(v.errors, 0, formatText(v));
  }

  mainRequests(): MockRequest[] {
    return this.mock.requestsFor(this.key);
  }

  /** Closes every harness a test left open. */
  static async closeAll(): Promise<void> {
    await Promise.all([...Harness.live].map((h) => h.close()));
  }

  async close(): Promise<void> {
    if (!Harness.live.delete(this)) return; // closed already
    if (this.session && !this.session.isEnded) await this.session.end();
    await this.mock.stop();
    rmSync(this.ws, { recursive: true, force: true });
    rmSync(this.home, { recursive: true, force: true });
  }
}

export function of<T extends FrameType>(frames: Frame[], type: T): Array<FrameOf<T>> {
  return frames.filter((f) => f.type === type) as unknown as Array<FrameOf<T>>;
}

export function text(frames: Frame[]): string {
  return of(frames, 'agent.text.delta')
    .map((f) => f.payload.text)
    .join('');
}

/**
 * The set-up every suite of the real `claude` CLI shares (call it inside `describe`): the binary must
 * be there — npm ci installs it, and a missing one fails the suite, never skips it — and each
 * test's harnesses are closed after it.
 */
export function useRealClaude(): void {
  before(function () {
    if (!existsSync(resolveClaudeCommand())) throw new Error(`claude binary missing at ${resolveClaudeCommand()} (npm ci installs @anthropic-ai/claude-code)`);
  });
  afterEach(() => Harness.closeAll());
}
