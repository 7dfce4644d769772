// Bad arguments are worded and numbered alike by every verb that shares src/cli/verbArgs.ts
// (run, search, serve, attach): one line `rawp VERB: what is wrong` on stderr, the verb's help after
// it when an option could not be read, exit status 2, and nothing started. Real `node dist/cli.js`
// child processes, as a user or a script meets them.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliOnce, CLI, ROOT } from '../../support/rawpRun';

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
    it(`rawp ${verb} --no-such-option: "rawp ${verb}: Unknown option", then its usage, exit 2`, () => {
      const r = rawp([verb, '--no-such-option']);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`^rawp ${verb}: Unknown option '--no-such-option'`));
      assert.match(r.err, new RegExp(`\\n\\nUsage: rawp ${verb} `), 'the help follows the message');
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
