// `rawp run --json-schema` / `--max-turns` (§11, §6.1.1) with the real agent CLIs — Claude Code,
// Codex, gemini --acp — and the OpenAI-compatible adapter, each against the scripted mock model
// server, as a real `node dist/cli.js run` child process. For each: a conforming answer is `valid`
// (exit 0), a non-conforming one `failed` (exit 1), and the schema reached the agent — natively
// where it has an option (the recorded model request), as a prompt instruction for gemini;
// `--max-turns 1` stops a two-step agent with agent.error MAX_TURNS.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { validateText } from '../../../src/protocol/conformance';
import { resolveClaudeCommand } from '../../../src/agents/claudeCode';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic } from '../../support/mockModel/anthropic';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { installOpenAIResponses, responses } from '../../support/mockModel/openaiResponses';
import { chat, installChatCompletions } from '../../support/mockModel/chatCompletions';
import { gemini, installGemini, lastUserText } from '../../support/mockModel/gemini';
import { buildCliOnce, rawpRun, type RunResult } from '../../support/rawpRun';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const SCHEMA = { $id: 'city-v1', type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } }, required: ['city', 'population'], additionalProperties: false };
const GOOD = { city: 'Seoul', population: 9_400_000 };
const BAD = { city: 'Seoul', population: 'many' };
const BIN = resolve(__dirname, '../../../node_modules/.bin');
const CODEX = join(BIN, 'codex');

interface Json {
  is_error: boolean;
  num_turns: number;
  duration_ms: number;
  agent_session_id: string | null;
  session_id: string;
  permission_denials: Array<{ tool_name?: string }>;
  stop_reason: string | null;
  text: string;
  structured_output: { schema_id?: string; data: Record<string, unknown>; validation_status: string } | null;
  errors: Array<{ error_code: string; message: string }>;
}

function json(r: RunResult): Json {
  assert.equal(r.out.trim().split('\n').length, 1, `one JSON line on stdout; stderr: ${r.err}`);
  return JSON.parse(r.out) as Json;
}

describe('rawp run with the real agents: §11 structured output and §6.1.1 max_turns', function () {
  this.timeout(180_000);
  let mock: MockModelServer;
  let scratch: AgentWorkspace;
  let dir: string;
  let ws: string;
  let schemaFile: string;

  before(() => buildCliOnce());
  beforeEach(async () => {
    mock = await MockModelServer.start();
    scratch = agentWorkspace('rawp-run-agents-', { committed: { 'a.txt': 'hello\n' } });
    dir = scratch.dir;
    ws = scratch.ws;
    schemaFile = join(dir, 'schema.json');
    writeFileSync(schemaFile, JSON.stringify(SCHEMA));
  });
  afterEach(async () => {
    await mock.stop();
    scratch.remove();
  });

  describe('Claude Code (--json-schema, --max-turns natively)', () => {
    let route: string;
    let env: Record<string, string>;
    beforeEach(() => {
      route = installAnthropic(mock);
      env = { ...claudeEnv(mock.url, scratch.home), RAWP_CLAUDE_PATH: resolveClaudeCommand() };
    });
    const args = (...more: string[]) => ['--workspace', ws, '--agent', 'claude-code', ...more];
    /** The main-loop requests (those that offer tools), not the CLI's side calls. */
    const mainRequests = () => mock.requestsFor(route).filter((r) => Array.isArray((r.body as { tools?: unknown[] } | undefined)?.tools));

    it('§11.1 a conforming StructuredOutput is `valid` (exit 0); the schema reached the model as the StructuredOutput tool (--json-schema); stream-json passes rawp validate', async () => {
      mock.enqueue(route, claude.tool('StructuredOutput', GOOD), claude.text('Done.'));
      mock.setFallback(route, claude.text('side call'));
      // --allowed-tools without StructuredOutput: the schema's own tool is allowed all the same.
      const r = await rawpRun(args('--json-schema', schemaFile, '--allowed-tools', 'Read', '--output-format', 'stream-json', 'Which city?'), { env });
      assert.equal(r.code, 0, r.err);
      const check = validateText(r.out);
      assert.equal(check.errors, 0, JSON.stringify(check.problems, null, 1));
      const log = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const call = log.find((f) => f.type === 'tool.invoke.request' && f.payload.tool_name === 'StructuredOutput');
      assert.equal(log.find((f) => f.type === 'tool.invoke.result' && f.payload.invocation_id === call?.payload.invocation_id)?.payload.status, 'success');
      const end = log.find((f) => f.type === 'session.turn.end');
      assert.deepEqual(end.payload.structured_output, { schema_id: 'city-v1', data: GOOD, validation_status: 'valid' });
      const tool = (mainRequests()[0].body as { tools: Array<{ name: string; input_schema: unknown }> }).tools.find((t) => t.name === 'StructuredOutput');
      assert.deepEqual(tool?.input_schema, SCHEMA, 'the native option reached the model');
    });

    it('§11.1 an answer Claude Code cannot make conform is `failed` with the last attempt as data (exit 1)', async () => {
      mock.setFallback(route, claude.tool('StructuredOutput', BAD));
      const r = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'), { env });
      assert.equal(r.code, 1);
      const o = json(r);
      assert.deepEqual(o.structured_output, { schema_id: 'city-v1', data: BAD, validation_status: 'failed' });
      assert.ok(o.errors.some((e) => e.error_code === 'STRUCTURED_OUTPUT_INVALID' && /\/population: must be integer/.test(e.message)), JSON.stringify(o.errors));
    });

    it('--output-format json carries the fields claude -p scripts read: is_error, num_turns (steps), duration_ms, the agent\'s own session id (decision 619)', async () => {
      mock.enqueue(route, claude.tool('Read', { file_path: join(ws, 'a.txt') }), claude.text('It says hello.'));
      mock.setFallback(route, claude.text('side call'));
      const r = await rawpRun(args('--allow', 'Read', '--output-format', 'json', 'read a.txt'), { env });
      assert.equal(r.code, 0, r.err);
      const o = json(r);
      assert.equal(o.is_error, false);
      assert.equal(o.num_turns, 2, 'a tool call, then the answer: two steps');
      assert.ok(o.duration_ms > 0 && o.duration_ms < 180_000, String(o.duration_ms));
      assert.match(o.agent_session_id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Claude Code\'s own session id');
      assert.notEqual(o.agent_session_id, o.session_id);
    });
    it('§6.1.1 --max-turns 1 stops a two-step turn natively (error_max_turns): agent.error MAX_TURNS, stop_reason error, exit 1', async () => {
      mock.enqueue(route, claude.tool('Read', { file_path: join(ws, 'a.txt') }), claude.text('It says hello.'));
      mock.setFallback(route, claude.text('side call'));
      const r = await rawpRun(args('--max-turns', '1', '--allow', 'Read', '--output-format', 'json', 'read a.txt'), { env });
      assert.equal(r.code, 1);
      const o = json(r);
      assert.equal(o.stop_reason, 'error');
      assert.equal(o.is_error, true, 'is_error follows the exit code');
      const max = o.errors.find((e) => e.error_code === 'MAX_TURNS');
      assert.ok(max, JSON.stringify(o.errors));
      assert.match(max.message, /maximum number of turns \(1\)/i, 'Claude Code itself stopped (the flag reached it)');
      assert.equal(mainRequests().length, 1, 'no second model call');
    });
    it('§17.3.1 a headless permission prompt of Claude Code (can_use_tool) is denied and reported unless an --allow rule matches', async () => {
      const touch = claude.tool('Bash', { command: 'touch made.txt' });
      mock.enqueue(route, touch, claude.text('Tried.'));
      mock.setFallback(route, claude.text('side call'));
      const denied = await rawpRun(args('--output-format', 'json', 'make the file'), { env });
      assert.equal(existsSync(join(ws, 'made.txt')), false, 'the command did not run');
      assert.match(denied.err, /rawp run: permission denied: Bash \{"command":"touch made.txt"/);
      assert.equal(json(denied).permission_denials[0]?.tool_name, 'Bash');

      mock.enqueue(route, touch, claude.text('Made.'));
      const allowed = await rawpRun(args('--allow', 'Bash(touch made.txt)', 'make the file'), { env });
      assert.equal(allowed.code, 0, allowed.err);
      assert.equal(existsSync(join(ws, 'made.txt')), true, 'the --allow rule answered Claude Code');
      assert.doesNotMatch(allowed.err, /permission denied/);
    });
    it('§17.3.1 security, decision 698: --allow \'Write(src/**)\' covers only src/**: after a write it allowed, Claude Code\'s next Write at the root and an `rm` are asked and denied (its acceptEdits suggestion, once handed back, ran both)', async () => {
      mkdirSync(join(ws, 'src'), { recursive: true });
      writeFileSync(join(ws, 'keep.txt'), 'keep\n');
      mock.enqueue(
        route,
        claude.tool('Write', { file_path: join(ws, 'src', 'a.txt'), content: 'allowed\n' }),
        claude.tool('Write', { file_path: join(ws, 'top.txt'), content: 'not allowed\n' }),
        claude.tool('Bash', { command: 'rm keep.txt' }),
        claude.text('Done what I could.'),
      );
      mock.setFallback(route, claude.text('side call'));
      const r = await rawpRun(args('--allow', 'Write(src/**)', '--output-format', 'json', 'write and clean up'), { env });
      assert.equal(readFileSync(join(ws, 'src', 'a.txt'), 'utf8'), 'allowed\n', 'the rule allowed the write under src/');
      assert.equal(existsSync(join(ws, 'top.txt')), false, 'the write outside the rule was not run');
      assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'keep\n', 'the rm was not run');
      assert.deepEqual(json(r).permission_denials.map((d: { tool_name?: string }) => d.tool_name), ['Write', 'Bash']);
    });
    it('§17.3.1 security: --allow \'Write(src/**)\' never covers a path that leads outside the workspace through a symlink; Claude Code\'s Write there is denied (the headless trial of 2026-12-05)', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'rawp-outside-'));
      try {
        mkdirSync(join(ws, 'src'), { recursive: true });
        symlinkSync(outside, join(ws, 'src', 'link'));
        mock.enqueue(route, claude.tool('Write', { file_path: join(ws, 'src', 'link', 'via_link.txt'), content: 'written outside\n' }), claude.text('Wrote it.'));
        mock.setFallback(route, claude.text('side call'));
        const r = await rawpRun(args('--allow', 'Write(src/**)', '--output-format', 'json', 'write it'), { env });
        assert.equal(existsSync(join(outside, 'via_link.txt')), false, 'nothing written outside the workspace');
        assert.match(r.err, /rawp run: permission denied: Write/);
        assert.equal(json(r).permission_denials[0]?.tool_name, 'Write');
        // The same rule still allows a real file under src/.
        mock.enqueue(route, claude.tool('Write', { file_path: join(ws, 'src', 'in.txt'), content: 'inside\n' }), claude.text('Wrote it.'));
        const inside = await rawpRun(args('--allow', 'Write(src/**)', 'write it'), { env });
        assert.equal(inside.code, 0, inside.err);
        assert.equal(readFileSync(join(ws, 'src', 'in.txt'), 'utf8'), 'inside\n');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });
  });

  describe('Codex (--output-schema natively; the engine caps steps)', () => {
    let route: string;
    let env: Record<string, string>;
    beforeEach(() => {
      route = installOpenAIResponses(mock);
      const codexHome = join(dir, 'codex-home');
      mkdirSync(codexHome);
      writeFileSync(
        join(codexHome, 'config.toml'),
        ['model = "gpt-5.5"', 'model_provider = "mock"', '[model_providers.mock]', 'name = "mock"', `base_url = "${mock.url}/v1"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'),
      );
      env = { HOME: scratch.home, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1', RAWP_CODEX_PATH: CODEX };
    });
    const args = (...more: string[]) => ['--workspace', ws, '--agent', 'codex', ...more];
    const format = () => (mock.requestsFor(route)[0].body as { text?: { format?: { type?: string; schema?: unknown } } }).text?.format;

    it('§11.1 a conforming final message is `valid` (exit 0); the schema reached the model as text.format json_schema (--output-schema)', async () => {
      mock.enqueue(route, responses.text(JSON.stringify(GOOD)));
      const r = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'), { env });
      assert.equal(r.code, 0, r.err);
      const o = json(r);
      assert.deepEqual(o.structured_output, { schema_id: 'city-v1', data: GOOD, validation_status: 'valid' });
      assert.match(o.agent_session_id ?? '', /^[0-9a-f-]{36}$/, 'Codex\'s own thread id, for `codex exec resume` (decision 619)');
      assert.equal(o.is_error, false);
      assert.equal(o.num_turns, 1);
      assert.equal(format()?.type, 'json_schema');
      assert.equal((format()?.schema as { $id?: string }).$id, 'city-v1');
    });

    it('§11.1 a non-conforming final message is `failed` (exit 1)', async () => {
      mock.enqueue(route, responses.text(JSON.stringify(BAD)));
      const r = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'), { env });
      assert.equal(r.code, 1);
      assert.deepEqual(json(r).structured_output, { schema_id: 'city-v1', data: BAD, validation_status: 'failed' });
      assert.equal(format()?.type, 'json_schema');
    });

    it('§5.4.1 security: --denied-tools Bash (or --allowed-tools without Bash) takes the shell from Codex itself: the command never runs (the headless trial of 2026-12-05 saw it run, then reported as denied)', async () => {
      const toolNames = (i: number) => ((mock.requestsFor(route)[i]?.body as { tools?: { name?: string; type?: string }[] } | undefined)?.tools ?? []).map((t) => t.name ?? t.type ?? '');
      for (const lists of [['--denied-tools', 'Bash'], ['--allowed-tools', 'TodoWrite']]) {
        const before = mock.requestsFor(route).length;
        mock.enqueue(route, responses.shell('touch codex_made.txt'), responses.text('Tried.'));
        mock.setFallback(route, responses.text('Tried.'));
        const r = await rawpRun(args(...lists, '--output-format', 'json', 'make the file'), { env });
        assert.equal(existsSync(join(ws, 'codex_made.txt')), false, `${lists.join(' ')}: the command did not run (${r.err})`);
        assert.ok(!toolNames(before).includes('exec_command'), `${lists.join(' ')}: Codex was given no shell tool: ${toolNames(before).join(', ')}`);
      }
      // Without a list, Codex has its shell (the check above can fail).
      const before = mock.requestsFor(route).length;
      mock.enqueue(route, responses.text('Nothing to do.'));
      await rawpRun(args('hello'), { env });
      assert.ok(toolNames(before).includes('exec_command'), toolNames(before).join(', '));
      // --allow can never apply to Codex (it asks nothing): said on stderr, not left to look like a safeguard.
      mock.enqueue(route, responses.text('Nothing to do.'));
      const allow = await rawpRun(args('--allow', 'Bash(ls)', 'hello'), { env });
      assert.match(allow.err, /rawp run: --allow has no effect with Codex: it asks no permission/);
    });

    it('§6.1.1 --max-turns 1 stops a two-step Codex turn (command, then answer) by the engine: MAX_TURNS, stop_reason error, exit 1; the stream passes rawp validate', async () => {
      mock.enqueue(route, responses.shell('cat a.txt'), responses.text('It says hello.'));
      const r = await rawpRun(args('--max-turns', '1', '--output-format', 'stream-json', 'read a.txt'), { env });
      assert.equal(r.code, 1);
      const log = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const max = log.find((f) => f.type === 'agent.error' && f.payload.error_code === 'MAX_TURNS');
      assert.equal(max?.payload.details.enforced_by, 'engine');
      assert.equal(log.find((f) => f.type === 'session.turn.end')?.payload.stop_reason, 'error');
      assert.equal(log.filter((f) => f.type === 'tool.invoke.result').length, 1, 'step 1 (the command) ran');
      assert.ok(!log.some((f) => f.type === 'agent.text.delta' && /says hello/.test(f.payload.text)), 'step 2 never reached the wire');
      const check = validateText(r.out);
      assert.equal(check.errors, 0, JSON.stringify(check.problems, null, 1));
    });
  });

  describe('gemini --acp (no native option: the schema in the prompt, the answer parsed; the engine caps steps)', () => {
    let keys: { stream: string; generate: string };
    let env: Record<string, string>;
    beforeEach(() => {
      keys = installGemini(mock);
      env = { HOME: scratch.home, GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_TRUST_WORKSPACE: 'true', NO_COLOR: '1', PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}` };
    });
    const args = (...more: string[]) => ['--workspace', ws, '--agent', 'acp:gemini', ...more];

    it('§11.1 the schema goes to the model as an instruction after the prompt; a fenced conforming answer is `valid`, a wrong one `failed`', async () => {
      mock.enqueue(keys.stream, gemini.text(`Here:\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``));
      const good = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'), { env });
      assert.equal(good.code, 0, good.err);
      assert.deepEqual(json(good).structured_output, { schema_id: 'city-v1', data: GOOD, validation_status: 'valid' });
      assert.ok(json(good).agent_session_id, 'gemini\'s own session id (decision 619)');
      const asked = lastUserText(mock.requestsFor(keys.stream)[0].body);
      assert.match(asked, /Which city\?\s+Give your final answer as one JSON object/);
      assert.ok(asked.includes('"city-v1"'), 'the schema itself is in the prompt');

      mock.enqueue(keys.stream, gemini.text(JSON.stringify(BAD)));
      const bad = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'), { env });
      assert.equal(bad.code, 1);
      assert.deepEqual(json(bad).structured_output, { schema_id: 'city-v1', data: BAD, validation_status: 'failed' });
    });

    it('§6.1.1 --max-turns 1 stops a two-step gemini turn (read_file, then answer) by the engine: MAX_TURNS, exit 1', async () => {
      mock.enqueue(keys.stream, gemini.call('read_file', { file_path: 'a.txt' }), gemini.text('It says hello.'));
      const r = await rawpRun(args('--max-turns', '1', '--allow', 'read_file', '--output-format', 'json', 'read a.txt'), { env });
      assert.equal(r.code, 1, r.err);
      const o = json(r);
      assert.equal(o.stop_reason, 'error');
      assert.ok(o.errors.some((e) => e.error_code === 'MAX_TURNS'), JSON.stringify(o.errors));
      assert.notEqual(o.text, 'It says hello.');
    });
  });

  describe('OpenAI-compatible (response_format json_schema, its own step cap)', () => {
    let route: string;
    beforeEach(() => {
      route = installChatCompletions(mock);
    });
    const args = (...more: string[]) => ['--workspace', ws, '--agent', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'mock-model', ...more];
    const body = (i = 0) => mock.requestsFor(route)[i].body as { response_format?: { type?: string; json_schema?: { schema?: unknown } } };

    it('§11.1 a conforming answer is `valid` (exit 0); a non-conforming one `failed` (exit 1); response_format carried the schema', async () => {
      mock.enqueue(route, chat.text(JSON.stringify(GOOD)));
      const good = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'));
      assert.equal(good.code, 0, good.err);
      assert.deepEqual(json(good).structured_output, { schema_id: 'city-v1', data: GOOD, validation_status: 'valid' });
      assert.equal(body(0).response_format?.type, 'json_schema');
      assert.deepEqual(body(0).response_format?.json_schema?.schema, SCHEMA);
      // --output-format text with a schema prints the data as one JSON line, for jq.
      mock.enqueue(route, chat.text(`Sure:\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``));
      const text = await rawpRun(args('--json-schema', schemaFile, 'Which city?'));
      assert.equal(text.code, 0, text.err);
      assert.equal(text.out, `${JSON.stringify(GOOD)}\n`);
      mock.enqueue(route, chat.text(JSON.stringify(BAD)));
      const bad = await rawpRun(args('--json-schema', schemaFile, '--output-format', 'json', 'Which city?'));
      assert.equal(bad.code, 1);
      assert.deepEqual(json(bad).structured_output, { schema_id: 'city-v1', data: BAD, validation_status: 'failed' });
    });

    it('§6.1.1 --attach of a file outside the workspace reaches the model (through the run\'s file store), inlined as text', async () => {
      const notes = join(dir, 'notes.md');
      writeFileSync(notes, '# Notes\nthe password is not here\n');
      mock.enqueue(route, chat.text('Noted.'));
      const r = await rawpRun(args('--attach', notes, 'summarize the attachment'));
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, 'Noted.\n');
      const messages = (mock.requestsFor(route)[0].body as { messages: Array<{ role: string; content: unknown }> }).messages;
      const user = JSON.stringify(messages.filter((m) => m.role === 'user'));
      assert.match(user, /notes\.md/);
      assert.match(user, /the password is not here/);
    });

    it('§6.1.1 --max-turns 1 stops a two-step turn after one model call: MAX_TURNS, exit 1', async () => {
      mock.enqueue(route, chat.tool('Read', { file_path: join(ws, 'a.txt') }), chat.text('It says hello.'));
      const r = await rawpRun(args('--max-turns', '1', '--allow', 'Read', '--output-format', 'json', 'read a.txt'));
      assert.equal(r.code, 1);
      const o = json(r);
      assert.equal(o.stop_reason, 'error');
      assert.ok(o.errors.some((e) => e.error_code === 'MAX_TURNS'), JSON.stringify(o.errors));
      assert.equal(mock.requestsFor(route).length, 1);
    });
  });
});
