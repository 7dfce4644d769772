// Issue 15 Why 4 for Codex, with the real `codex` CLI and no credentials (a throwaway HOME, no
// auth.json, no key). Its built-in OpenAI provider is pointed at the mock (`openai_base_url`),
// which answers as the OpenAI API does without a key: 401 "Missing bearer or basic
// authentication in header", on the WebSocket upgrade and on POST /v1/responses. Codex would
// retry ten times and print each as an `error` line; the chat must get one AUTH_REQUIRED
// agent.error (the login card, `codex login`), at once, and no CODEX_ERROR cards.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { isCodexAuthFailure } from '../../../src/agents/codex/authFailure';
import { AUTH_REQUIRED, agentLogin } from '../../../src/protocol/agentLogin';
import { applyFrames, createTranscript } from '../../../src/protocol/transcript';
import { jsonResponse, MockModelServer } from '../../support/mockModel/server';
import { installOpenAIResponses, responses } from '../../support/mockModel/openaiResponses';
import { RecordingHost } from '../../support/recordingHost';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const CODEX = path.resolve(__dirname, '../../../node_modules/.bin/codex');
const NO_AUTH = 'Missing bearer or basic authentication in header';

describe('Codex without credentials: the not-logged-in state (issue 15 Why 4, decision 441)', function () {
  this.timeout(90_000);
  let mock: MockModelServer;
  let route: string;
  let scratch: AgentWorkspace;
  let ws: string;
  let home: string;
  let adapter: CodexAdapter | undefined;
  let host: RecordingHost;

  beforeEach(async () => {
    mock = await MockModelServer.start((s) => {
      route = installOpenAIResponses(s);
      // The Responses WebSocket (Codex tries it first) refuses the same way.
      s.route('GET', '/v1/responses', ({ res }) => jsonResponse(res, 401, { error: { message: NO_AUTH, type: 'invalid_request_error', param: null, code: null } }));
    });
    mock.setFallback(route, responses.error(401, 'invalid_request_error', NO_AUTH));
    scratch = agentWorkspace('rawp-codex-nologin-');
    ({ ws, home } = scratch);
    host = new RecordingHost(ws);
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    await mock.stop();
    scratch.remove();
  });

  function make(extraEnv: Record<string, string | undefined> = {}): CodexAdapter {
    adapter = new CodexAdapter({
      command: CODEX,
      config: [`openai_base_url="${mock.url}/v1"`],
      env: { HOME: home, CODEX_HOME: undefined, OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined, NO_COLOR: '1', ...extraEnv },
      killGraceMs: 2000,
    });
    return adapter;
  }

  function assertLoginCard(frames: RecordingHost['frames']): string {
    const errors = host.ofType('agent.error', frames);
    assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => e.payload)));
    const e = errors[0].payload;
    assert.equal(e.error_code, AUTH_REQUIRED);
    assert.equal(e.recoverable, true);
    assert.equal(e.details?.module, 'codex');
    assert.equal(e.details?.http_status, 401);
    assert.match(String(e.details?.trace), /401 Unauthorized/, 'Codex’s words stay in the details');
    assert.ok(e.message.includes('(codex login)'), e.message);
    assert.equal(host.ofType('session.turn.end', frames)[0]?.payload.stop_reason, 'error');
    assert.equal(host.validate().errors, 0, host.problems());
    assert.deepEqual(host.invalid, []);
    const t = createTranscript();
    applyFrames(t, host.frames);
    assert.deepEqual(t.errors.map((x) => x.code), [AUTH_REQUIRED]);
    return e.message;
  }

  it('§4.4.1 no login, no key: one AUTH_REQUIRED (codex login) instead of ten "Reconnecting… 401" errors, and the turn stops at the first 401', async () => {
    await host.open(make());
    const started = Date.now();
    const t = await host.turn(adapter!, 'hello');
    const ms = Date.now() - started;
    const message = assertLoginCard(t.frames);
    assert.match(message, /is not logged in/);
    const sent = mock.requests.filter((r) => r.path === '/v1/responses');
    assert.ok(sent.length > 0, 'Codex asked the API');
    assert.ok(sent.every((r) => r.headers.authorization === undefined), 'no credentials were sent');
    // Codex alone makes 12 requests over ~13 s; stopped at its first reported 401 it makes a few.
    assert.ok(sent.length < 12, `${sent.length} requests`);
    assert.ok(ms < 30_000, `${ms} ms`);
  });

  it('§4.4.1 a key the API refuses (CODEX_API_KEY, 401): the same card, worded as refused', async () => {
    mock.setFallback(route, responses.error(401, 'invalid_request_error', 'Incorrect API key provided'));
    await host.open(make({ CODEX_API_KEY: 'sk-rawp-wrong' }));
    const t = await host.turn(adapter!, 'hello');
    const message = assertLoginCard(t.frames);
    assert.match(message, /credentials were refused/);
    assert.ok(mock.requests.some((r) => r.headers.authorization === 'Bearer sk-rawp-wrong'), 'codex exec sends the key from CODEX_API_KEY');
    assert.equal(agentLogin('codex')?.apiKey.env, 'CODEX_API_KEY');
  });

  it('§4.4.1 a stored login the API refuses (codex login --with-api-key, then 401): Codex’s own retries run out, still one card, worded as refused', async () => {
    // Log in as a user does: the key goes into Codex's own auth.json.
    execFileSync(CODEX, ['login', '--with-api-key'], { input: 'sk-rawp-stored\n', env: { ...process.env, HOME: home, CODEX_API_KEY: '', OPENAI_API_KEY: '' }, stdio: ['pipe', 'ignore', 'ignore'] });
    await host.open(make());
    const t = await host.turn(adapter!, 'hello');
    const message = assertLoginCard(t.frames);
    assert.match(message, /credentials were refused/);
    const sent = mock.requests.filter((r) => r.path === '/v1/responses');
    assert.ok(sent.every((r) => r.headers.authorization === 'Bearer sk-rawp-stored'), 'the stored key was sent');
    // Nothing cut it short: Codex tried the WebSocket and the HTTPS fallback (its retries).
    assert.ok(sent.some((r) => r.method === 'GET') && sent.some((r) => r.method === 'POST'), sent.map((r) => r.method).join(','));
  });

  it('§4.4.1 the signal: Codex’s "unexpected status 401" and nothing else', () => {
    assert.ok(isCodexAuthFailure('Reconnecting... 2/5 (unexpected status 401 Unauthorized: Missing bearer, url: http://x/v1/responses)'));
    assert.ok(isCodexAuthFailure('unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: http://127.0.0.1:1/v1/responses'));
    assert.ok(!isCodexAuthFailure('unexpected status 400 Bad Request: scripted bad request'));
    assert.ok(!isCodexAuthFailure('unexpected status 4010'));
    assert.ok(!isCodexAuthFailure('stream disconnected before completion: 401 tokens'));
  });
});
