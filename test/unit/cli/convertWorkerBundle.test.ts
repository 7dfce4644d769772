// Decision 732: `rawp convert`'s conversion thread loads its own small bundle
// (dist/convertWorker.js, beside dist/cli.js) — the converters only — instead of the whole CLI
// bundle. The built CLI converts stdin through it, wherever it is started from, with the same
// frames as a FILE (which converts without the thread).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliOnce, CLI, ROOT, rawpCli } from '../../support/rawpRun';
import { normalized } from '../../support/normalizedFrames';

const WORKER = join(ROOT, 'dist', 'convertWorker.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'native', 'claude-code', 'bash.jsonl');

/** `node dist/cli.js convert ARGS` from another folder, `stdin` written and closed. */
const convert = (args: string[], stdin = '') => rawpCli(['convert', ...args], { stdin, cwd: tmpdir() });

describe('cli: rawp convert\'s conversion thread runs its own bundle, the converters only (decision 732)', function () {
  this.timeout(120_000);
  before(() => buildCliOnce());

  it('npm run build makes dist/convertWorker.js: the converters, without the CLI\'s verbs, far smaller than dist/cli.js', () => {
    assert.ok(existsSync(WORKER), 'dist/convertWorker.js is built');
    const worker = readFileSync(WORKER, 'utf8');
    assert.match(worker, /registerConverter\(/, 'the converters register in it');
    // Text only the other verbs hold: the CLI's verb table and `rawp run`'s and `rawp serve`'s code.
    for (const other of ['Runs one prompt with an agent on DIR', 'class HeadlessRun', 'class SessionHost', 'WebSocketServer']) assert.ok(!worker.includes(other), `no "${other}" in the worker's bundle`);
    assert.ok(statSync(WORKER).size < statSync(CLI).size / 2, `${statSync(WORKER).size} bytes against the CLI's ${statSync(CLI).size}`);
  });

  it('stdin through the bundled thread (started from another folder) = the FILE converted without it: same frames, exit 0', async () => {
    const args = ['--from', 'claude-code', '--session-id', 'session-1'];
    const whole = await convert([...args, FIXTURE]);
    const streamed = await convert(args, readFileSync(FIXTURE, 'utf8'));
    assert.equal(whole.code, 0, whole.err);
    assert.equal(streamed.code, 0, streamed.err);
    assert.ok(streamed.out.split('\n').filter(Boolean).length > 5, streamed.out);
    assert.equal(normalized(streamed.out), normalized(whole.out));
    assert.equal(streamed.err, whole.err);
  });
});
