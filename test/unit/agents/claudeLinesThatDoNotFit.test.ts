// Claude Code lines that do not fit (decision 715), through the long-lived adapter and the session
// engine: a fake `claude` (a small script) answers initialize, then writes each turn's lines as
// given — raw text, so a line can hold what JSON.stringify never writes (1e400) or no JSON at all.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeCodeAdapter } from '../../../src/agents/claudeCode/adapter';
import { ClaudeCodeOneShotAdapter } from '../../../src/agents/claudeCode/oneShot';
import type { AgentAdapter } from '../../../src/session/agentAdapter';
import { validateText } from '../../../src/protocol/conformance';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { AgentSession } from '../../../src/session/engine';
import { eventually } from '../../support/settle';

/** A fake claude that writes `turns[i]` (raw text, in one write) for its i-th user message; it stays alive. */
function fakeClaude(dir: string, turns: string[]): string {
  const path = join(dir, 'claude');
  writeFileSync(
    path,
    `#!${process.execPath}
const turns = ${JSON.stringify(turns)};
let n = 0;
const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'control_request' && m.request.subtype === 'initialize') process.stdout.write(JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response: { commands: [] } } }) + '\\n');
  else if (m.type === 'user') process.stdout.write(turns[n++] ?? '');
});`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** The §18 one-shot form: `claude -p` reads its prompt from stdin, writes `out`, exits 0. */
function fakeOneShotClaude(dir: string, out: string): string {
  const path = join(dir, 'claude-p');
  writeFileSync(path, `#!${process.execPath}\nprocess.stdin.resume();\nprocess.stdin.on('end', () => process.stdout.write(${JSON.stringify(out)}));\n`);
  chmodSync(path, 0o755);
  return path;
}

const line = (v: unknown) => `${JSON.stringify(v)}\n`;
const init = line({ type: 'system', subtype: 'init', session_id: 'fake-claude', tools: ['Read'], model: 'fake', permissionMode: 'default' });
let msg = 0;
const say = (text: string) => line({ type: 'assistant', message: { id: `msg_${++msg}`, role: 'assistant', model: 'fake', content: [{ type: 'text', text }] }, session_id: 'fake-claude' });
const result = line({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, session_id: 'fake-claude', usage: { input_tokens: 3, output_tokens: 2 } });

const ends = (frames: Frame[]) => frames.filter((f): f is FrameOf<'session.turn.end'> => f.type === 'session.turn.end');
const warnings = (frames: Frame[], code: string) => frames.filter((f): f is FrameOf<'agent.error'> => f.type === 'agent.error' && f.payload.error_code === code);
const answers = (frames: Frame[]) => frames.flatMap((f) => (f.type === 'agent.text.done' ? [f.payload.full_text] : []));

describe('agents/claudeCode: lines that do not fit end or stay out of the turn (decision 715)', function () {
  this.timeout(60_000);
  let dir: string;
  let frames: Frame[];
  let session: AgentSession;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-claude-lines-'));
    frames = [];
  });
  afterEach(async () => {
    await session?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(turns: string[], adapter: AgentAdapter = new ClaudeCodeAdapter({ command: fakeClaude(dir, turns) })): Promise<void> {
    session = new AgentSession({ adapter, out: (f) => void frames.push(f), workspacePath: dir });
    await session.start();
  }
  /** One prompt; resolves once its turn ended (its usage, §7.5.2, closes it). */
  async function turn(n: number): Promise<void> {
    session.prompt({ prompt_text: `prompt ${n}` });
    await eventually(() => frames.filter((f) => f.type === 'session.usage').length >= n, `turn ${n} to end`, 15_000);
  }
  function assertValid(): void {
    const r = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
    assert.deepEqual(r.problems.filter((p) => p.severity === 'error'), []);
  }

  it('§17.2.2 a result line whose fields do not fit (1e400 is Infinity, a word for a number) still ends the turn, with a warning naming the fields', async () => {
    const bad1 = '{"type":"result","subtype":"success","is_error":false,"num_turns":1e400,"usage":{"input_tokens":1e400},"session_id":"fake-claude"}\n';
    const bad2 = '{"type":"result","subtype":"success","is_error":false,"num_turns":"one","session_id":"fake-claude"}\n';
    await start([init + say('first') + bad1, say('second') + bad2]);
    await turn(1);
    await turn(2);
    assert.deepEqual(ends(frames).map((e) => e.payload.stop_reason), ['end_turn', 'end_turn']);
    assert.deepEqual(answers(frames), ['first', 'second']);
    const w = warnings(frames, 'MALFORMED_NATIVE_LINE').map((e) => e.payload.message);
    assert.equal(w.length, 2);
    assert.match(w[0], /result line.*num_turns.*usage/);
    assert.match(w[1], /result line.*num_turns/);
    assertValid();
  });

  it('§17.2.2 thousands of unreadable lines: 20 warnings and one summary with the count, and the answer after them still arrives', async () => {
    await start([init + 'x\n'.repeat(5000) + say('the answer') + result, 'y\n'.repeat(30) + say('again') + result]);
    await turn(1);
    const first = warnings(frames, 'UNPARSEABLE_OUTPUT');
    assert.equal(first.length, 21);
    assert.match(first[20].payload.message, /4980 more lines .*could not be read/);
    assert.deepEqual(answers(frames), ['the answer']);
    // The next turn counts again from zero.
    await turn(2);
    assert.equal(warnings(frames, 'UNPARSEABLE_OUTPUT').length, 21 + 21);
    assert.deepEqual(answers(frames), ['the answer', 'again']);
    assertValid();
  });

  it('§17.2.2 the text of a warning from the agent is cut: a 1 MB api_retry error is not a 1 MB frame', async () => {
    const retry = line({ type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 3, error_status: 529, error: 'E'.repeat(1_000_000) });
    await start([init + retry + say('done') + result]);
    await turn(1);
    const w = warnings(frames, 'API_RETRY');
    assert.equal(w.length, 1);
    assert.ok(w[0].payload.message.length < 5000, `message of ${w[0].payload.message.length} characters`);
    assert.match(w[0].payload.message, /more characters/);
  });

  it('§7.5 output written after the turn\'s result is dropped with one warning, never put into the turn that ended; the next turn is whole', async () => {
    await start([init + say('a') + result + result + say('late text') + say('later still'), say('b') + result]);
    await turn(1);
    await turn(2);
    assert.deepEqual(answers(frames), ['a', 'b']);
    assert.equal(warnings(frames, 'OUTPUT_OUTSIDE_TURN').length, 1);
    assert.ok(!JSON.stringify(frames).includes('late text'));
    assertValid();
  });

  it('§18 the one-shot form too: malformed lines bounded per turn, output after the result dropped with one warning', async () => {
    const malformed = line({ type: 'assistant', message: 'not an object' }).repeat(30);
    await start([], new ClaudeCodeOneShotAdapter({ command: fakeOneShotClaude(dir, init + malformed + say('a') + result + say('late text')) }));
    await turn(1);
    assert.deepEqual(ends(frames).map((e) => e.payload.stop_reason), ['end_turn']);
    assert.deepEqual(answers(frames), ['a']);
    const w = warnings(frames, 'MALFORMED_NATIVE_LINE');
    assert.equal(w.length, 21);
    assert.match(w[20].payload.message, /10 more lines .*skipped/);
    assert.equal(warnings(frames, 'OUTPUT_OUTSIDE_TURN').length, 1);
    assertValid();
  });
});
