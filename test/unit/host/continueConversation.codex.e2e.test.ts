// "Continue this conversation" (decision 630) with the real Codex CLI (npm @openai/codex) against
// the scripted model server (test/support/mockModel), through the session host as the editor and
// `rawp serve` build it. Codex is a single_turn_process agent (§18): a model API error makes
// `codex exec` exit 1, and §18.2 (MUST, §17.2.2) makes that the end of the session. The session
// stays ended; continuing starts a NEW session whose Codex resumes the ended session's thread
// (§18.3, `codex exec resume <thread_id>`), so the model's next request carries the earlier turns.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import type { AgentChoice } from '../../../src/host/agentChoice';
import { LOCAL_VIEW_FEATURES, type SessionHost } from '../../../src/host/sessionHost';
import { buildFrame } from '../../../src/protocol/build';
import { continuedFromOf, earlierChatPayloadOf } from '../../../src/protocol/continuation';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { MockModelServer } from '../../support/mockModel/server';
import { installOpenAIResponses, lastUserInput, responses } from '../../support/mockModel/openaiResponses';
import { eventually } from '../../support/settle';
import { harness, type Harness } from './harness';

const CODEX = resolve(__dirname, '../../../node_modules/.bin/codex');

function view(id: string): Connection & { got: WireFrame[] } {
  const got: WireFrame[] = [];
  return { id, kind: 'local', features: LOCAL_VIEW_FEATURES, extensions: OUR_MASTER_EXTENSIONS, got, send: (f) => void got.push(f), close: () => undefined };
}

/** A throwaway CODEX_HOME whose model provider is the mock (agent-clis-offline notes), and HOME. */
function codexEnv(dir: string, port: number): Record<string, string> {
  const codexHome = join(dir, 'codex-home');
  const home = join(dir, 'codex-user');
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(home, { recursive: true });
  const config = ['model = "gpt-5.5"', 'model_provider = "mock"', '[model_providers.mock]', 'name = "mock"', `base_url = "http://127.0.0.1:${port}/v1"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''];
  writeFileSync(join(codexHome, 'config.toml'), config.join('\n'));
  return { HOME: home, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1' };
}

/** Every text a Responses request sends the model, as one string (the earlier turns are items of `input`). */
function inputText(body: unknown): string {
  return JSON.stringify((body as { input?: unknown } | undefined)?.input ?? '');
}

describe('host: §18.2 a Codex session an API error ended is continued in a new session that resumes its thread (real Codex, decision 630)', function () {
  this.timeout(180_000);
  let h: Harness;
  let mock: MockModelServer;
  let route: string;
  const resumes: (string | undefined)[] = [];

  before(async () => {
    mock = await MockModelServer.start((s) => {
      route = installOpenAIResponses(s);
    });
  });
  after(async () => mock.stop());
  beforeEach(() => {
    mock.reset();
    h = harness();
    resumes.length = 0;
  });
  afterEach(() => h.cleanup());

  function codexHost(): SessionHost {
    const env = codexEnv(h.dir, mock.port);
    const codex: AgentChoice = {
      id: 'codex',
      name: 'Codex',
      available: true,
      rank: 5,
      create: (o) => {
        resumes.push(o?.resumeSessionId);
        return new CodexAdapter({ command: CODEX, env, killGraceMs: 2000, ...(o?.resumeSessionId ? { resumeThreadId: o.resumeSessionId } : {}) });
      },
    };
    return h.makeHost({ agents: [codex], defaultAgent: 'codex' });
  }

  async function ask(host: SessionHost, v: Connection & { got: WireFrame[] }, id: string, text: string): Promise<void> {
    const ends = () => v.got.filter((f) => f.type === 'session.turn.end').length;
    const before = ends();
    host.fromView(v.id, buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }));
    await eventually(() => ends() > before, `the turn "${text}" ends`, 90_000);
  }

  it('§18.2 §17.2.2 a 429 makes codex exit 1 and ends the session; §18.3 continuing resumes the thread: the next model request carries the earlier turn, and the new chat names the ended one', async () => {
    mock.enqueue(route, responses.text('The password is kiwi.'), responses.error(429, 'rate_limit_exceeded', 'Rate limit reached for gpt-5.5'), responses.text('You told me: kiwi.'));
    const host = codexHost();
    const id = await host.create({ agent: 'codex', name: 'Password chat' });
    const v = view('view-1');
    host.hub.attach(id, v);

    await ask(host, v, id, 'remember the password kiwi');
    const thread = host.agentSessionId(id);
    assert.match(thread ?? '', /^[0-9a-f-]{36}$/, 'Codex named its thread (§18.3)');

    // The rate limit: Codex exits 1; §18.2 says the session is TERMINATED.
    await ask(host, v, id, 'and the second one?');
    await eventually(() => !host.has(id), 'the session ended', 30_000);
    const fatal = v.got.find((f) => f.type === 'agent.error' && f.payload.severity === 'fatal');
    assert.ok(fatal, 'a fatal agent.error (§17.2.2)');
    const end = v.got.filter((f) => f.type === 'session.turn.end').at(-1);
    assert.ok(end?.type === 'session.turn.end' && end.payload.stop_reason === 'error');
    const deleted = v.got.at(-1);
    assert.ok(deleted?.type === 'session.deleted' && deleted.payload.reason === 'error', 'the session ended with an error, last');
    assert.equal(mock.requestsFor(route).length, 2);

    // Continue: a NEW session with Codex, given the ended session's thread.
    const c = await host.continueSession(id);
    assert.notEqual(c.session_id, id);
    assert.equal(c.resumed, true);
    assert.equal(host.has(id), false, 'the ended session stays ended (§18.2)');
    assert.deepEqual(resumes, [undefined, thread], 'the new Codex is started with the ended thread (§18.3)');
    const v2 = view('view-2');
    host.hub.attach(c.session_id, v2);
    await ask(host, v2, c.session_id, 'what was the password?');
    const requests = mock.requestsFor(route);
    assert.equal(requests.length, 3);
    const resumed = requests[2].body;
    assert.equal(lastUserInput(resumed), 'what was the password?');
    assert.match(inputText(resumed), /remember the password kiwi/, 'the earlier turn reached the model again: Codex resumed its thread');
    assert.match(inputText(resumed), /The password is kiwi\./);
    const answer = v2.got.find((f) => f.type === 'agent.text.done');
    assert.ok(answer?.type === 'agent.text.done' && answer.payload.full_text === 'You told me: kiwi.');
    assert.ok(!v2.got.some((f) => f.type === 'agent.error' && f.payload.error_code === 'RESUME_FAILED'), 'the thread was there to resume (no RESUME_FAILED)');

    // The new chat names the ended one and what was said there, in its own frames only.
    const caps = host.log(c.session_id)!.all().flatMap((f) => (f.type === 'session.capabilities' ? [f.payload] : []));
    const from = continuedFromOf(caps);
    assert.equal(from?.session_id, id);
    assert.equal(from?.name, 'Password chat');
    assert.equal(from?.resumed, true);
    // The digest is a frame of its own (decision 641); the link counts it.
    const earlier = host.log(c.session_id)!.all().flatMap((f) => earlierChatPayloadOf(f)?.earlier ?? []);
    assert.equal(from?.messages, earlier.length);
    assert.deepEqual(earlier.slice(0, 3), [
      { role: 'user', text: 'remember the password kiwi' },
      { role: 'agent', text: 'The password is kiwi.' },
      { role: 'user', text: 'and the second one?' },
    ]);
    assert.equal(earlier.at(-1)?.role, 'error');
    assert.match(earlier.at(-1)?.text ?? '', /429|rate limit|exit/i, 'the error that ended it is said');
    assert.deepEqual([...new Set(host.log(c.session_id)!.all().map((f) => f.session_id))], [c.session_id], 'no frame of the ended session in the new one');
  });
});
