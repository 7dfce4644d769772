// Issue 15 Why 4 for the ACP agents, with the real CLIs and no credentials at all (a throwaway
// HOME, no API key in the environment). Observed: gemini --acp and codex-acp refuse `session/new`
// with ACP's auth_required (-32000; "Gemini API key is missing or not configured." /
// "Authentication required"), claude-agent-acp accepts the session and refuses `session/prompt`
// the same way. Each must end the first turn with one AUTH_REQUIRED agent.error (the login card)
// naming its own login, and a stream `rawp validate` accepts. With a key the same agent works.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import { ACP_PRESETS } from '../../../src/agents/acp/presets';
import { AUTH_REQUIRED, agentLogin } from '../../../src/protocol/agentLogin';
import { createTranscript, applyFrames } from '../../../src/protocol/transcript';
import { MockModelServer } from '../../support/mockModel/server';
import { gemini, installGemini } from '../../support/mockModel/gemini';
import { installAnthropic } from '../../support/mockModel/anthropic';
import { RecordingHost } from '../../support/recordingHost';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const BIN = path.resolve(__dirname, '../../../node_modules/.bin');

/** Every credential variable the three CLIs read, removed from the inherited environment. */
const NO_KEYS = { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, GOOGLE_GENAI_USE_VERTEXAI: undefined, GOOGLE_CLOUD_PROJECT: undefined, ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, CLAUDE_CODE_OAUTH_TOKEN: undefined, OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined };

describe('ACP agents without credentials: the not-logged-in state (issue 15 Why 4, decision 440)', function () {
  this.timeout(90_000);
  let mock: MockModelServer;
  let scratch: AgentWorkspace;
  let ws: string;
  let home: string;
  let adapter: AcpAdapter | undefined;
  let host: RecordingHost;

  beforeEach(async () => {
    mock = await MockModelServer.start();
    scratch = agentWorkspace('rawp-acp-nologin-');
    ({ ws, home } = scratch);
    host = new RecordingHost(ws);
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    await mock.stop();
    scratch.remove();
  });

  function make(preset: keyof typeof ACP_PRESETS, env: Record<string, string | undefined>): AcpAdapter {
    const p = ACP_PRESETS[preset];
    adapter = new AcpAdapter({ id: p.id, displayName: p.displayName, command: path.join(BIN, p.command), args: p.args, env: { ...NO_KEYS, HOME: home, NO_COLOR: '1', ...env }, killGraceMs: 2000, startTimeoutMs: 45_000 });
    return adapter;
  }

  function assertLoginCard(frames: ReturnType<RecordingHost['ofType']>, agentId: string, said: RegExp): void {
    const errors = host.ofType('agent.error', frames);
    assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => e.payload)));
    const e = errors[0].payload;
    assert.equal(e.error_code, AUTH_REQUIRED);
    assert.equal(e.recoverable, true);
    assert.equal(e.details?.module, agentId);
    assert.equal(e.details?.rpc_code, -32000, 'the signal is ACP’s auth_required code');
    assert.match(String(e.details?.trace), said, 'the agent’s own words stay in the details');
    const login = agentLogin(agentId);
    assert.ok(login, `a login for ${agentId}`);
    assert.ok(e.message.includes(`(${login.loginDisplay})`), e.message);
    assert.equal(host.ofType('session.turn.end', frames)[0]?.payload.stop_reason, 'error');
    const v = host.validate();
    assert.equal(v.errors, 0, host.problems());
    assert.deepEqual(host.invalid, []);
    // What the chat renders: one error block with the code the login card is drawn for.
    const t = createTranscript();
    applyFrames(t, host.frames);
    assert.deepEqual(t.errors.map((x) => x.code), [AUTH_REQUIRED]);
  }

  it('§4.4.1 gemini --acp, no key: session/new refused → the first turn ends with one AUTH_REQUIRED (gemini), again on the next try; with GEMINI_API_KEY it answers', async () => {
    const keys = installGemini(mock);
    // No GOOGLE_GEMINI_BASE_URL here: gemini counts a custom endpoint as a way in (a gateway) and
    // would accept the session; a user without a key has none.
    const a = make('gemini', { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    const started = await host.open(a);
    assert.equal(started.capabilities.extensions?.agent_session_id, undefined, 'no agent session without credentials');
    const t = await host.turn(a, 'hello');
    assertLoginCard(t.frames, 'acp:gemini', /API key is missing/);
    // A second try asks the agent again (the user may have logged in): still the one card.
    const again = await host.turn(a, 'hello again');
    assert.equal(host.ofType('agent.error', again.frames)[0]?.payload.error_code, AUTH_REQUIRED);
    await a.dispose();

    // The same CLI with a key (as SecretStorage hands it over): a normal answer.
    host = new RecordingHost(ws);
    mock.enqueue(keys.stream, gemini.text('Hello with a key'));
    const b = make('gemini', { GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_API_KEY: 'dummy' });
    await host.open(b);
    const ok = await host.turn(b, 'hello');
    assert.equal(ok.outcome.stop_reason, 'end_turn', host.problems());
    assert.deepEqual(host.ofType('agent.error', ok.frames), []);
  });

  it('§4.4.1 codex-acp, no login and no key: session/new refused → one AUTH_REQUIRED (codex login)', async () => {
    const a = make('codex-acp', {});
    await host.open(a);
    const t = await host.turn(a, 'hello');
    assertLoginCard(t.frames, 'acp:codex-acp', /Authentication required/);
    assert.equal(agentLogin('acp:codex-acp')?.loginDisplay, 'codex login');
  });

  it('§4.4.1 codex-acp with the saved key in CODEX_API_KEY: the adapter picks its env_var auth method (authenticate) and the session opens', async () => {
    assert.equal(agentLogin('acp:codex-acp')?.apiKey.env, 'CODEX_API_KEY');
    const calls: string[] = [];
    const p = ACP_PRESETS['codex-acp'];
    adapter = new AcpAdapter({ id: p.id, displayName: p.displayName, command: path.join(BIN, p.command), args: p.args, env: { ...NO_KEYS, HOME: home, CODEX_API_KEY: 'sk-rawp-test-key' }, killGraceMs: 2000, startTimeoutMs: 45_000, trace: (dir, m) => dir === 'client->agent' && typeof (m as { method?: unknown }).method === 'string' && calls.push((m as { method: string }).method) });
    const started = await host.open(adapter);
    assert.match(String(started.capabilities.extensions?.agent_session_id), /^[0-9a-f-]{36}$/, 'a session after authenticate');
    assert.deepEqual(calls.filter((c) => c !== 'initialize'), ['session/new', 'authenticate', 'session/new']);
  });

  it('§4.4.1 claude-agent-acp, no key: session/prompt refused → one AUTH_REQUIRED (claude auth login), no Messages request', async () => {
    installAnthropic(mock);
    const a = make('claude-agent-acp', { ANTHROPIC_BASE_URL: mock.url, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) });
    await host.open(a);
    const t = await host.turn(a, 'hello');
    assertLoginCard(t.frames, 'acp:claude-agent-acp', /Authentication required/);
    assert.deepEqual(mock.requests.filter((r) => r.path.startsWith('/v1/')).map((r) => r.path), [], 'nothing was sent to the model');
  });
});
