// Decision 537: Bash keeps at most its output cap (a head and a tail) while the command runs, and
// shows at most LIVE_OUTPUT_MAX_CHARS live, whatever the command prints. Real shell, real pipes.
import { strict as assert } from 'node:assert';
import { makeEnv, type Env } from './_env';
import { HeadTail } from '../../../src/tools/shell/headTail';
import { cutMark } from '../../../src/protocol/cutMark';
import { LIVE_OUTPUT_MAX_CHARS } from '../../../src/tools/shell/liveOutput';

const LEFT_OUT = /\n\[… (\d+) characters left out here …\]\n/;

describe('tools: Bash output is bounded while it streams (decision 537)', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv({ settings: { maxOutputChars: 1000 } });
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_once' });
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  it('a command printing 3 MB: the result has its start, its end and an exact count of the rest; the live view stops at its budget and says so', async () => {
    // 300,000 numbered lines of 10 characters: `seq -w` pads them, so the total is known.
    const lines = 300_000;
    const r = await env.call('Bash', { command: `seq -w 1 ${lines} | sed 's/^/line /'; echo done >&2` });
    assert.equal(r.status, 'success');
    assert.equal(r.truncated, true);
    const out = String(r.output);
    const total = lines * 'line 000001\n'.length + 'done\n'.length;
    assert.ok(out.startsWith('line 000001\nline 000002\n'), out.slice(0, 40));
    assert.ok(out.endsWith('done\n') && out.includes(`line ${lines}\n`), out.slice(-60));
    const m = LEFT_OUT.exec(out);
    assert.ok(m, 'the result says how much was left out');
    assert.equal(Number(m[1]), total - 1000);
    assert.equal(out.length, 1000 + m[0].length);

    const chunks = env.host.ofType('tool.invoke.stream').map((s) => s.payload);
    const shown = chunks.filter((c) => c.stream_type !== 'progress').reduce((n, c) => n + c.chunk.length, 0);
    assert.equal(shown, LIVE_OUTPUT_MAX_CHARS);
    const last = chunks[chunks.length - 1];
    assert.equal(last.stream_type, 'progress');
    assert.match(last.chunk, /live output stops here after 1000000 characters/);
    assert.deepEqual(chunks.map((c) => c.sequence), chunks.map((_, i) => i));
  });

  it('an exit note still ends a cut result', async () => {
    const r = await env.call('Bash', { command: 'seq 1 100000; exit 4' });
    assert.equal(r.status, 'error');
    assert.match(String(r.output), /99999\n100000\n\(exit code 4\)$/);
    assert.match(String(r.output), LEFT_OUT);
  });
});

describe('tools: HeadTail', () => {
  it('takes 640 million characters (past the longest string V8 makes) and keeps only its cap', () => {
    const kept = new HeadTail(30_000);
    const chunk = 'x'.repeat(65_535) + '\n';
    const n = 10_000; // 655,360,000 characters: appending them to one string throws a RangeError
    for (let i = 0; i < n; i++) kept.add(chunk);
    kept.add('the end\n');
    const { text, dropped } = kept.text();
    const total = n * chunk.length + 'the end\n'.length;
    assert.equal(dropped, total - 30_000);
    assert.ok(text.endsWith('x\nthe end\n'));
    assert.equal(text.length, 30_000 + LEFT_OUT.exec(text)![0].length);
  });

  it('keeps everything that fits, unmarked', () => {
    const kept = new HeadTail(10);
    kept.add('abc');
    kept.add('defghij');
    assert.deepEqual(kept.text(), { text: 'abcdefghij', dropped: 0 });
  });

  it('never splits a surrogate pair at the cut', () => {
    const kept = new HeadTail(4);
    kept.add('a😀b');
    kept.add('c😀d');
    // Head 'a' + the first half of 😀, tail the second half of 😀 + 'd': both halves count as left out.
    assert.deepEqual(kept.text(), { text: `a${cutMark(6)}d`, dropped: 6 });
  });
});
