// Decision 587: the Node backend's `times` — the types and modification times of many paths for
// Glob's newest-first order, without reading any file (a `stat` hashes the whole file for its
// version) and with the same refusals as `stat`: nothing outside the workspace, nothing through a
// symlink.
import { strict as assert } from 'node:assert';
import { chmodSync, constants, lstatSync, mkdirSync, mkdtempSync, promises as fsp, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsError } from '../../../src/workspace/fsBackend';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';

async function rejectsCode(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof FsError && e.code === code);
}

/** Counts, while `fn` runs, every open that is not of a directory and every readFile, by path. */
async function countingReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const reads: string[] = [];
  const open = fsp.open;
  const readFile = fsp.readFile;
  fsp.open = ((path: string, flags?: number | string, mode?: number) => {
    if (typeof flags !== 'number' || (flags & constants.O_DIRECTORY) === 0) reads.push(String(path));
    return open(path, flags, mode);
  }) as typeof fsp.open;
  fsp.readFile = ((...args: Parameters<typeof fsp.readFile>) => {
    reads.push(String(args[0]));
    return readFile(...args);
  }) as typeof fsp.readFile;
  try {
    return { result: await fn(), reads };
  } finally {
    fsp.open = open;
    fsp.readFile = readFile;
  }
}

describe('workspace: NodeFsBackend times (decision 587)', () => {
  let base: string;
  let dir: string;
  let outside: string;
  let fs: NodeFsBackend;
  const p = (rel: string) => join(dir, rel);
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-times-'));
    dir = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(dir, 'a', 'deep'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    fs = new NodeFsBackend([dir]);
  });
  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('times: the same mtimes as fs.statSync for files in several folders, types for a folder and the root, in the order asked; a missing path has none', async () => {
    const rels = ['a/deep/z.txt', 'top.txt', 'a/one.txt', 'a/two.txt'];
    rels.forEach((rel, i) => {
      writeFileSync(p(rel), 'x'.repeat(i));
      utimesSync(p(rel), 1_000_000 + i * 1.5, 1_000_000 + i * 1.5); // fractional seconds too
    });
    const paths = [...rels.map(p), p('a'), p('a/gone.txt'), p('nowhere/x.txt'), 'top.txt'];
    const got = await fs.times(paths);
    assert.equal(got.length, paths.length);
    rels.forEach((rel, i) => assert.deepEqual(got[i], { type: 'file', size: statSync(p(rel)).size, mtimeMs: statSync(p(rel)).mtimeMs }, rel));
    assert.deepEqual(got[4], { type: 'directory', size: statSync(p('a')).size, mtimeMs: statSync(p('a')).mtimeMs });
    assert.equal(got[5], undefined, 'a missing file');
    assert.equal(got[6], undefined, 'a missing folder');
    assert.deepEqual(got[7], got[1], 'a relative path is taken from the first root, as by stat');
    assert.equal((await fs.stat(p('top.txt')))?.mtimeMs, got[1]?.mtimeMs, 'the time stat gives');
    assert.deepEqual(await fs.times([dir]), [{ type: 'directory', size: statSync(dir).size, mtimeMs: statSync(dir).mtimeMs }], 'the root itself, as stat takes it');
    assert.deepEqual(await fs.times([]), []);
  });

  it('security: times refuses what stat refuses — outside paths (.., absolute elsewhere, NUL) before looking at anything; through a symlinked folder no time; a symlink to outside its own time, not its target\'s', async () => {
    writeFileSync(p('in.txt'), 'x');
    for (const bad of [join(dir, '..', 'outside', 'secret.txt'), join(outside, 'secret.txt'), `${dir}-sibling/x.txt`, p('a\0b')]) {
      await rejectsCode(fs.stat(bad), 'FS_OUTSIDE_WORKSPACE');
      await rejectsCode(fs.times([p('in.txt'), bad]), 'FS_OUTSIDE_WORKSPACE');
    }
    utimesSync(join(outside, 'secret.txt'), 2_000_000, 2_000_000);
    symlinkSync(outside, p('linkdir'));
    symlinkSync(join(outside, 'secret.txt'), p('link.txt'));
    symlinkSync(outside, p('a/deep/linkdir2'));
    await rejectsCode(fs.stat(p('linkdir/secret.txt')), 'FS_OUTSIDE_WORKSPACE');
    const got = await fs.times([p('linkdir/secret.txt'), p('link.txt'), p('a/deep/linkdir2/secret.txt'), p('in.txt')]);
    assert.equal(got[0], undefined, 'never through a symlinked folder');
    assert.equal(got[2], undefined, 'nor one deeper down');
    assert.deepEqual(got[1], { type: 'symlink', size: lstatSync(p('link.txt')).size, mtimeMs: lstatSync(p('link.txt')).mtimeMs });
    assert.notEqual(got[1]?.mtimeMs, 2_000_000_000, 'the link\'s own time, never the outside file\'s');
    assert.equal((await fs.stat(p('link.txt')))?.type, 'symlink', 'as stat reports it');
    assert.equal(got[3]?.type, 'file', 'the other paths still get theirs');
    const allowed = new NodeFsBackend([dir], { allowOutsideRoots: true });
    assert.deepEqual(await allowed.times([join(outside, 'secret.txt'), p('linkdir/secret.txt')]), [{ type: 'file', size: 6, mtimeMs: 2_000_000_000 }, undefined], 'outside allowed by the settings: still no symlink on the way');
  });

  it('times never reads a file: no file opened (reads counted) where stat reads it, and a file with mode 000 gets its time', async () => {
    for (let i = 0; i < 50; i++) writeFileSync(p(`a/f${i}.txt`), 'content '.repeat(1000));
    writeFileSync(p('locked.txt'), 'no one may read this');
    chmodSync(p('locked.txt'), 0o000);
    const paths = [...Array.from({ length: 50 }, (_, i) => p(`a/f${i}.txt`)), p('locked.txt')];
    const { result, reads } = await countingReads(() => fs.times(paths));
    assert.deepEqual(reads, [], 'no file opened or read');
    assert.equal(result.length, 51);
    assert.ok(result.every((t) => t?.type === 'file'));
    assert.equal(result[50]?.mtimeMs, statSync(p('locked.txt')).mtimeMs, 'mode 000: its time all the same');
    const control = await countingReads(() => fs.stat(p('a/f0.txt')));
    assert.ok(control.reads.length > 0, 'the counting sees the read a stat makes to hash the version');
    if (process.getuid?.() !== 0) await rejectsCode(fs.stat(p('locked.txt')), 'FS_PERMISSION');
  });

  it('times: a folder that cannot be searched gives its files no time rather than failing (non-root); an abort stops it early', async function () {
    for (let i = 0; i < 200; i++) writeFileSync(p(`a/f${i}.txt`), 'x');
    writeFileSync(p('top.txt'), 'x');
    const ac = new AbortController();
    ac.abort();
    const early = await fs.times([p('top.txt'), ...Array.from({ length: 200 }, (_, i) => p(`a/f${i}.txt`))], ac.signal);
    assert.ok(early.every((t) => t === undefined), 'aborted before it began: nothing looked at');
    if (process.getuid?.() === 0) return; // root searches any folder
    chmodSync(p('a'), 0o000);
    try {
      const got = await fs.times([p('a/f1.txt'), p('top.txt')]);
      assert.equal(got[0], undefined);
      assert.equal(got[1]?.type, 'file');
    } finally {
      chmodSync(p('a'), 0o755);
    }
  });
});
