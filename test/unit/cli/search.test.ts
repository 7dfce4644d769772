// `rawp search --workspace DIR [--max N] [--ext …] [--exclude GLOB] QUERY` prints the
// session.file.candidates payload (§16.1.2) as JSON.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { payloads } from '../../../src/protocol';
import { makeTmp, removeTmp, writeTree } from '../workspace/tmpWorkspace';

async function rawp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  let stdout = '';
  let stderr = '';
  io.stdout.on('data', (c) => (stdout += c));
  io.stderr.on('data', (c) => (stderr += c));
  io.stdin.end();
  const code = await runCli(['search', ...args], io);
  return { code, stdout, stderr };
}

describe('cli/search: rawp search', () => {
  let root: string;
  beforeEach(() => {
    root = makeTmp();
    writeTree(root, {
      '.gitignore': 'dist/\n',
      'src/chat/widget.ts': 'w',
      'src/chat/widget.test.ts': '',
      'src/chat/README.md': '',
      'dist/widget.js': '',
      'docs/widgets.md': '',
    });
  });
  afterEach(() => removeTmp(root));

  it('§16.1.2 prints a valid candidates payload with ranges, scores and metadata', async () => {
    const r = await rawp(['--workspace', root, 'chtwdg']);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.ok(payloads.SessionFileCandidates.safeParse(body).success);
    assert.equal(body.candidates[0].path, 'src/chat/widget.ts');
    assert.equal(body.candidates[0].name, 'widget.ts');
    assert.equal(body.candidates[0].directory, 'src/chat');
    assert.equal(body.candidates[0].extension, '.ts');
    assert.equal(body.candidates[0].size_bytes, 1);
    assert.ok(body.candidates[0].match_ranges.length > 0);
    assert.ok(!body.candidates.some((c: { path: string }) => c.path.startsWith('dist/')), 'ignored files stay out');
    assert.equal(body.truncated, false);
  });

  it('§16.1.1 --max, --ext and --exclude map to max_results and filters', async () => {
    const max = JSON.parse((await rawp(['--workspace', root, '--max', '1', 'widget'])).stdout);
    assert.equal(max.candidates.length, 1);
    assert.equal(max.truncated, true);
    assert.ok(max.total_count >= 3);
    const ext = JSON.parse((await rawp(['--workspace', root, '--ext', '.md', 'w'])).stdout);
    assert.deepEqual(ext.candidates.map((c: { path: string }) => c.path).sort(), ['docs/widgets.md']);
    const noDot = JSON.parse((await rawp(['--workspace', root, '--ext', 'md', 'w'])).stdout);
    assert.deepEqual(noDot.candidates.map((c: { path: string }) => c.path).sort(), ['docs/widgets.md'], '--ext md is --ext .md, not nothing');
    const ex = JSON.parse((await rawp(['--workspace', root, '--exclude', '**/*.test.ts', '--exclude', 'docs/**', 'widget'])).stdout);
    assert.deepEqual(ex.candidates.map((c: { path: string }) => c.path), ['src/chat/widget.ts']);
  });

  it('§16.1.1 bad arguments get a clear error and exit code 2', async () => {
    for (const [args, pattern] of [
      [['widget'], /--workspace DIR is required/],
      [['--workspace', root, '--max', '99', 'x'], /--max must be an integer from 1 to 50/],
      [['--workspace', root + '/nope', 'x'], /is not a directory/],
      [['--workspace', root, 'a', 'b'], /one QUERY expected/],
      [['--workspace', root, '--scope', 'galaxy', 'x'], /--scope must be/],
      [['--workspace', root, '--bogus', 'x'], /bogus/],
    ] as const) {
      const r = await rawp([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, pattern);
      assert.equal(r.stdout, '');
    }
  });
});
