// A process that swaps workspace files for symlinks to an outside file while checkpoints are taken
// (the adversarial review of 2026-12-06, `renameat2` swaps during turns): `git add` opened each
// file again by its path after our check, so an outside file's bytes could land in a checkpoint,
// and a rewind would write them into the workspace. A snapshot now stages the bytes it read through
// a pinned handle (decision 681). Real processes: a swapping child at full speed, the real git.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFilter } from '../../../../src/host/checkpoints/fileFilter';
import { ShadowRepo } from '../../../../src/host/checkpoints/shadowRepo';

const FILES = 40;
const MARKER = 'OUTSIDE-SECRET-7f3a';

/** Swaps each of `FILES` files between a regular file and a symlink to `secret`, by rename, until
 * killed — or after 60 s, so a test process that died without killing it leaves no spinning child. */
const SWAPPER = `
const fs = require('node:fs');
const [ws, swaps, secret, n] = process.argv.slice(1);
const until = Date.now() + 60000;
for (let k = 0; Date.now() < until; k++) {
  const i = k % Number(n);
  const name = ws + '/f' + i + '.txt';
  const tmp = swaps + '/' + i;
  try {
    if (Math.floor(k / Number(n)) % 2 === 0) fs.symlinkSync(secret, tmp); else fs.writeFileSync(tmp, 'inside ' + k + '\\n');
    fs.renameSync(tmp, name);
  } catch {}
}`;

describe('checkpoints: files swapped for symlinks while a snapshot runs (decision 681)', function () {
  this.timeout(120_000);
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  for (const swaps of ['beside', 'inside'] as const) {
  it(`§3.1.1 no checkpoint object ever holds the outside file, however the swaps fall; the snapshots succeed and keep inside text (new names made ${swaps} the workspace${swaps === 'inside' ? ': files that vanish between listing and reading' : ''})`, async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-race-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const secret = join(base, 'secret.txt');
    writeFileSync(secret, `${MARKER}\n`);
    for (let i = 0; i < FILES; i++) writeFileSync(join(ws, `f${i}.txt`), `inside ${i}\n`);
    const gitDir = join(base, 'shadow');
    const repo = new ShadowRepo(gitDir, ws, new FileFilter());
    await repo.snapshot();
    // Beside the workspace (same file system) the snapshots see only the swapped files; inside it
    // they also list new names that are gone by the time they are read (`git add` failed on those).
    const swapDir = swaps === 'inside' ? join(ws, '.swaps') : join(base, 'swaps');
    mkdirSync(swapDir);
    const child = spawn(process.execPath, ['-e', SWAPPER, ws, swapDir, secret, String(FILES)], { stdio: 'ignore' });
    const trees: string[] = [];
    let skippedLinks = 0;
    try {
      const until = Date.now() + 5_000;
      while (Date.now() < until || trees.length < 20) {
        const snap = await repo.snapshot();
        trees.push(snap.tree);
        skippedLinks += snap.skipped.filter((s) => s.reason === 'symlink').length;
      }
    } finally {
      child.kill('SIGKILL');
    }
    // Every object of the shadow repository, reachable or not.
    const env = { ...process.env, GIT_DIR: gitDir };
    const all = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { env, maxBuffer: 256 * 1024 * 1024 }).toString('latin1');
    assert.ok(!all.includes(MARKER), 'an object of the shadow repository holds the outside file');
    assert.ok(skippedLinks > 0, 'the swaps were seen: some files were links when read');
    // No tree holds a symlink (a file that was one when read is skipped), and every blob of every tree is inside text (one cat-file for all).
    const ids = new Set<string>();
    for (const tree of new Set(trees)) {
      const listing = execFileSync('git', ['ls-tree', '-r', '-z', tree], { env }).toString().split('\0').filter(Boolean);
      for (const line of listing) {
        const [mode, , id] = line.slice(0, line.indexOf('\t')).split(' ');
        assert.notEqual(mode, '120000', `a symlink was staged in tree ${tree}`);
        ids.add(id);
      }
    }
    const blobs = execFileSync('git', ['cat-file', '--batch'], { env, input: [...ids].join('\n') + '\n', maxBuffer: 256 * 1024 * 1024 }).toString();
    const bodies = blobs.split('\n').filter((_, k, a) => k > 0 && /^[0-9a-f]{40} blob /.test(a[k - 1]));
    assert.equal(bodies.length, ids.size);
    // Inside text only; a new name under .swaps may be read between its creation and its write, empty.
    for (const body of bodies) assert.match(body, swaps === 'inside' ? /^(inside \d+)?$/ : /^inside \d+$/);
    console.log(`      (${trees.length} snapshots, ${new Set(trees).size} trees, ${skippedLinks} link reads skipped)`);
  });
  }
});
