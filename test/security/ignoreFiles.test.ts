// Decision 711: a repository's ignore files cannot hold the host. Review findings F4 and F3, with
// real folders and the @ index's own listing (listFiles, by the walk and from git) in a child process
// that is killed if it does not return: a `.gitignore` linked to /dev/zero ran until killed at 6 GB
// with SIGTERM ignored, a FIFO named `.gitignore` or `.ignore` waited for a writer for good, and
// 1,600 rules of `*a…*a b` (640 KB) blocked the event loop 10.5 s at 1 GB. Now an ignore file is
// read only if it is a regular file reached without a link, only its first MiB, and the rules that
// apply to a path are bounded in number, size and wildcards; what is left out is said.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { git, gitInit, makeTmp, removeTmp, writeTree } from '../unit/workspace/tmpWorkspace';

const PROBE = resolve(__dirname, 'ignoreFilesProbe.ts');
/** Far beyond a listing of a few thousand files (about 1 s with the child's start here). */
const LIMIT_MS = 30_000;

interface Probe {
  paths: string[];
  source: 'git' | 'walk';
  ms: number;
  blockMs: number;
  warnings: string[];
  rssMB: number;
}

function list(root: string, mode: 'walk' | 'git', gitTimeoutMs?: number): Promise<Probe> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', PROBE, root, mode, ...(gitTimeoutMs ? [String(gitTimeoutMs)] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') fail(new Error(`the listing of ${root} did not return within ${LIMIT_MS} ms`));
      else if (code !== 0) fail(new Error(`the listing exited with ${code}: ${out}`));
      else done(JSON.parse(out) as Probe);
    });
  });
}

function commitAll(root: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'files');
}

const evilRules = (lines: number) => Array.from({ length: lines }, () => '*a'.repeat(200) + 'b').join('\n') + '\n';

describe('security/ignore files: a repository’s .gitignore and .ignore cannot hold the host (decision 711)', function () {
  this.timeout(LIMIT_MS * 2);
  let root: string;
  beforeEach(() => (root = makeTmp('rawp-ignore-')));
  afterEach(() => removeTmp(root));

  it('a .gitignore linked to /dev/zero (not a git work tree) is not followed: the listing returns, says so and lists the rest', async () => {
    writeTree(root, { 'sub/hello.txt': 'x\n', 'top.txt': 't\n' });
    symlinkSync('/dev/zero', join(root, 'sub', '.gitignore'));
    const r = await list(root, 'walk');
    assert.equal(r.source, 'walk');
    assert.deepEqual(r.paths, ['sub/hello.txt', 'top.txt']);
    assert.ok(r.warnings.some((w) => w.includes(join(root, 'sub', '.gitignore')) && /symbolic link/.test(w)), r.warnings.join('\n'));
    assert.ok(r.rssMB < 1024, `${Math.round(r.rssMB)} MB`);
  });

  it('a .ignore linked to /dev/zero and a FIFO named .gitignore are not read: the listing returns, their folders’ files listed', async () => {
    writeTree(root, { 'a/one.txt': '1\n', 'b/two.txt': '2\n' });
    symlinkSync('/dev/zero', join(root, 'a', '.ignore'));
    execFileSync('mkfifo', [join(root, 'b', '.gitignore')]);
    const r = await list(root, 'walk');
    assert.deepEqual(r.paths, ['a/one.txt', 'b/two.txt']);
    assert.ok(r.warnings.some((w) => w.includes(join(root, 'b', '.gitignore')) && /not a regular file/.test(w)), r.warnings.join('\n'));
  });

  it('in a git work tree, a committed .ignore that became a FIFO or a link to /dev/zero is not read (git lists it; we read .ignore ourselves)', async () => {
    gitInit(root);
    writeTree(root, { '.ignore': 'hidden.txt\n', 'hidden.txt': 'h\n', 'hello.txt': 'x\n', 'd/.ignore': 'x\n', 'd/x': 'x\n', 'd/y': 'y\n' });
    commitAll(root);
    const before = await list(root, 'git');
    assert.deepEqual(before.paths, ['.ignore', 'd/.ignore', 'd/y', 'hello.txt'], 'the committed .ignore files apply');
    rmSync(join(root, '.ignore'));
    symlinkSync('/dev/zero', join(root, '.ignore'));
    rmSync(join(root, 'd', '.ignore'));
    execFileSync('mkfifo', [join(root, 'd', '.ignore')]);
    const r = await list(root, 'git');
    assert.equal(r.source, 'git');
    // Not read, so their rules no longer hide anything (as git itself does with a linked .gitignore).
    assert.deepEqual(r.paths, ['.ignore', 'd/.ignore', 'd/x', 'd/y', 'hello.txt', 'hidden.txt']);
    assert.equal(r.warnings.length, 2, r.warnings.join('\n'));
  });

  it('in a git work tree, a FIFO named .gitignore (git waits on it for good): git is given up after its time and the walk lists the folder', async () => {
    gitInit(root);
    writeTree(root, { 'hello.txt': 'x\n', 'd/two.txt': '2\n' });
    commitAll(root);
    execFileSync('mkfifo', [join(root, '.gitignore')]);
    const r = await list(root, 'git', 2000);
    assert.equal(r.source, 'walk', 'git did not answer: the walk did');
    assert.deepEqual(r.paths, ['d/two.txt', 'hello.txt']);
    assert.ok(r.ms < 20_000, `${Math.round(r.ms)} ms`);
  });

  it('a .gitignore over 1 MiB: the rules of its first MiB apply, the later ones not, and the notice says so', async () => {
    const filler = `# ${'-'.repeat(1000)}\n`.repeat(1100); // ~1.1 MB of comments
    writeTree(root, { '.gitignore': `early.txt\n${filler}late.txt\n`, 'early.txt': 'e\n', 'late.txt': 'l\n', 'kept.txt': 'k\n' });
    const r = await list(root, 'walk');
    assert.deepEqual(r.paths, ['.gitignore', 'kept.txt', 'late.txt']);
    assert.ok(r.warnings.some((w) => /longer than 1048576 bytes/.test(w)), r.warnings.join('\n'));
  });

  it('F3: 1,600 rules of `*a…*a b` (640 KB) in a .gitignore, 2,000 files (not a git work tree): the listing answers at once, the rules before the bound still apply', async () => {
    const evilName = `${'a'.repeat(200)}b`;
    const files: Record<string, string> = { '.gitignore': `secret.key\n${evilRules(1600)}`, 'secret.key': 'k\n', [evilName]: 'its rule is past the bound\n' };
    for (let i = 0; i < 2000; i++) files[`file${i}`] = 'x\n';
    writeTree(root, files);
    const r = await list(root, 'walk');
    assert.equal(r.paths.length, 2002, 'every fileN, the .gitignore and the long name');
    assert.ok(!r.paths.includes('secret.key') && r.paths.includes(evilName));
    // Each rule has 199 loops of its own, more than the 128 the rules of a path may hold together.
    assert.ok(r.warnings.some((w) => /\.gitignore: only its first 1 rule\(s\) are used/.test(w)), r.warnings.join('\n'));
    // Before: 14.2 s and 1 GB for 200 files (the review); a loose bound here, the figures are in decision 711.
    assert.ok(r.ms < 5000, `listed in ${Math.round(r.ms)} ms`);
    assert.ok(r.blockMs < 1000, `the event loop was held ${Math.round(r.blockMs)} ms`);
  });

  it('F3: the same rules in a committed .ignore of a git work tree (200 files): answered at once', async () => {
    gitInit(root);
    const files: Record<string, string> = { '.ignore': evilRules(1600) };
    for (let i = 0; i < 200; i++) files[`file${i}`] = 'x\n';
    writeTree(root, files);
    commitAll(root);
    const r = await list(root, 'git');
    assert.equal(r.source, 'git');
    assert.equal(r.paths.length, 201);
    // Before: 10.5 s and 1 GB (the review).
    assert.ok(r.ms < 5000, `listed in ${Math.round(r.ms)} ms`);
    assert.ok(r.blockMs < 1000, `the event loop was held ${Math.round(r.blockMs)} ms`);
    assert.ok(r.rssMB < 512, `${Math.round(r.rssMB)} MB`);
  });

  it('rules spread over nested folders share one budget per path: deep .gitignore files cannot multiply the cost', async () => {
    // Each level's file alone fits its budget; together they would not.
    let dir = root;
    const rules = Array.from({ length: 600 }, (_, i) => `n${i}x`).join('\n') + '\n';
    for (let d = 0; d < 4; d++) {
      dir = join(dir, `d${d}`);
      mkdirSync(dir);
      writeFileSync(join(dir, '.gitignore'), rules + `deep${d}.txt\n`);
    }
    writeFileSync(join(dir, 'file.txt'), 'f\n');
    const r = await list(root, 'walk');
    assert.ok(r.paths.includes('d0/d1/d2/d3/file.txt'));
    assert.ok(r.warnings.some((w) => w.includes(join('d1', '.gitignore')) && /only its first/.test(w)), r.warnings.join('\n'));
  });
});
