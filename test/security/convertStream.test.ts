// Security property "`rawp convert` holds a batch of lines and its frames, not its input or its
// output" (decision 726; the built CLI). Measured before it: a 400 MB Claude Code capture took
// 2.25 GB of memory and wrote its first byte after 38.5 s (everything was read, then converted,
// then written); stdin piped from a running agent wrote nothing until the agent ended.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliOnce, CLI, ROOT } from '../support/rawpRun';
import { validateText, formatText } from '../../src/protocol/conformance';
import { MAX_LINE_CHARS } from '../../src/agents/process/jsonLines';

const CAPTURE = join(ROOT, 'test', 'fixtures', 'native', 'claude-code', 'bash.jsonl');
const LINES = readFileSync(CAPTURE, 'utf8').split('\n').filter(Boolean);
/** Lines 1-2 open the session (control_response, system init); 3-21 are one turn. */
const OPENING = LINES.slice(0, 2);
const TURN = LINES.slice(2);
/** Turn `n`: the capture's turn with tool call ids of its own (a stream must not reuse one). */
const turn = (n: number) => TURN.map((l) => l.replaceAll('"toolu_', `"toolu_${n}_`));

interface Result {
  code: number | null;
  out: string;
  outBytes: number;
  err: string;
  /** The output's last 64 KiB. */
  tail: string;
  /** Peak resident memory of the CLI (VmHWM, read from /proc while it ran), in bytes. */
  peak: number;
  firstOutputMs?: number;
}

function rawpConvert(args: string[], keepOut = true): { child: ChildProcessWithoutNullStreams; done: Promise<Result>; firstOutput: Promise<void>; live: Result } {
  const child = spawn(process.execPath, [CLI, 'convert', ...args], { cwd: ROOT });
  const started = Date.now();
  const r: Result = { code: null, out: '', outBytes: 0, err: '', tail: '', peak: 0 };
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) r.peak = Math.max(r.peak, Number(m[1]) * 1024);
    } catch {
      // exited between samples
    }
  };
  const sampler = setInterval(sample, 20);
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  child.stdout.on('data', (d: Buffer) => {
    r.firstOutputMs ??= Date.now() - started;
    r.outBytes += d.length;
    if (keepOut) r.out += d;
    r.tail = (r.tail + d).slice(-65536);
  });
  child.stderr.on('data', (d) => (r.err += d));
  const firstOutput = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const done = new Promise<Result>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      r.code = code;
      resolve(r);
    });
  });
  return { child, done, firstOutput, live: r };
}

const MB = 1024 * 1024;

describe('security: rawp convert streams its input and output (decision 726; the built CLI)', function () {
  this.timeout(300_000);
  let dir: string;
  before(function () {
    if (process.platform !== 'linux') this.skip(); // memory is read from /proc
    buildCliOnce();
  });
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-convert-stream-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a 384 MiB capture of ordinary Claude Code lines (1.2 million lines) converts whole with peak memory below the input size (before: about 6 times it, 2.3 GiB), ending in the last turn\'s session.usage', async () => {
    const file = join(dir, 'big.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, OPENING.join('\n') + '\n');
    const block = (TURN.join('\n') + '\n').repeat(200);
    let size = 0;
    let turns = 0;
    while (size < 384 * MB) {
      size += writeSync(fd, block);
      turns += 200;
    }
    closeSync(fd);
    const r = await rawpConvert(['--from', 'claude-code', file], false).done;
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    assert.ok(r.outBytes > 100 * MB, `the frames of ${turns} turns were written (${r.outBytes} bytes)`);
    const last = r.tail.split('\n').filter(Boolean).slice(-2).map((l) => (JSON.parse(l) as { type: string }).type);
    assert.deepEqual(last, ['session.turn.end', 'session.usage']);
    assert.ok(r.peak > 0, 'memory was read');
    assert.ok(r.peak < size, `peak memory ${Math.round(r.peak / MB)} MiB, input ${Math.round(size / MB)} MiB`);
  });

  it('stdin fed one turn at a time: the first frames are written before the input ends, and the whole is the same as converting the file, rawp validate clean', async () => {
    const { child, done, firstOutput, live } = rawpConvert(['--from', 'claude-code', '--session-id', 's-1']);
    child.stdin.write([...OPENING, ...turn(1)].join('\n') + '\n');
    const first = await Promise.race([firstOutput.then(() => 'output'), done.then(() => 'exit'), new Promise((r) => setTimeout(() => r('nothing in 30 s'), 30_000))]);
    assert.equal(first, 'output', 'frames were written while stdin was still open');
    await new Promise((r) => setTimeout(r, 500));
    assert.match(live.out, /^\{"v":1,"type":"session\.capabilities"/);
    assert.match(live.out, /"type":"session\.usage"/, 'the whole first turn, before the input ended');
    child.stdin.end([...turn(2), ...turn(3)].join('\n') + '\n');
    const r = await done;
    assert.equal(r.code, 0, r.err);
    const v = validateText(r.out);
    assert.equal(v.errors, 0, formatText(v));
    const types = (out: string) => out.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type);
    const file = join(dir, 'three-turns.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, [...OPENING, ...turn(1), ...turn(2), ...turn(3)].join('\n') + '\n');
    closeSync(fd);
    const whole = await rawpConvert(['--from', 'claude-code', '--session-id', 's-1', file]).done;
    assert.deepEqual(types(r.out), types(whole.out));
    assert.equal(types(r.out).filter((t) => t === 'session.turn.end').length, 3);
  });

  it('a 320 MiB line in the middle of a streamed capture is skipped without being held: "convert: 22: could not be read (longer than 67,108,864 characters: 335,544,320)", the turns around it converted, peak memory below the line\'s size', async () => {
    const { child, done } = rawpConvert(['--from', 'claude-code', '--session-id', 's-1']);
    const write = (s: string | Buffer) => new Promise<void>((resolve) => (child.stdin.write(s) ? resolve() : child.stdin.once('drain', resolve)));
    await write([...OPENING, ...turn(1)].join('\n') + '\n');
    const piece = Buffer.alloc(MB, 'x');
    await write('{"type":"assistant","message":{"content":"');
    const length = 320 * MB;
    const frame = '{"type":"assistant","message":{"content":"'.length + '"}}'.length;
    for (let i = 0; i < 320; i++) await write(i === 319 ? piece.subarray(0, MB - frame) : piece);
    await write('"}}\r\n');
    child.stdin.end(turn(2).join('\n') + '\n');
    const r = await done;
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, `convert: 22: could not be read (longer than 67,108,864 characters: ${length.toLocaleString('en-US')})\n`);
    const ends = r.out.split('\n').filter((l) => l.includes('"type":"session.turn.end"'));
    assert.equal(ends.length, 2, 'the turns before and after the line');
    const v = validateText(r.out);
    assert.equal(v.errors, 0, formatText(v));
    assert.ok(r.peak < length, `peak memory ${Math.round(r.peak / MB)} MiB, the line ${length / MB} MiB`);
  });

  it('a line just within the bound (64 Mi characters of two-byte text, surrogate pairs and escapes) streamed through the bundled thread: its text comes out whole, byte for byte, in its agent.text.delta and in the full_text of agent.text.done (decision 736: its bytes cross the threads, its frames come back in parts)', async () => {
    const unit = `${'ж'.repeat(2000)}😀\n"${'世'.repeat(100)}`;
    const delta = '"delta":{"type":"text_delta","text":"Ran it."}';
    const at = TURN.findIndex((l) => l.includes(delta));
    const [before, after] = TURN[at].split(delta);
    const room = MAX_LINE_CHARS - before.length - after.length - '"delta":{"type":"text_delta","text":}'.length - 2;
    let text = unit.repeat(Math.ceil(room / (JSON.stringify(unit).length - 2)));
    while (JSON.stringify(text).length > room) text = text.slice(0, text.length - 4096).replace(/[\ud800-\udbff]$/, '');
    const line = Buffer.from(`${before}"delta":{"type":"text_delta","text":${JSON.stringify(text)}}${after}`);
    const chars = line.toString('utf8').length;
    assert.ok(chars <= MAX_LINE_CHARS && chars > MAX_LINE_CHARS - 8192, `just within the bound (${chars} characters)`);
    const child = spawn(process.execPath, [CLI, 'convert', '--from', 'claude-code', '--session-id', 's-1'], { cwd: ROOT });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // The output's lines as they come: the long ones parsed and compared, the others' types kept.
    const types: string[] = [];
    const long: Array<{ type: string; same: boolean; length: number }> = [];
    let pending: Buffer[] = [];
    const onLine = (bytes: Buffer) => {
      if (bytes.length < 1 << 20) return void types.push((JSON.parse(bytes.toString('utf8')) as { type: string }).type);
      const frame = JSON.parse(bytes.toString('utf8')) as { type: string; payload: { text?: string; full_text?: string } };
      const said = frame.payload.text ?? frame.payload.full_text;
      types.push(frame.type);
      long.push({ type: frame.type, same: said === text, length: said?.length ?? 0 });
    };
    child.stdout.on('data', (d: Buffer) => {
      let from = 0;
      for (let nl = d.indexOf(10); nl >= 0; nl = d.indexOf(10, from)) {
        onLine(pending.length ? Buffer.concat([...pending, d.subarray(from, nl)]) : d.subarray(from, nl));
        pending = [];
        from = nl + 1;
      }
      if (from < d.length) pending.push(d.subarray(from));
    });
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    const write = (b: Buffer) => new Promise<void>((resolve) => (child.stdin.write(b) ? resolve() : child.stdin.once('drain', resolve)));
    await write(Buffer.from([...OPENING, ...TURN.slice(0, at)].join('\n') + '\n'));
    for (let i = 0; i < line.length; i += MB) await write(line.subarray(i, i + MB));
    child.stdin.end('\n' + TURN.slice(at + 1).join('\n') + '\n');
    assert.equal(await done, 0, err);
    assert.equal(err, '');
    assert.deepEqual(long.map((l) => [l.type, l.same, l.length]), [['agent.text.delta', true, text.length], ['agent.text.done', true, text.length]]);
    assert.deepEqual(types.slice(-2), ['session.turn.end', 'session.usage']);
  });
});
