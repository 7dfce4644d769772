// `rawp attach` and an ended session's conversation (decisions 630, 647), all real processes: the
// built `rawp serve --agent codex` whose Codex CLI (npm @openai/codex) talks to the scripted model
// server, and the built `rawp attach` with piped input. A 429 makes `codex exec` exit 1 and ends
// the session (§18.2); attach says how to go on; `rawp attach URL --continue ID` asks the host for
// the new session, attaches to it and shows which chat it continues and what was said there, and
// Codex resumes its thread (§18.3): the model's next request carries the earlier turns.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MockModelServer } from '../../support/mockModel/server';
import { installOpenAIResponses, lastUserInput, responses } from '../../support/mockModel/openaiResponses';
import { CLI, ROOT, serve, stopAll } from '../../security/serveProcess';

const CODEX = resolve(ROOT, 'node_modules/.bin/codex');

/** `rawp attach ARGS` with `input` piped (it leaves once the turns those lines started have ended). */
function attach(args: string[], token: string, input: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res, reject) => {
    const p = spawn(process.execPath, [CLI, 'attach', ...args], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: token, LANG: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`rawp attach did not finish:\n${out}\n${err}`));
    }, 90_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      res({ code, out, err });
    });
    p.stdin.end(input);
  });
}

describe('rawp attach: an error\'s end says how to go on, and --continue goes on with the conversation (real serve, attach and Codex; decision 647)', function () {
  this.timeout(180_000);
  let mock: MockModelServer;
  let route: string;
  before(async () => {
    mock = await MockModelServer.start((s) => {
      route = installOpenAIResponses(s);
    });
  });
  after(async () => mock.stop());
  const scratch: string[] = [];
  afterEach(async () => {
    await stopAll();
    for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('§18.2 a 429 ends the session and attach prints the one line to continue it; §18.3 --continue attaches to a new session that names the ended chat, shows its conversation and resumes Codex\'s thread; an unknown id is refused in the host\'s words', async () => {
    mock.enqueue(route, responses.text('The password is kiwi.'), responses.error(429, 'rate_limit_exceeded', 'Rate limit reached for gpt-5.5'), responses.text('You told me: kiwi.'));
    // Codex's own folder, its model provider the scripted server (the agent-CLI notes).
    const dir = mkdtempSync(join(tmpdir(), 'rawp-attach-codex-'));
    scratch.push(dir);
    const codexHome = join(dir, 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), ['model = "gpt-5.5"', 'model_provider = "mock"', '[model_providers.mock]', 'name = "mock"', `base_url = "${mock.url}/v1"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'));
    const served = await serve({ isolatedHome: true, args: ['--agent', 'codex', '--name', 'Password chat'], env: { CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1', RAWP_CODEX_PATH: CODEX } });

    const first = await attach([served.url, '--session', served.session_id], served.token, 'remember the password kiwi\nand the second one?\n');
    assert.equal(first.code, 0, `${first.out}\n${first.err}`);
    assert.match(first.out, /The password is kiwi\./);
    assert.match(first.out, /■ session ended \(error, by client\)/);
    const hint = `[an error ended this session; its conversation can go on in a new one: rawp attach ${served.url} --continue ${served.session_id}]`;
    assert.ok(first.out.includes(hint), `the line to continue it:\n${first.out}`);
    assert.ok(!first.out.includes(served.token), 'the hint never carries the token');

    const second = await attach([served.url, '--continue', served.session_id], served.token, 'what was the password?\n');
    assert.equal(second.code, 0, `${second.out}\n${second.err}`);
    const attachedTo = /\[attached to session ([0-9a-f-]{36})/.exec(second.out)?.[1];
    assert.ok(attachedTo && attachedTo !== served.session_id, `a new session: ${second.out}`);
    assert.ok(second.err.includes(`the conversation of session ${served.session_id} goes on in session ${attachedTo}: attaching to it`), second.err);
    // Which chat it continues and what was said there, before the new turn; roles head each message.
    const shown = second.out.slice(0, second.out.indexOf('what was the password?'));
    assert.match(shown, /↪ This chat continues “Password chat”, which ended \(error\) at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    assert.match(shown, /codex was asked to go on with that conversation\./);
    assert.match(shown, /Earlier conversation, read only:\n {2}│ you: remember the password kiwi\n {2}│ codex: The password is kiwi\.\n {2}│ you: and the second one\?\n {2}│ error: /);
    assert.match(second.out, /You told me: kiwi\./);
    // §18.3 Codex resumed its thread: the model's third request carries the earlier turns.
    const requests = mock.requestsFor(route);
    assert.equal(requests.length, 3);
    assert.equal(lastUserInput(requests[2].body), 'what was the password?');
    assert.match(JSON.stringify((requests[2].body as { input?: unknown }).input), /remember the password kiwi/);

    // Asking again gives the session that already goes on with it; an unknown id is the host's refusal.
    const again = await attach([served.url, '--continue', served.session_id], served.token, '');
    assert.ok(again.err.includes(`goes on in session ${attachedTo}:`), `the same session, not a third: ${again.err}`);
    const unknown = await attach([served.url, '--continue', '00000000-0000-4000-8000-000000000000'], served.token, '');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /rawp attach: no ended shared session 00000000-0000-4000-8000-000000000000 to continue/);
    const both = await attach([served.url, '--continue', served.session_id, '--session', served.session_id], served.token, '');
    assert.equal(both.code, 2, 'a usage error');
    assert.match(both.err, /--session and --continue name different sessions/);
  });
});
