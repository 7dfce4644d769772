// Decision 716: a `rawp run` kept every agent.error and session.error whole and without a cap (an
// agent's 300,000 unreadable lines were 300,000 entries of errors[]; one 20 MB agent error a 20 MB
// entry). Now the first 50 and the last 50 are kept, one entry between them counts the rest, and
// each message is cut. The run is a real HeadlessRun with a fake ACP agent (a child process).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadlessRun } from '../../../src/host/headlessRun';
import { ERRORS_LEFT_OUT, keepError, RUN_ERROR_CHARS, RUN_ERRORS_HEAD, RUN_ERRORS_TAIL, type RunError } from '../../../src/host/runErrors';
import { FAKE_ACP_PREAMBLE } from '../../support/fakeAcpAgent';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

// 300 warning notices, the first of 5 MB, then a last one; 300 error notices, and 300 each of four
// kinds of lines and updates that cannot be read. The adapter shows 20 of each kind and a count
// (decisions 716, 719): over 120 agent errors reach the run, then the turn's end.
const AGENT = `${FAKE_ACP_PREAMBLE}
const notice = (description, severity = 'warning') => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'notice', severity, title: 'n', description } } });
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    notice('x'.repeat(5 * 1024 * 1024));
    for (let i = 1; i < 300; i++) notice('number ' + i);
    for (let i = 0; i < 300; i++) {
      notice('error ' + i, 'error');
      line('junk ' + i);
      line('[' + i + ']');
      send({ id: 'nobody-' + i, result: {} });
      send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk' } } });
    }
    notice('the last one');
    say('done');
    send({ id: m.id, result: { stopReason: 'end_turn' } });
  }
});`;

describe('headless run: errors[] is bounded, its messages cut (decision 716)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-headless-errors-'));
    writeFileSync(join(dir, 'agent.js'), AGENT);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const error = (i: number): RunError => ({ source: 'agent', error_code: 'E', message: `error ${i}`, severity: 'warning' });

  it(`keepError: the first ${RUN_ERRORS_HEAD} and the last ${RUN_ERRORS_TAIL}, and between them one entry counting the rest`, () => {
    const errors: RunError[] = [];
    for (let i = 0; i < RUN_ERRORS_HEAD + RUN_ERRORS_TAIL; i++) keepError(errors, error(i));
    assert.equal(errors.length, RUN_ERRORS_HEAD + RUN_ERRORS_TAIL, 'nothing left out up to the bound');
    for (let i = RUN_ERRORS_HEAD + RUN_ERRORS_TAIL; i < 300_000; i++) keepError(errors, error(i));
    assert.equal(errors.length, RUN_ERRORS_HEAD + RUN_ERRORS_TAIL + 1);
    assert.deepEqual(errors.slice(0, RUN_ERRORS_HEAD).map((e) => e.message), Array.from({ length: RUN_ERRORS_HEAD }, (_, i) => `error ${i}`));
    assert.deepEqual(errors.slice(RUN_ERRORS_HEAD + 1).map((e) => e.message), Array.from({ length: RUN_ERRORS_TAIL }, (_, i) => `error ${300_000 - RUN_ERRORS_TAIL + i}`));
    const counter = errors[RUN_ERRORS_HEAD];
    assert.equal(counter.error_code, ERRORS_LEFT_OUT);
    assert.match(counter.message, new RegExp(`^${300_000 - RUN_ERRORS_HEAD - RUN_ERRORS_TAIL} more errors and warnings came here and were left out`));
  });

  it('keepError: a message (and a code) of megabytes is cut, saying how much was left out', () => {
    const errors: RunError[] = [];
    keepError(errors, { source: 'agent', error_code: 'C'.repeat(10_000), message: 'm'.repeat(20 * 1024 * 1024) });
    assert.ok(errors[0].error_code.length < 300);
    assert.ok(errors[0].message.length < RUN_ERROR_CHARS + 100, `${errors[0].message.length}`);
    assert.match(errors[0].message, new RegExp(`… \\[${20 * 1024 * 1024 - RUN_ERROR_CHARS} more characters\\]$`));
  });

  it('a run whose agent reports over 120 errors (after the adapter\'s bounds), the first of 5 MB, keeps 101 entries, each short; the last one is among them', async () => {
    const run = new HeadlessRun({ workspace: dir, agent: `acp:${process.execPath} ${join(dir, 'agent.js')}`, prompt: { prompt_text: 'hi', input_type: 'text' }, allow: [], rulesFile: join(dir, 'rules.json'), logger: silent });
    try {
      const r = await run.run();
      assert.equal(r.stop_reason, 'end_turn', JSON.stringify(r.errors.slice(-3)));
      assert.equal(r.text, 'done');
      assert.equal(r.errors.length, RUN_ERRORS_HEAD + RUN_ERRORS_TAIL + 1);
      assert.equal(r.errors[RUN_ERRORS_HEAD].error_code, ERRORS_LEFT_OUT);
      assert.match(r.errors[RUN_ERRORS_HEAD].message, /^\d+ more errors and warnings came here and were left out/);
      assert.ok(r.errors.every((e) => e.message.length < RUN_ERROR_CHARS + 100), 'every message cut');
      // Cut by the adapter already (decision 719), before the run's own cut.
      assert.match(r.errors[0].message, /more characters\)$/);
      // Held back in the adapter, its words end the count of the warning notices, in the kept tail.
      assert.ok(r.errors.slice(-RUN_ERRORS_TAIL).some((e) => /the last: n: the last one$/.test(e.message)));
    } finally {
      await run.dispose();
    }
  });
});
