// The ACP adapter against the other real ACP agents of the presets: claude-agent-acp (npm
// @agentclientprotocol/claude-agent-acp, model on the Anthropic mock) and codex-acp (npm
// @zed-industries/codex-acp, model on the OpenAI Responses mock). Temp git workspace, throwaway
// HOME / CODEX_HOME; every stream must pass the `rawp validate` checks and file effects are
// checked on disk.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import { ACP_PRESETS } from '../../../src/agents/acp/presets';
import type { InteractionAnswer } from '../../../src/session/agentAdapter';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { FsEvents } from '../../../src/tools/fsEvents';
import { attachObservationPolicy } from '../../../src/tools/ledger/policy';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic } from '../../support/mockModel/anthropic';
import { installOpenAIResponses, responses } from '../../support/mockModel/openaiResponses';
import { RecordingHost } from '../../support/recordingHost';
import { PERMISSION_VALUES } from '../../../src/session/permissions';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const ROOT = path.resolve(__dirname, '../../..');
const BWRAP_DIR = path.join(ROOT, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-resources');

type Policy = (req: PayloadOf<'agent.interaction.request'>) => InteractionAnswer;
// The session's permission options (src/session/permissions/broker.ts), whatever the agent offers.
const pick = (value: string): Policy => (req) => ({ kind: 'response', selected_value: req.options!.find((o) => o.value === value)!.value });
const allowOnce = pick(PERMISSION_VALUES.once);
const rejectOnce = pick(PERMISSION_VALUES.reject);

interface Agent {
  preset: keyof typeof ACP_PRESETS;
  bin: string;
  env(scratch: AgentWorkspace, url: string): Record<string, string>;
  install(s: MockModelServer): string;
  text(t: string): unknown;
  read(file: string): unknown;
  edit(file: string): unknown;
  shell(cmd: string): unknown;
  hang(): unknown;
  apiError(): unknown;
}

const AGENTS: Agent[] = [
  {
    preset: 'claude-agent-acp',
    bin: 'claude-agent-acp',
    env: (scratch, url) => ({
      ...claudeEnv(url, scratch.home),
      // Claude refuses bypass-style permissions outside a sandbox; these tests always say they are in one.
      IS_SANDBOX: '1',
    }),
    install: (s) => {
      const key = installAnthropic(s);
      // Claude Code makes side calls (titles, summaries): answer them without using the script.
      s.setFallback(key, claude.text('ok'));
      return key;
    },
    text: (t) => claude.thinkingThenText('Thinking it over.', t),
    read: (file) => claude.tool('Read', { file_path: file }),
    edit: (file) => claude.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'hello edited' }),
    shell: (cmd) => claude.tool('Bash', { command: cmd, description: 'run it' }),
    hang: () => ({ ...claude.text('Working on it, slowly'), hang: true }),
    apiError: () => claude.error(400, 'invalid_request_error', 'scripted bad request'),
  },
  {
    preset: 'codex-acp',
    bin: 'codex-acp',
    env: (scratch) => ({ HOME: scratch.home, CODEX_HOME: path.join(scratch.dir, 'codex-home'), MOCK_API_KEY: 'dummy', PATH: `${BWRAP_DIR}${path.delimiter}${process.env.PATH}` }),
    install: installOpenAIResponses,
    text: (t) => responses.reasoningThenText('Thinking it over.', t),
    read: () => responses.shell('cat a.txt'),
    edit: () => responses.patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello edited\n*** End Patch\n'),
    shell: (cmd) => responses.shell(cmd),
    hang: () => ({ items: [{ type: 'message', text: 'Working on it, slowly' }], hang: true }),
    apiError: () => responses.error(400, 'invalid_request_error', 'scripted bad request'),
  },
];

for (const agent of AGENTS) {
  describe(`ACP adapter against the real ${agent.bin}`, function () {
    this.timeout(90000);
    let server: MockModelServer;
    let route: string;
    let scratch: AgentWorkspace;
    let ws: string;
    let adapter: AcpAdapter;
    let host: RecordingHost;
    let policy: Policy;

    before(async () => {
      server = await MockModelServer.start((s) => {
        route = agent.install(s);
      });
    });
    after(async () => {
      await server.stop();
    });
    beforeEach(async () => {
      server.reset();
      if (agent.preset === 'claude-agent-acp') server.setFallback(route, claude.text('ok'));
      scratch = agentWorkspace(`rawp-${agent.bin}-`, { folders: ['codex-home'] });
      ws = scratch.ws;
      writeFileSync(
        path.join(scratch.dir, 'codex-home', 'config.toml'),
        `model = "gpt-5.5"\nmodel_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n`,
      );
      writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
      policy = allowOnce;
      const events = new FsEvents();
      attachObservationPolicy(events);
      const preset = ACP_PRESETS[agent.preset];
      adapter = new AcpAdapter({ id: preset.id, displayName: preset.displayName, command: path.join(ROOT, 'node_modules/.bin', agent.bin), args: preset.args, env: agent.env(scratch, server.url), fs: { backend: new NodeFsBackend([ws]), events }, killGraceMs: 2000 });
      host = new RecordingHost(ws, (req) => policy(req));
      await host.open(adapter);
    });
    afterEach(async () => {
      await adapter.dispose();
      scratch.remove();
    });

    function assertValid(): void {
      const r = host.validate();
      assert.equal(r.errors, 0, host.problems());
      assert.deepEqual(host.invalid, []);
    }

    it('§4.1/§4.2 plain text with thinking before it; a second turn continues the session', async () => {
      server.enqueue(route, agent.text('First answer.') as never, agent.text('Second answer.') as never);
      const t1 = await host.turn(adapter, 'hello');
      assert.equal(t1.outcome.stop_reason, 'end_turn');
      assert.equal(host.ofType('agent.text.done', t1.frames).at(-1)?.payload.full_text, 'First answer.');
      assert.match(host.ofType('agent.thinking.delta', t1.frames).map((d) => d.payload.text).join(''), /Thinking it over\./);
      const t2 = await host.turn(adapter, 'again');
      assert.equal(host.ofType('agent.text.done', t2.frames).at(-1)?.payload.full_text, 'Second answer.');
      assert.match(JSON.stringify(server.requestsFor(route).at(-1)!.body), /First answer\./);
      assertValid();
    });

    it('§13.3/§17.3.1 read + edit, permission allowed: the file changes on disk and the result is a diff', async () => {
      const file = path.join(ws, 'a.txt');
      server.enqueue(route, agent.read(file) as never, agent.edit(file) as never, agent.text('Edited.') as never);
      const t = await host.turn(adapter, 'edit a.txt');
      assert.equal(readFileSync(file, 'utf8'), 'hello edited\n');
      assert.equal(host.ofType('agent.interaction.request', t.frames)[0]?.payload.interaction_type, 'PERMISSION');
      const edit = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Edit');
      assert.ok(edit, host.problems());
      assert.equal(edit.payload.status, 'success');
      assert.equal(edit.payload.output_type, 'diff');
      assert.match(String(edit.payload.output), /-hello\n[\s\S]*\+hello edited/);
      assertValid();
    });

    it('§17.3.1 edit with permission denied: the file is untouched and the call does not succeed', async () => {
      const file = path.join(ws, 'a.txt');
      policy = rejectOnce;
      server.enqueue(route, agent.edit(file) as never, agent.text('Not changing it.') as never);
      const t = await host.turn(adapter, 'edit a.txt');
      assert.equal(readFileSync(file, 'utf8'), 'hello\n');
      const edit = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Edit');
      assert.ok(edit, host.problems());
      assert.notEqual(edit.payload.status, 'success');
      assertValid();
    });

    it('§5.2/§5.3 a shell command runs (with permission where the agent asks) and its output is the result', async () => {
      server.enqueue(route, agent.shell('echo one; echo two') as never, agent.text('Ran it.') as never);
      const t = await host.turn(adapter, 'run');
      const res = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.output_type === 'text' && /one/.test(String(r.payload.output)));
      assert.ok(res, JSON.stringify(host.ofType('tool.invoke.result', t.frames)));
      assert.match(String(res.payload.output), /one\s+two/);
      assertValid();
    });

    it('§6.1.2 cancel mid-turn: session/cancel, the open text block ends with is_cancelled, the session goes on', async () => {
      server.enqueue(route, agent.hang() as never, agent.text('After the cancel.') as never);
      const t = await host.turn(adapter, 'long task', { cancelWhen: (f) => f.type === 'agent.text.delta' });
      assert.equal(t.outcome.stop_reason, 'cancelled');
      assert.ok(host.ofType('agent.text.done', t.frames).some((d) => d.payload.is_cancelled === true));
      const t2 = await host.turn(adapter, 'next');
      assert.equal(host.ofType('agent.text.done', t2.frames).at(-1)?.payload.full_text, 'After the cancel.');
      assertValid();
    });

    it('§7.4 an API error is shown to the user with the server message', async () => {
      server.enqueue(route, agent.apiError() as never);
      const t = await host.turn(adapter, 'boom');
      assert.equal(t.outcome.stop_reason, 'error');
      const err = host.ofType('agent.error', t.frames).find((e) => e.payload.error_code === 'ACP_PROMPT_FAILED');
      assert.ok(err, host.problems());
      assert.match(err.payload.message, /scripted bad request/);
      assertValid();
    });

    it('session/load restores the session in a new agent process: the model sees the earlier exchange', async () => {
      server.enqueue(route, agent.text('The code word is kiwi.') as never);
      const t1 = await host.turn(adapter, 'tell me a code word');
      // The agent writes its session record after the turn, asynchronously: disposing before it is on
      // disk makes session/load find nothing (a race seen on a loaded CI machine). Wait for a file
      // that names the session under the agent's own folder and holds the answer, bounded.
      assert.ok(t1.outcome.agent_session_id, 'the agent named its session');
      assert.ok(await waitForRecord(scratch.dir, t1.outcome.agent_session_id, 'kiwi', 20_000), 'the agent wrote its session record with the answer');
      await adapter.dispose();
      const preset = ACP_PRESETS[agent.preset];
      const events = new FsEvents();
      attachObservationPolicy(events);
      adapter = new AcpAdapter({ id: preset.id, displayName: preset.displayName, command: path.join(ROOT, 'node_modules/.bin', agent.bin), args: preset.args, env: agent.env(scratch, server.url), fs: { backend: new NodeFsBackend([ws]), events }, killGraceMs: 2000, loadSessionId: t1.outcome.agent_session_id });
      host = new RecordingHost(ws, (req) => policy(req));
      await host.open(adapter);
      const caps = host.ofType('session.capabilities')[0].payload.extensions as { agent_session_id: string; acp: { restored: boolean } };
      assert.deepEqual([caps.agent_session_id, caps.acp.restored], [t1.outcome.agent_session_id, true], host.problems());
      server.enqueue(route, agent.text('It was kiwi.') as never);
      const t2 = await host.turn(adapter, 'what was it?');
      assert.equal(t2.outcome.stop_reason, 'end_turn');
      assert.match(JSON.stringify(server.requestsFor(route).at(-1)!.body), /The code word is kiwi\./);
      assertValid();
    });

    it('§17.2.2 the agent killed while idle: agent.error SIGNAL_EXIT at once, and the next prompt ends in error', async () => {
      server.enqueue(route, agent.text('Hi.') as never);
      await host.turn(adapter, 'hello');
      const proc = (adapter as unknown as { proc: { pid: number; exited: Promise<unknown> } }).proc;
      process.kill(proc.pid, 'SIGKILL');
      await proc.exited;
      const between = host.frames.at(-1)!;
      assert.equal(between.type, 'agent.error', host.problems());
      assert.equal((between.payload as { error_code: string }).error_code, 'SIGNAL_EXIT');
      // The stream is valid up to the fatal error; the engine ends the session there (§4.4.1-1), so
      // the prompt below only checks the adapter itself, which a session never sends it.
      assertValid();
      const t = await host.turn(adapter, 'still there?');
      assert.equal(t.outcome.stop_reason, 'error');
    });

    it('§17.2.2 the agent killed with SIGKILL mid-turn: agent.error SIGNAL_EXIT (fatal) and the turn ends in error', async () => {
      server.enqueue(route, agent.hang() as never);
      const pid = (adapter as unknown as { proc: { pid: number } }).proc.pid;
      const t = await host.turn(adapter, 'work', { onFrame: (f) => f.type === 'agent.text.delta' && process.kill(pid, 'SIGKILL') });
      assert.equal(t.outcome.stop_reason, 'error');
      assert.ok(host.ofType('agent.error', t.frames).some((e) => e.payload.error_code === 'SIGNAL_EXIT' && e.payload.severity === 'fatal'), host.problems());
      assertValid();
    });
  });
}

/**
 * Waits (bounded by `ms`) until a file whose name contains `id` exists under `root` and holds `text`
 * — the agent's session record with the exchange in it; says whether it got there.
 */
async function waitForRecord(root: string, id: string, text: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  const found = (): boolean => {
    try {
      const names = (readdirSync(root, { recursive: true }) as string[]).filter((n) => n.includes(id));
      return names.some((n) => {
        try {
          return readFileSync(path.join(root, n), 'utf8').includes(text);
        } catch {
          return false; // a folder, or a file that is being replaced
        }
      });
    } catch {
      return false;
    }
  };
  while (!found()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
