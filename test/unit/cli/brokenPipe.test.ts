// A reader that goes away (`rawp validate big.jsonl | head -1`): Node threw the stdout's EPIPE as
// an unhandled 'error' event, a stack trace and exit 1, from validate, convert and attach (found by
// a trial; `rawp run` already stopped with 141). Now every verb stops quietly with 141, as a
// program stopped by SIGPIPE does; `serve` keeps serving. The built CLI, real pipes.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stopQuietlyOnBrokenPipe } from '../../../src/cli/main';
import { serve, stopAll } from '../../security/serveProcess';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

/** Runs the built CLI, reads its first output and then closes the pipe, as `| head -1` does (and then calls `after`). */
/** `stdin` null: input stays open (rawp attach leaves when piped input ends, decision 599). */
function firstLineThenClose(args: string[], stdin: string | null = '', after?: () => void): Promise<{ code: number | null; first: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let first = '';
    let err = '';
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString().split('\n')[0];
      child.stdout.destroy();
      after?.();
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, first, err }));
    child.stdin.on('error', () => undefined);
    if (stdin !== null) child.stdin.end(stdin);
  });
}

describe('cli/broken pipe: a reader that goes away stops a verb quietly (exit 141, no stack trace)', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => {
    if (!existsSync(CLI)) spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
    tmp = mkdtempSync(join(tmpdir(), 'rawp-pipe-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  afterEach(stopAll);

  it('rawp validate (text and --json) over 100,000 bad lines', async () => {
    const file = join(tmp, 'bad.jsonl');
    writeFileSync(file, '{bad\n'.repeat(100_000));
    for (const args of [['validate', file], ['validate', '--json', file]]) {
      const r = await firstLineThenClose(args);
      assert.ok(r.first.length > 0, 'it wrote before the pipe closed');
      assert.equal(r.code, 141, `${args.join(' ')}: ${r.err.slice(0, 400)}`);
      assert.equal(r.err, '', 'nothing on stderr: no stack trace');
    }
  });

  it('rawp convert --from claude-code over a long capture', async () => {
    const capture = readFileSync(join(ROOT, 'test', 'fixtures', 'native', 'claude-code', 'bash.jsonl'), 'utf8');
    const file = join(tmp, 'long.jsonl');
    writeFileSync(file, capture.repeat(400));
    const r = await firstLineThenClose(['convert', '--from', 'claude-code', file]);
    assert.match(r.first, /^\{"v":1/);
    assert.equal(r.code, 141, r.err.slice(0, 400));
    assert.doesNotMatch(r.err, /EPIPE|node:events|at /, 'no stack trace');
  });

  it('rawp attach, its reader gone, when the session next has something to show', async () => {
    const s = await serve();
    const other = await s.master();
    const tokenFile = join(tmp, 'token');
    writeFileSync(tokenFile, s.token, { mode: 0o600 });
    // Another master's prompt is what attach writes next.
    const r = await firstLineThenClose(['attach', s.url, '--token-file', tokenFile], null, () => setTimeout(() => other.client.send('control.prompt.request', { prompt_text: 'help' }), 300));
    assert.ok(r.first.length > 0);
    assert.equal(r.code, 141, r.err.slice(0, 400));
    assert.doesNotMatch(r.err, /EPIPE|node:events/, 'no stack trace');
    assert.ok(s.alive(), 'the served session goes on');
  });

  it('the handler leaves the pipe to a verb that listens itself, and says other write errors in one line', () => {
    const exits: number[] = [];
    const said: string[] = [];
    const stream = new PassThrough();
    stopQuietlyOnBrokenPipe(stream, (code) => void exits.push(code), (line) => void said.push(line));
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    assert.deepEqual(exits, [141]);
    const own = () => undefined;
    stream.on('error', own);
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    assert.deepEqual(exits, [141], 'the verb handles it');
    stream.off('error', own);
    stream.emit('error', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    assert.deepEqual(exits, [141, 2]);
    assert.deepEqual(said, ['rawp: cannot write the output: no space left on device\n']);
  });
});
