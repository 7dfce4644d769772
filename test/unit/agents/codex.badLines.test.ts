// Decision 551: the Codex adapter listens to the line reader's bad lines. A stdout line over the
// reader's limit (64 Mi characters, dropped whole, decision 543) or one that is not JSON is shown as
// a recoverable UNPARSEABLE_OUTPUT warning in its place among the turn's frames, and the turn goes
// on to its end. Decision 714: no more than 20 warnings of a kind in a turn, then one that counts
// the rest. A real child process stands in for `codex exec --json` and writes the lines; the
// limit is the real one.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { MAX_LINE_CHARS } from '../../../src/agents/process/jsonLines';
import { RecordingHost } from '../../support/recordingHost';

// `node codex.js <scenario> exec --json … -`: prints one turn of `codex exec --json` lines with a
// bad line in the middle, then exits 0.
const CODEX = `
const scenario = process.argv[2];
const line = (s) => process.stdout.write(s + '\\n');
const send = (m) => line(JSON.stringify(m));
const message = (id, text) => send({ type: 'item.completed', item: { id, type: 'agent_message', text } });
process.stdin.resume();
process.stdin.on('end', () => {
  send({ type: 'thread.started', thread_id: 'thread-1' });
  send({ type: 'turn.started' });
  message('item_0', 'before');
  if (scenario === 'long') {
    process.stdout.write('{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"');
    const piece = 'x'.repeat(1 << 20);
    for (let n = 0; n < ${MAX_LINE_CHARS} + 1000; n += piece.length) process.stdout.write(piece);
    line('"}}');
  } else if (scenario === 'flood') {
    // Thousands of lines not read, and thousands read that fit no event: each kind capped.
    let out = '';
    for (let n = 0; n < 5000; n++) out += 'garbage ' + n + '\\n';
    for (let n = 0; n < 3000; n++) out += '{"type":"thread.started"}\\n';
    process.stdout.write(out);
  } else {
    line('Reading prompt from stdin...');
  }
  message('item_2', 'after');
  send({ type: 'turn.completed', usage: { input_tokens: 3, output_tokens: 2 } });
});`;

describe('agents/codex: lines the reader could not read (decision 551)', function () {
  this.timeout(60_000);
  let dir: string;
  let adapter: CodexAdapter | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-badlines-'));
    writeFileSync(join(dir, 'codex.js'), CODEX);
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function turn(scenario: string) {
    adapter = new CodexAdapter({ command: process.execPath, prefixArgs: [join(dir, 'codex.js'), scenario], env: { CODEX_HOME: join(dir, 'codex-home') }, killGraceMs: 500 });
    const host = new RecordingHost(dir);
    await host.open(adapter);
    const t = await host.turn(adapter, 'hi');
    const all = host.ofType('agent.error', t.frames);
    const warnings = all.filter((e) => e.payload.error_code === 'UNPARSEABLE_OUTPUT');
    // Texts and warnings in the order they came: the warning stands where the line stood.
    const order = t.frames.flatMap((f) => (f.type === 'agent.text.done' ? [f.payload.full_text] : f.type === 'agent.error' ? [f.payload.error_code] : []));
    assert.deepEqual(host.invalid, []);
    assert.equal(host.validate().errors, 0, host.problems());
    return { outcome: t.outcome, warnings, order, all };
  }

  it('an over-long line is dropped and shown once as a warning; the turn goes on and ends end_turn', async () => {
    const { outcome, warnings, order } = await turn('long');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].payload.severity, 'warning');
    assert.equal(warnings[0].payload.recoverable, true);
    assert.equal(warnings[0].payload.details?.module, 'codex');
    assert.match(warnings[0].payload.message, new RegExp(`^Codex wrote a line that could not be read \\(line longer than ${MAX_LINE_CHARS} characters dropped\\): \\{"type":"item\\.completed","item":\\{"id":"item_1"`));
    assert.ok(warnings[0].payload.message.length < 400, 'only the start of the line is quoted');
    assert.deepEqual(order, ['before', 'UNPARSEABLE_OUTPUT', 'after']);
    assert.equal(outcome.stop_reason, 'end_turn');
    assert.equal(outcome.agent_session_id, 'thread-1');
  });

  it('a line that is not JSON is shown as a warning; the turn goes on and ends end_turn', async () => {
    const { outcome, warnings, order } = await turn('not-json');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].payload.message, /^Codex wrote a line that could not be read \(not JSON: .*\): Reading prompt from stdin\.\.\.$/);
    assert.deepEqual(order, ['before', 'UNPARSEABLE_OUTPUT', 'after']);
    assert.equal(outcome.stop_reason, 'end_turn');
  });

  it('a flood of bad lines: 20 warnings of each kind, then one saying how many more were dropped (decision 714)', async () => {
    const { outcome, warnings, all, order } = await turn('flood');
    assert.equal(warnings.length, 21);
    assert.match(warnings[19].payload.message, /: garbage 19$/);
    assert.equal(warnings[20].payload.message, '…and 4980 more UNPARSEABLE_OUTPUT warnings were dropped (only the first 20 of a turn are shown)');
    assert.equal(warnings[20].payload.details?.dropped, 4980);
    const malformed = all.filter((e) => e.payload.error_code === 'CODEX_UNKNOWN_EVENT');
    assert.equal(malformed.length, 21);
    assert.equal(malformed[20].payload.details?.dropped, 2980);
    assert.equal(all.length, 42);
    // The summaries come last, after the turn's own lines.
    assert.deepEqual(order.slice(-3), ['after', 'UNPARSEABLE_OUTPUT', 'CODEX_UNKNOWN_EVENT']);
    assert.equal(outcome.stop_reason, 'end_turn');
  });
});
