// Bad arguments are worded and numbered alike by every verb that shares src/cli/verbArgs.ts
// (run, search, serve, attach): one line `rawp VERB: what is wrong` on stderr, the verb's help after
// it when an option could not be read, exit status 2, and nothing started. Real `node dist/cli.js`
// child processes, as a user or a script meets them.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliOnce, CLI, ROOT } from '../../support/rawpRun';
import { directoryArg } from '../../../src/cli/verbArgs';

function rawp(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, RAWP_TOKEN: '' }, input: '' });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cli: one argument-error helper for rawp run, search, serve and attach', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => buildCliOnce());
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-args-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const verb of ['run', 'search', 'serve', 'attach']) {
    it(`rawp ${verb} --no-such-option: "rawp ${verb}: unknown option", then its usage lines and where the rest is, exit 2 (decision 700)`, () => {
      const r = rawp([verb, '--no-such-option']);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`^rawp ${verb}: unknown option "--no-such-option"`));
      assert.match(r.err, new RegExp(`\\n\\nUsage: rawp ${verb} `), 'the usage lines follow the message');
      assert.match(r.err, new RegExp(`\\n\\nEvery option is explained by: rawp ${verb} --help\\n$`));
      // Not the whole help: the message stays on the screen.
      const help = rawp([verb, '--help']).out;
      assert.ok(r.err.split('\n').length <= 12 && help.split('\n').length > 12, `${r.err.split('\n').length} lines`);
      assert.equal(r.out, '', 'nothing on stdout');
    });
  }

  for (const verb of ['run', 'search', 'serve']) {
    it(`rawp ${verb} --workspace of a missing folder: one line naming the absolute path, exit 2, no usage`, () => {
      const missing = join(dir, 'not-here');
      const extra = verb === 'run' ? ['--agent', 'builtin', 'hello'] : verb === 'search' ? ['q'] : [];
      const r = rawp([verb, '--workspace', missing, ...extra]);
      assert.equal(r.code, 2, r.err);
      assert.equal(r.err, `rawp ${verb}: workspace "${missing}" is not a directory\n`);
    });
  }

  it('decision 700: a value that starts with "-" is named, with the way to give it; a token\'s is not repeated', () => {
    const r = rawp(['run', '--workspace', dir, '--agent', 'builtin', '--max-turns', '-1', 'hi']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^rawp run: --max-turns needs a value, and "-1" after it reads as an option: write --max-turns=-1 if it is the value\n/);
    const given = rawp(['run', '--workspace', dir, '--agent', 'builtin', '--max-turns=-1', 'hi']);
    assert.equal(given.err, 'rawp run: --max-turns must be a whole number from 1 to 10000\n', 'then the value itself is judged');
    const token = rawp(['attach', 'http://127.0.0.1:9', '--token', '-s3cr3t']);
    assert.equal(token.code, 2);
    assert.match(token.err, /^rawp attach: --token needs a value, and the word after it reads as an option: write --token=VALUE/);
    assert.doesNotMatch(token.err, /s3cr3t/);
    const flag = rawp(['serve', '--workspace', dir, '--allow-insecure-remote=yes']);
    assert.match(flag.err, /^rawp serve: --allow-insecure-remote takes no value\n/);
    const extra = rawp(['serve', '--workspace', dir, 'extra']);
    assert.match(extra.err, /^rawp serve: unexpected argument "extra": this verb takes options only\n/);
  });

  it('rawp attach without a URL: "rawp attach: one URL expected", its usage, exit 2', () => {
    const r = rawp(['attach']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^rawp attach: one URL expected\n\nUsage: rawp attach URL/);
  });

  it('rawp attach with an unreadable --token-file: one line, exit 2, no usage', () => {
    const r = rawp(['attach', 'http://127.0.0.1:9', '--token-file', join(dir, 'missing-token')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^rawp attach: .*missing-token/);
    assert.doesNotMatch(r.err, /Usage:/);
  });
});

describe('cli: --workspace DIR is the folder itself', () => {
  it('a workspace named through a symlink is its real folder, so an agent started there names files by the path the tools accept (the review of 2026-12-06)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-dirarg-'));
    try {
      const ws = join(dir, 'ws');
      mkdirSync(ws);
      symlinkSync(ws, join(dir, 'ws-link'));
      assert.equal(directoryArg(join(dir, 'ws-link')), realpathSync(ws));
      assert.equal(directoryArg(ws), realpathSync(ws));
      assert.equal(directoryArg(join(dir, 'missing')), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
