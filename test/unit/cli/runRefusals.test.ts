// `rawp run` says why a run failed by the host's own code, in words, on stderr and in the json
// output's errors[] (as `rawp run --help` lists them) — never a generic PROMPT_REFUSED — and host
// commands (/mode, /compact) end the run at once with the host's answer. Real `node dist/cli.js
// run` child processes with the built-in agent.
import { strict as assert } from 'node:assert';
import { closeSync, openSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, buildCliOnce, rawpRun, runScratch, type RunResult, type RunScratch } from '../../support/rawpRun';
import { ONE_PIXEL_PNG } from '../../support/images';
import { MockModelServer } from '../../support/mockModel/server';
import { chat, installChatCompletions } from '../../support/mockModel/chatCompletions';

interface RunJson {
  turn_id: string | null;
  stop_reason: string | null;
  errors: { source: string; error_code: string; message: string; severity?: string }[];
  notices: { level: string; message: string; error_code?: string }[];
}

/** A file of `size` bytes that takes no disk space (a hole), to pass a limit cheaply. */
function sparseFile(path: string, size: number): void {
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

describe('rawp run: the refusal code and its words reach stderr, the json errors[] and the exit status (§6.1.1, §4.5.1, §11)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  let dir: string;
  let ws: string;
  let env: Record<string, string>;
  before(() => buildCliOnce());
  beforeEach(() => {
    scratch = runScratch('rawp-run-refusals-', 'hello\n');
    ({ dir, ws, env } = scratch);
  });
  afterEach(() => scratch.remove());

  const base = () => ['--workspace', ws, '--agent', 'builtin'];
  const json = (r: RunResult) => JSON.parse(r.out) as RunJson;

  /** A refusal before any turn: exit 1, no turn, the code first in errors[] and on stderr. */
  function assertRefused(r: RunResult, code: string, words: RegExp): RunJson {
    assert.equal(r.code, 1, r.err);
    const o = json(r);
    assert.equal(o.turn_id, null, 'no turn ran');
    assert.equal(o.errors[0]?.error_code, code, JSON.stringify(o.errors));
    assert.match(o.errors[0].message, words);
    assert.ok(!o.errors.some((e) => e.error_code === 'PROMPT_REFUSED'), 'the specific code, not a generic one');
    assert.match(r.err, new RegExp(`^rawp run: session error ${code}: .*${words.source}`, 'm'));
    return o;
  }

  it('§11 STRUCTURED_OUTPUT_NOT_SUPPORTED: --json-schema for the built-in agent, which has no model, is refused before the turn; its capabilities do not announce structured_output (the trial of 2026-12-06)', async () => {
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] }));
    const o = assertRefused(await rawpRun([...base(), '--json-schema', schema, '--output-format', 'json', 'read a.txt'], { env }), 'STRUCTURED_OUTPUT_NOT_SUPPORTED', /follows a fixed grammar/);
    assert.doesNotMatch(JSON.stringify(o), /Not a request I know/, 'the schema\'s instruction never reached the grammar');
    const frames = (await rawpRun([...base(), '--output-format', 'stream-json', 'read a.txt'], { env })).out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; payload: { features?: Record<string, unknown> } });
    const caps = frames.find((f) => f.type === 'session.capabilities' && f.payload.features?.adapter_type !== undefined);
    assert.ok(caps, 'the client\'s capabilities');
    assert.notEqual(caps.payload.features?.structured_output, true);
  });

  it('§6.1.1 ATTACHMENT_NOT_SUPPORTED: an image for an agent that takes no images, refused before the turn, in words', async () => {
    const png = join(dir, 'pic.png');
    writeFileSync(png, ONE_PIXEL_PNG);
    const o = assertRefused(await rawpRun([...base(), '--attach', png, '--output-format', 'json', 'look'], { env }), 'ATTACHMENT_NOT_SUPPORTED', /pic\.png/);
    assert.equal(o.notices[0]?.error_code, 'ATTACHMENT_NOT_SUPPORTED', 'the host\'s notice carries the code too');
  });

  it('§4.5.1 ATTACHMENT_TOO_LARGE: a file over 20 MB, outside the workspace (the run\'s store) or inside it (admission), nothing read or sent', async () => {
    const outside = join(dir, 'big.bin');
    sparseFile(outside, 20 * 1024 * 1024 + 1);
    assertRefused(await rawpRun([...base(), '--attach', outside, '--output-format', 'json', 'look'], { env }), 'ATTACHMENT_TOO_LARGE', /big\.bin is 20971521 bytes, more than the limit of 20971520 bytes/);
    const inside = join(ws, 'huge.log');
    sparseFile(inside, 20 * 1024 * 1024 + 1);
    assertRefused(await rawpRun([...base(), '--attach', inside, '--output-format', 'json', 'look'], { env }), 'ATTACHMENT_TOO_LARGE', /huge\.log/);
    // Text output: nothing on stdout, the same line on stderr, exit 1.
    const text = await rawpRun([...base(), '--attach', outside, 'look'], { env });
    assert.equal(text.code, 1);
    assert.equal(text.out, '');
    assert.match(text.err, /^rawp run: session error ATTACHMENT_TOO_LARGE: big\.bin is 20971521 bytes/m);
  });

  it('§4.5.1 ATTACHMENT_TYPE_MISMATCH: a .png whose bytes are not a PNG is refused, not stored, with the store\'s reason', async () => {
    const fake = join(dir, 'fake.png');
    writeFileSync(fake, 'this is text, not an image');
    assertRefused(await rawpRun([...base(), '--attach', fake, '--output-format', 'json', 'look'], { env }), 'ATTACHMENT_TYPE_MISMATCH', /fake\.png could not be attached: the content is not image\/png/);
  });

  it('slash-commands §5 COMMAND_FAILED: /mode without a mode says how to use it', async () => {
    assertRefused(await rawpRun([...base(), '--output-format', 'json', '/mode'], { env }), 'COMMAND_FAILED', /No mode given/);
  });

  it('§6.1.1 MAX_TURNS in the json errors[] with stop_reason error, exit 1', async () => {
    const r = await rawpRun([...base(), '--max-turns', '1', '--output-format', 'json', 'read a.txt'], { env });
    assert.equal(r.code, 1, r.err);
    const o = json(r);
    assert.equal(o.stop_reason, 'error');
    assert.deepEqual(o.errors.map((e) => [e.source, e.error_code]), [['agent', 'MAX_TURNS']]);
    assert.match(o.errors[0].message, /maximum of 1 step/);
  });

  it('§11 STRUCTURED_OUTPUT_INVALID in the json errors[] (an agent warning) and on stderr, exit 1 (the OpenAI-compatible agent against the scripted model server)', async () => {
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }));
    const mock = await MockModelServer.start();
    try {
      const route = installChatCompletions(mock);
      mock.enqueue(route, chat.text('{"n":"not a number"}'));
      const r = await rawpRun(['--workspace', ws, '--agent', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'mock-model', '--json-schema', schema, '--output-format', 'json', 'how many?'], { env });
      assert.equal(r.code, 1, r.err);
      const e = json(r).errors.find((x) => x.error_code === 'STRUCTURED_OUTPUT_INVALID');
      assert.ok(e, r.out);
      assert.deepEqual([e.source, e.severity], ['agent', 'warning']);
      assert.match(e.message, /does not match the requested JSON Schema \(failed\)/);
      assert.match(r.err, /^rawp run: agent warning STRUCTURED_OUTPUT_INVALID: the answer does not match/m);
    } finally {
      await mock.stop();
    }
  });

  it('§6.3.2 §6.3.1 /mode plan and /compact are answered by the host at once: its words on stdout, exit 0 (no wait for a turn that never comes)', async () => {
    const started = Date.now();
    const mode = await rawpRun([...base(), '/mode plan'], { env });
    assert.equal(mode.code, 0, mode.err);
    assert.equal(mode.out, 'The mode is now plan.\n');
    const compact = await rawpRun([...base(), '--output-format', 'json', '/compact'], { env });
    assert.equal(compact.code, 0, compact.err);
    const o = json(compact);
    assert.equal(o.turn_id, null);
    assert.deepEqual(o.errors, []);
    assert.match(o.notices[0]?.message ?? '', /^The conversation was compacted \(\d+ → \d+ tokens\)\.$/);
    assert.ok(Date.now() - started < 50_000, 'neither waited for the 60 s no-turn timeout');
  });

  it('§6.3.1 /compact for an agent without compaction: COMPACTION_NOT_SUPPORTED at once, exit 1 (an ACP agent that announces none)', async () => {
    const agent = join(dir, 'acp-agent.js');
    writeFileSync(agent, `
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
rl.on('line', (l) => {
  const m = JSON.parse(l);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'not here' } });
});`);
    const started = Date.now();
    const r = await rawpRun(['--workspace', ws, '--agent', `acp:${process.execPath} ${agent}`, '--output-format', 'json', '/compact'], { env });
    assertRefused(r, 'COMPACTION_NOT_SUPPORTED', /does not support context compaction/);
    assert.ok(Date.now() - started < 50_000, 'no wait for the 60 s no-turn timeout');
  });

  it('§6.3.1 /compact for the OpenAI-compatible agent before any turn: COMPACTION_FAILED "there is nothing to compact yet" at once, exit 1, its endpoint never called (it compacts since decision 730)', async () => {
    const started = Date.now();
    const r = await rawpRun(['--workspace', ws, '--agent', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--output-format', 'json', '/compact'], { env });
    assertRefused(r, 'COMPACTION_FAILED', /there is nothing to compact yet/);
    assert.ok(Date.now() - started < 50_000, 'no wait for the 60 s no-turn timeout');
  });
});

describe('rawp run / rawp serve --context-window (decision 730)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  before(() => buildCliOnce());
  beforeEach(() => {
    scratch = runScratch('rawp-run-window-', 'hello\n');
  });
  afterEach(() => scratch.remove());

  it('§7.4 the window reaches the OpenAI-compatible agent: a prompt longer than it alone is refused in words (CONTEXT_TOO_LONG, exit 1) and the model is never called', async () => {
    const server = await MockModelServer.start((s) => void installChatCompletions(s));
    try {
      const r = await rawpRun(['--workspace', scratch.ws, '--agent', 'openai', '--base-url', `${server.url}/v1`, '--model', 'm', '--context-window', '2000', '--output-format', 'json', `explain: ${'word '.repeat(4_000)}`], { env: scratch.env });
      assert.equal(r.code, 1, r.err);
      const o = JSON.parse(r.out) as RunJson;
      assert.equal(o.errors[0]?.error_code, 'CONTEXT_TOO_LONG', JSON.stringify(o.errors));
      assert.match(o.errors[0].message, /more than the model's context window of 2,000 tokens holds/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.stop();
    }
  });

  it('an out-of-range window is a usage error of each verb (exit 2), in words', async () => {
    const r = await rawpRun(['--workspace', scratch.ws, '--agent', 'openai', '--context-window', '12', 'hi'], { env: scratch.env });
    assert.equal(r.code, 2);
    assert.match(r.err, /--context-window must be a whole number of tokens from 256 to 100,000,000/);
    const serve = spawnSync(process.execPath, [CLI, 'serve', '--workspace', scratch.ws, '--context-window', 'lots'], { encoding: 'utf8', env: { ...process.env, ...scratch.env } });
    assert.equal(serve.status, 2, serve.stderr);
    assert.match(serve.stderr, /--context-window must be a whole number of tokens/);
  });
});
