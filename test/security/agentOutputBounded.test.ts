// Security property "what an agent writes reaches the operator's terminal neither raw nor without
// bound" (decision 716). Reproduced with the built `rawp run` before it: an ACP agent's answers to
// ids nobody asked for were console.error'd by the ACP SDK as written (an OSC title and a screen
// clear reached the terminal; 300,000 of them wrote 22 MB), a line nested 5,000 deep failed the run
// with nothing said, and every unreadable line and every agent error was one stderr line, whole (a
// 20 MB error, a 20 MB line). The built `rawp run` with a fake ACP agent (a real child process).
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliOnce, frames, rawpRun, runScratch, type RunScratch } from '../support/rawpRun';

const AGENT = `
const [scenario] = process.argv.slice(2);
const rl = require('readline').createInterface({ input: process.stdin });
const line = (s) => process.stdout.write(s + '\\n');
const send = (m) => line(JSON.stringify({ jsonrpc: '2.0', ...m }));
const say = (text) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
const notice = (title, description, severity = 'warning') => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'notice', severity, title, description } } });
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    if (scenario === 'ids') {
      send({ id: '\\u001b]0;PWNED\\u0007\\u001b[2J', result: {} });
      send({ id: 'i'.repeat(1 << 20), result: {} });
      for (let i = 0; i < 3000; i++) send({ id: 'nobody-' + i, result: {} });
    } else if (scenario === 'deep') {
      line('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fake-1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","kind":"execute","rawInput":{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}}}}');
    } else if (scenario === 'flood') {
      for (let i = 0; i < 2000; i++) line('junk ' + i);
      notice('big', 'd'.repeat(20 << 20));
      for (let i = 0; i < 300; i++) notice('n' + i);
      // Notices are 20 of each severity and a count (decision 719): more kinds, so the run's own
      // bound on errors[] (over 100) is still reached.
      for (let i = 0; i < 300; i++) {
        notice('e' + i, undefined, 'error');
        line('[' + i + ']');
        send({ id: 'nobody-' + i, result: {} });
        send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk' } } });
      }
    }
    say('done');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  }
});`;

describe('security: an agent\'s output reaches stderr neither raw nor without bound (decision 716; the built rawp run)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  before(() => buildCliOnce());
  beforeEach(() => {
    scratch = runScratch('rawp-agent-output-', 'a\n');
    writeFileSync(join(scratch.dir, 'agent.js'), AGENT);
  });
  afterEach(() => scratch.remove());

  const run = (scenario: string, more: string[] = []) => rawpRun(['--workspace', scratch.ws, '--agent', `acp:${process.execPath} ${join(scratch.dir, 'agent.js')} ${scenario}`, ...more, 'hi'], { env: scratch.env });
  // C0 but tab and newline, DEL, C1: what a terminal obeys.
  // eslint-disable-next-line no-control-regex
  const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('answers to ids nobody asked for: no escape sequence of the agent\'s on stderr, a few KB for 3,002 of them, and the run\'s answer', async () => {
    const r = await run('ids');
    assert.equal(r.code, 0, r.err.slice(0, 2000));
    assert.equal(r.out, 'done\n');
    assert.ok(!CONTROLS.test(r.err), 'no control character reached stderr');
    assert.ok(r.err.length < 20_000, `${r.err.length} characters of stderr`);
    assert.match(r.err, /\(an answer to no request of ours: its id names none waiting for an answer\): \{"jsonrpc":"2\.0","id":"\\u001b\]0;PWNED/);
    assert.match(r.err, /wrote 2982 more lines that could not be read \(an answer to no request of ours\), not shown/);
  });

  it('a line nested 5,000 deep: the run goes on and ends normally, the line refused in words; every frame printed', async () => {
    const r = await run('deep', ['--output-format', 'stream-json']);
    assert.equal(r.code, 0, r.err.slice(0, 2000));
    assert.match(r.err, /wrote a line that could not be read \(arrays and objects nested deeper than 64 levels\)/);
    const printed = frames(r.out);
    assert.ok(printed.some((f) => f.type === 'session.turn.end'), 'the turn ended in the stream');
  });

  it('2,000 unreadable lines, 601 notices (one of 20 MB) and 900 more lines and updates that cannot be read: at most ~100 short lines on stderr, and a json errors[] of 101 entries counting the rest', async () => {
    const text = await run('flood');
    assert.equal(text.code, 0, text.err.slice(0, 2000));
    const lines = text.err.split('\n').filter((l) => l);
    assert.ok(lines.length <= 102, `${lines.length} lines`);
    assert.ok(lines.every((l) => l.length < 2300), `longest: ${Math.max(...lines.map((l) => l.length))}`);
    assert.match(text.err, /wrote 1980 more lines that could not be read \(not JSON\), not shown/);
    assert.match(text.err, /session warning ERRORS_LEFT_OUT: \d+ more errors and warnings came here and were left out/);

    const json = await run('flood', ['--output-format', 'json']);
    const result = JSON.parse(json.out) as { errors: { error_code: string; message: string }[] };
    assert.equal(result.errors.length, 101);
    assert.ok(result.errors.every((e) => e.message.length < 4100));
    assert.equal(result.errors.filter((e) => e.error_code === 'ERRORS_LEFT_OUT').length, 1);
  });
});
