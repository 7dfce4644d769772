// Issue 15 Why 4, with the real `claude` binary: no credentials at all (a throwaway HOME and
// CLAUDE_CONFIG_DIR, no API key) and the scripted mock model as its API. The CLI answers
// "Not logged in · Please run /login" twice (an assistant notice and the result); the view must get
// one AUTH_REQUIRED agent.error that says how to log in, and not the CLI's words as chat text.
// A key the API refuses (401) is the same state.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeCodeAdapter, resolveClaudeCommand } from '../../../src/agents/claudeCode';
import { AUTH_REQUIRED, agentLogin } from '../../../src/protocol/agentLogin';
import { buildFrame } from '../../../src/protocol/build';
import { formatText, validateText } from '../../../src/protocol/conformance';
import type { Frame, FrameOf, FrameType } from '../../../src/protocol/frameTypes';
import { applyFrames, createTranscript } from '../../../src/protocol/transcript';
import { AgentSession } from '../../../src/session';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic } from '../../support/mockModel/anthropic';
import { claudeEnv } from '../../support/mockModel/claudeEnv';

function of<T extends FrameType>(frames: Frame[], type: T): Array<FrameOf<T>> {
  return frames.filter((f): f is Frame & FrameOf<T> => f.type === type);
}

describe('Claude Code without credentials: the not-logged-in state (issue 15 Why 4, decision 381)', function () {
  this.timeout(60_000);
  let mock: MockModelServer;
  let ws: string;
  let home: string;
  let session: AgentSession | undefined;
  const wire: Frame[] = [];

  before(() => {
    if (!existsSync(resolveClaudeCommand())) throw new Error(`claude binary missing at ${resolveClaudeCommand()}`);
  });
  beforeEach(async () => {
    wire.length = 0;
    mock = await MockModelServer.start();
    ws = mkdtempSync(join(tmpdir(), 'rawp-nologin-ws-'));
    home = mkdtempSync(join(tmpdir(), 'rawp-nologin-home-'));
    spawnSync('git', ['init', '-q'], { cwd: ws });
  });
  afterEach(async () => {
    if (session && !session.isEnded) await session.end();
    session = undefined;
    await mock.stop();
    rmSync(ws, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  async function turn(env: Record<string, string | undefined>): Promise<Frame[]> {
    const master = (f: Frame) => {
      wire.push(f);
      s.handle(f, { connection_id: 'master', kind: 'remote' });
    };
    const s = new AgentSession({
      adapter: new ClaudeCodeAdapter({ env, killGraceMs: 1500 }),
      workspacePath: ws,
      out: (f) => {
        wire.push(f);
        // §13.1: the master answers the client's capabilities with its own first.
        if (f.type === 'session.capabilities') master(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, { session_id: s.session_id }));
      },
      cancelGraceMs: 8000,
      disposeTimeoutMs: 8000,
    });
    session = s;
    await s.start();
    const from = wire.length;
    master(buildFrame('control.prompt.request', { prompt_text: 'hello' }, { session_id: s.session_id }));
    const deadline = Date.now() + 45_000;
    while (!wire.slice(from).some((f) => f.type === 'session.turn.end') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return wire.slice(from);
  }

  function assertAuthRequired(frames: Frame[]): FrameOf<'agent.error'> {
    const errors = of(frames, 'agent.error');
    assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => e.payload)));
    const e = errors[0];
    assert.equal(e.payload.error_code, AUTH_REQUIRED);
    assert.equal(e.payload.recoverable, true);
    assert.equal(e.payload.details?.module, 'claude-code');
    assert.match(e.payload.message, /claude auth login/);
    assert.equal(of(frames, 'session.turn.end')[0]?.payload.stop_reason, 'error');
    // Said once, as the card, never also as chat text.
    const text = of(frames, 'agent.text.delta').map((f) => f.payload.text).join('');
    assert.doesNotMatch(text, /Not logged in/);
    const v = validateText(wire.map((f) => JSON.stringify(f)).join('\n'));
    assert.equal(v.errors, 0, formatText(v));
    return e;
  }

  it('§4.4.1 no key, empty HOME and CLAUDE_CONFIG_DIR: one AUTH_REQUIRED agent.error (the login card), no request reaches the model', async () => {
    const env: Record<string, string | undefined> = { ...claudeEnv(mock.url, home), ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, CLAUDE_CODE_OAUTH_TOKEN: undefined, CLAUDE_CONFIG_DIR: join(home, '.claude') };
    const frames = await turn(env);
    const e = assertAuthRequired(frames);
    assert.match(e.payload.details?.trace ?? '', /Not logged in/, 'the CLI\'s own words stay in the details');
    // (The CLI's connectivity probe, HEAD /, may come; no Messages request does.)
    assert.deepEqual(mock.requests.filter((r) => r.path.startsWith('/v1/')).map((r) => r.path), [], 'nothing was sent to the model');
    // The view model: one error block, code AUTH_REQUIRED — what the chat renders as the login card.
    const t = createTranscript();
    applyFrames(t, wire);
    const codes = t.errors.map((x) => x.code);
    assert.deepEqual(codes, [AUTH_REQUIRED]);
    assert.equal(agentLogin('claude-code')?.loginDisplay, 'claude auth login');
  });

  it('§4.4.1 a key the API refuses (401 authentication_error) is the same not-logged-in state', async () => {
    const key = installAnthropic(mock);
    mock.enqueue(key, claude.error(401, 'authentication_error', 'invalid x-api-key'));
    const frames = await turn({ ...claudeEnv(mock.url, home), CLAUDE_CONFIG_DIR: join(home, '.claude') });
    const e = assertAuthRequired(frames);
    assert.match(e.payload.message, /refused \(401\)/);
  });
});
