// A snapshot reads small files in this thread (FileFilter.readSync, decision 701) and the rest
// through the thread pool (FileFilter.read): both must judge every kind of entry alike — the same
// bytes kept, the same reason skipped — and readPinned must hand the results back in path order
// whichever way each was read. Real files, a real FIFO and real symlinks.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FileFilter, type Verdict } from '../../../../src/host/checkpoints/fileFilter';
import { IN_THREAD_BYTES } from '../../../../src/host/checkpoints/looseObjects';
import { readPinned } from '../../../../src/host/checkpoints/pinnedReads';
import { pinDirectory } from '../../../../src/workspace/pinnedDir';

/** A verdict with its bytes as text, so verdicts compare with deepEqual. */
function plain(v: Verdict | undefined): unknown {
  return v && 'bytes' in v ? { ...v, bytes: v.bytes.toString('latin1') } : v;
}

describe('checkpoints: small files read in this thread judge as the thread pool does (decision 701)', () => {
  let ws: string;
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'rawp-cp-sync-'));
    mkdirSync(join(ws, 'dir'));
    writeFileSync(join(ws, 'text.txt'), 'hello\nworld\n');
    writeFileSync(join(ws, 'empty.txt'), '');
    writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(ws, 'run.sh'), 0o755);
    writeFileSync(join(ws, 'nul.bin'), Buffer.from([104, 0, 105]));
    writeFileSync(join(ws, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(ws, 'edge.txt'), 'a'.repeat(IN_THREAD_BYTES));
    writeFileSync(join(ws, 'over.txt'), 'b'.repeat(IN_THREAD_BYTES + 1));
    writeFileSync(join(ws, 'huge.txt'), 'c'.repeat(3000));
    writeFileSync(join(ws, 'secret.txt'), 'outside\n');
    symlinkSync(join(ws, 'secret.txt'), join(ws, 'link.txt'));
    execFileSync('mkfifo', [join(ws, 'pipe')]);
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('§3.1.1 every kind of entry gets the same verdict both ways; a file over the bound is left to the thread pool', async () => {
    // A small size limit, so "large" is judged in this thread too.
    const filter = new FileFilter(2048);
    const dir = await pinDirectory(ws, ws);
    try {
      const expect: Record<string, unknown> = {
        'text.txt': { keep: true, bytes: 'hello\nworld\n', executable: false },
        'empty.txt': { keep: true, bytes: '', executable: false },
        'run.sh': { keep: true, bytes: '#!/bin/sh\necho hi\n', executable: true },
        'nul.bin': { keep: false, reason: 'binary' },
        'latin1.txt': { keep: false, reason: 'binary' },
        'huge.txt': { keep: false, reason: 'large' },
        'link.txt': { keep: false, reason: 'symlink' },
        pipe: { keep: false, reason: 'unreadable' },
        dir: { keep: false, reason: 'unreadable' },
        'missing.txt': { gone: true },
      };
      for (const [name, verdict] of Object.entries(expect)) {
        const abs = join(ws, name);
        assert.deepEqual(plain(filter.readSync(dir, name, abs)), verdict, `${name} in this thread`);
        assert.deepEqual(plain(await filter.read(dir, name, abs)), verdict, `${name} through the thread pool`);
      }
      const roomy = new FileFilter();
      assert.equal((roomy.readSync(dir, 'edge.txt', join(ws, 'edge.txt')) as { bytes: Buffer }).bytes.byteLength, IN_THREAD_BYTES, 'up to the bound in this thread');
      assert.equal(roomy.readSync(dir, 'over.txt', join(ws, 'over.txt')), undefined, 'one byte more: for the thread pool');
      assert.equal((await roomy.read(dir, 'over.txt', join(ws, 'over.txt')) as { bytes: Buffer }).bytes.byteLength, IN_THREAD_BYTES + 1);
    } finally {
      await dir.close();
    }
  });

  it('§3.1.1 a skipped file unchanged since is not read again, whichever way it was first judged', async () => {
    const filter = new FileFilter();
    const dir = await pinDirectory(ws, ws);
    try {
      const abs = join(ws, 'nul.bin');
      const mtime = new Date('2026-01-01T00:00:00Z'); // a whole second: utimes gives it back exactly
      utimesSync(abs, mtime, mtime);
      assert.deepEqual(filter.readSync(dir, 'nul.bin', abs), { keep: false, reason: 'binary' });
      // Text of the same size written in place (same inode) with the old time put back: the
      // remembered verdict answers, so neither way read the bytes again.
      const fd = openSync(abs, 'r+');
      writeSync(fd, 'h-i', 0);
      closeSync(fd);
      utimesSync(abs, mtime, mtime);
      assert.deepEqual(await filter.read(dir, 'nul.bin', abs), { keep: false, reason: 'binary' }, 'the thread pool read finds the verdict readSync left');
      assert.deepEqual(filter.readSync(dir, 'nul.bin', abs), { keep: false, reason: 'binary' });
      utimesSync(abs, new Date(mtime.getTime() + 5000), new Date(mtime.getTime() + 5000));
      assert.deepEqual(plain(filter.readSync(dir, 'nul.bin', abs)), { keep: true, bytes: 'h-i', executable: false }, 'a changed time: read again');
    } finally {
      await dir.close();
    }
  });

  it('§3.1.1 readPinned: results in path order across folders, small and big files mixed, over more than one chunk', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 600; i++) {
      const folder = `f${i % 7}`;
      mkdirSync(join(ws, folder), { recursive: true });
      const name = `${folder}/n${i}.txt`;
      // Every 50th file is over the bound: read through the thread pool, between the small ones.
      writeFileSync(join(ws, name), i % 50 === 0 ? `${i}\n`.padEnd(IN_THREAD_BYTES + 10, 'x') : `${i}\n`);
      paths.push(name);
    }
    paths.push('link.txt', 'missing/x.txt', 'pipe');
    const got = await readPinned(ws, paths, new FileFilter(), async (path, v) => `${path}=${'bytes' in v ? v.bytes.toString().split('\n')[0] : 'reason' in v ? v.reason : 'gone'}`);
    assert.equal(got.length, paths.length);
    paths.slice(0, 600).forEach((p, i) => assert.equal(got[i], `${p}=${basename(p).slice(1, -4)}`));
    assert.deepEqual(got.slice(600), ['link.txt=symlink', 'missing/x.txt=gone', 'pipe=unreadable']);
  });
});
