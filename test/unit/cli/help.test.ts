// Every `rawp` verb answers `--help` with its usage, and the verb list names them all.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { runCli, usage } from '../../../src/cli/main';
import { verbs } from '../../../src/cli/verbs';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const code = await runCli(argv, { stdin: new PassThrough(), stdout, stderr });
  return { code, out, err };
}

describe('cli: rawp --help and every verb --help', () => {
  it('rawp --help lists every verb with its summary', async () => {
    const { code, out } = await run(['--help']);
    assert.equal(code, 0);
    assert.ok(verbs.length >= 3, 'validate, convert, search at least');
    for (const v of verbs) assert.match(out, new RegExp(`^  ${v.name}\\s+${v.summary.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
    assert.equal(out.trim(), usage().trim());
  });

  for (const v of verbs) {
    it(`rawp ${v.name} --help prints its usage and exits 0 without running`, async () => {
      const { code, out, err } = await run([v.name, '--help']);
      assert.equal(code, 0, err);
      assert.match(out, new RegExp(`^Usage: rawp ${v.name}\\b`));
      assert.ok(out.split('\n').length >= 2, 'more than a single line of help');
    });
  }

  it('an unknown verb is a usage error (exit 2) that names it and lists the verbs', async () => {
    const { code, err } = await run(['frobnicate']);
    assert.equal(code, 2);
    assert.match(err, /unknown verb "frobnicate"/);
    assert.match(err, /Verbs:/);
  });

  it('no verb at all prints the usage with exit 2', async () => {
    const { code, out } = await run([]);
    assert.equal(code, 2);
    assert.match(out, /^Usage: rawp <verb>/);
  });
});
