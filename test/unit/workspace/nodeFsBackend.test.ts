import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, statSync, chmodSync, symlinkSync, mkdirSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { versionOfText } from '../../../src/workspace/fileVersion';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { FsError, type FsChange } from '../../../src/workspace/fsBackend';

async function rejectsCode(p: Promise<unknown>, code: string): Promise<FsError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof FsError, `expected FsError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

describe('workspace: NodeFsBackend', () => {
  let dir: string;
  let outside: string;
  let fs: NodeFsBackend;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-fsb-'));
    outside = mkdtempSync(join(tmpdir(), 'rawp-out-'));
    fs = new NodeFsBackend([dir]);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('read-before-write: versions change on any content change, even within one mtime tick and at equal size', async () => {
    const p = join(dir, 'a.txt');
    writeFileSync(p, 'abc');
    const v1 = (await fs.readText(p)).version;
    const st = statSync(p);
    writeFileSync(p, 'abd'); // same size
    utimesSync(p, st.atime, st.mtime); // same mtime
    const v2 = (await fs.readText(p)).version;
    assert.notEqual(v1, v2);
    assert.equal((await fs.stat(p))?.version, v2, 'stat and readText issue the same token');
    writeFileSync(p, 'abc');
    assert.equal((await fs.readText(p)).version, v1, 'same bytes, same version');
    assert.equal(versionOfText('abc'), v1, 'a dirty editor buffer can be folded in with versionOfText');
  });

  it('read-before-write: replaceIfVersion writes when unchanged and refuses FS_STALE_VERSION after an external change', async () => {
    const p = join(dir, 'a.txt');
    writeFileSync(p, 'one\n');
    const { version } = await fs.readText(p);
    const r = await fs.writeText(p, 'two\n', { kind: 'replaceIfVersion', version });
    assert.deepEqual([r.before, r.after, r.created], ['one\n', 'two\n', false]);
    assert.notEqual(r.version, version);
    writeFileSync(p, 'person typed this\n');
    await rejectsCode(fs.writeText(p, 'three\n', { kind: 'replaceIfVersion', version: r.version }), 'FS_STALE_VERSION');
    assert.equal(readFileSync(p, 'utf8'), 'person typed this\n', 'nothing was overwritten');
  });

  it('read-before-write: createIfAbsent creates (with parent directories) and refuses FS_EXISTS', async () => {
    const p = join(dir, 'new', 'deep', 'b.txt');
    const r = await fs.writeText(p, 'hi', { kind: 'createIfAbsent' });
    assert.equal(r.created, true);
    assert.equal(readFileSync(p, 'utf8'), 'hi');
    await rejectsCode(fs.writeText(p, 'again', { kind: 'createIfAbsent' }), 'FS_EXISTS');
    assert.equal(readFileSync(p, 'utf8'), 'hi');
  });

  it('read-before-write: a stale version of a deleted file is FS_STALE_VERSION; updateText of a missing file is FS_NOT_FOUND', async () => {
    const p = join(dir, 'gone.txt');
    writeFileSync(p, 'x');
    const { version } = await fs.readText(p);
    await fs.delete(p);
    await rejectsCode(fs.writeText(p, 'y', { kind: 'replaceIfVersion', version }), 'FS_STALE_VERSION');
    await rejectsCode(fs.updateText(p, { kind: 'unconditional' }, (t) => t), 'FS_NOT_FOUND');
    await rejectsCode(fs.readText(p), 'FS_NOT_FOUND');
    assert.equal(await fs.stat(p), undefined);
  });

  it('read-before-write: writes keep the file mode and leave no temp files behind', async () => {
    const p = join(dir, 'run.sh');
    writeFileSync(p, '#!/bin/sh\n');
    chmodSync(p, 0o751);
    await fs.writeText(p, '#!/bin/sh\necho hi\n', { kind: 'unconditional' });
    assert.equal(statSync(p).mode & 0o777, 0o751);
    assert.deepEqual(readdirSync(dir), ['run.sh']);
  });

  it('read-before-write: a transform that throws writes nothing', async () => {
    const p = join(dir, 'a.txt');
    writeFileSync(p, 'keep');
    await assert.rejects(
      fs.updateText(p, { kind: 'unconditional' }, () => {
        throw new FsError('no', 'FS_EDIT_NOT_FOUND');
      }),
      /no/,
    );
    assert.equal(readFileSync(p, 'utf8'), 'keep');
    assert.deepEqual(readdirSync(dir), ['a.txt']);
  });

  it('read-before-write: the CRLF style of a file is kept when LF text is written over it', async () => {
    const p = join(dir, 'win.txt');
    writeFileSync(p, 'a\r\nb\r\n');
    const r = await fs.updateText(p, { kind: 'unconditional' }, (t) => t.replace(/\r\n/g, '\n').replace('b', 'c'));
    assert.equal(readFileSync(p, 'utf8'), 'a\r\nc\r\n');
    assert.equal(r.after, 'a\r\nc\r\n');
  });

  it('read-before-write: a whole-file write keeps the CRLF style read off the old bytes, and a mostly-LF file stays LF', async () => {
    const win = join(dir, 'win.txt');
    writeFileSync(win, 'a\r\nb\r\nc\n');
    await fs.writeText(win, 'x\ny\n', { kind: 'unconditional' });
    assert.equal(readFileSync(win, 'utf8'), 'x\r\ny\r\n');
    const unix = join(dir, 'unix.txt');
    writeFileSync(unix, 'a\r\nb\nc\n');
    await fs.writeText(unix, 'x\r\ny\n', { kind: 'unconditional' });
    assert.equal(readFileSync(unix, 'utf8'), 'x\ny\n');
  });

  it('read-before-write: a whole-file write returns the bytes it read and wrote; its `before` is the old text, decoded when read, and refuses once the bytes were moved', async () => {
    const p = join(dir, 'old.txt');
    writeFileSync(p, 'héllo\nworld\n');
    const r = await fs.writeText(p, 'bye\n', { kind: 'unconditional' });
    assert.equal(Buffer.from(r.utf8!.before).toString('utf8'), 'héllo\nworld\n');
    assert.equal(Buffer.from(r.utf8!.after).toString('utf8'), 'bye\n');
    assert.equal(r.before, 'héllo\nworld\n');
    assert.equal(r.before, 'héllo\nworld\n', 'read twice, the same text');
    assert.equal(r.after, 'bye\n');
    // Moved to a worker (the transfer detaches the buffer): `before` must not quietly become ''.
    writeFileSync(p, 'one\n');
    const moved = await fs.writeText(p, 'two\n', { kind: 'unconditional' });
    const old = moved.utf8!.before;
    assert.ok(old.byteOffset === 0 && old.byteLength === old.buffer.byteLength, 'the bytes own their buffer (what the worker client moves)');
    structuredClone(old, { transfer: [old.buffer as ArrayBuffer] });
    assert.throws(() => moved.before, /moved to a worker/);
    // A created file has nothing before it.
    const created = await fs.writeText(join(dir, 'new.txt'), 'n\n', { kind: 'createIfAbsent' });
    assert.equal(created.before, '');
    assert.equal(created.utf8!.before.byteLength, 0);
  });

  it('read-before-write: the per-path critical section serializes guard check, transform and write', async () => {
    const p = join(dir, 'count.txt');
    writeFileSync(p, '0');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fs.updateText(p, { kind: 'unconditional' }, (t) => String(Number(t) + 1)),
      ),
    );
    assert.equal(readFileSync(p, 'utf8'), '20', 'no lost update');
    // Two writers holding the same version: exactly one wins.
    const { version } = await fs.readText(p);
    const results = await Promise.allSettled([
      fs.writeText(p, 'A', { kind: 'replaceIfVersion', version }),
      fs.writeText(p, 'B', { kind: 'replaceIfVersion', version }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal((failed.reason as FsError).code, 'FS_STALE_VERSION');
  });

  it('read-before-write: the wrong place is refused — paths outside the workspace: .., absolute elsewhere, symlinks', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    await rejectsCode(fs.readText(join(dir, '..', 'x.txt')), 'FS_OUTSIDE_WORKSPACE');
    await rejectsCode(fs.readText(join(outside, 'secret.txt')), 'FS_OUTSIDE_WORKSPACE');
    await rejectsCode(fs.writeText(join(outside, 'new.txt'), 'x', { kind: 'unconditional' }), 'FS_OUTSIDE_WORKSPACE');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    symlinkSync(outside, join(dir, 'linkdir'));
    await rejectsCode(fs.readText(join(dir, 'link.txt')), 'FS_OUTSIDE_WORKSPACE');
    await rejectsCode(fs.readText(join(dir, 'linkdir', 'secret.txt')), 'FS_OUTSIDE_WORKSPACE');
    await rejectsCode(fs.writeText(join(dir, 'linkdir', 'evil.txt'), 'x', { kind: 'unconditional' }), 'FS_OUTSIDE_WORKSPACE');
    await rejectsCode(fs.writeText(join(dir, 'link.txt'), 'x', { kind: 'unconditional' }), 'FS_OUTSIDE_WORKSPACE');
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret');
    assert.deepEqual(readdirSync(outside), ['secret.txt']);
    assert.equal((await fs.stat(join(dir, 'link.txt')))?.type, 'symlink', 'stat reports links without following');
    const allowed = new NodeFsBackend([dir], { allowOutsideRoots: true });
    assert.equal((await allowed.readText(join(outside, 'secret.txt'))).text, 'secret');
  });

  it('read-before-write: list, directories and FS_IS_DIRECTORY', async () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'b.txt'), '');
    assert.deepEqual(await fs.list(dir), [
      { name: 'b.txt', type: 'file' },
      { name: 'sub', type: 'directory' },
    ]);
    await rejectsCode(fs.readText(join(dir, 'sub')), 'FS_IS_DIRECTORY');
    await rejectsCode(fs.writeText(join(dir, 'sub'), 'x', { kind: 'unconditional' }), 'FS_IS_DIRECTORY');
    await rejectsCode(fs.list(join(dir, 'nope')), 'FS_NOT_FOUND');
  });

  it('read-before-write: watch reports creations, changes and deletions under the roots', async () => {
    const seen: FsChange[] = [];
    let wake: () => void = () => undefined;
    const sub = fs.watch((changes) => {
      seen.push(...changes);
      wake();
    });
    // Bounded: the watcher's own wake-up, or 250 ms, then `again` (if any) and look once more.
    const until = async (pred: () => boolean, what: string, again?: () => void) => {
      const deadline = Date.now() + 15_000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`gave up waiting for the watch to report ${what}: ${JSON.stringify(seen)}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 250);
        });
        if (!pred()) again?.();
      }
    };
    try {
      const p = join(dir, 'w.txt');
      // Node's recursive watch on Linux sets up its watches asynchronously, so a write made too soon
      // can go unseen: write again (bounded) until the watch reports the file.
      let writes = 0;
      const write = () => writeFileSync(p, String(++writes));
      write();
      await until(() => seen.some((c) => c.path === p && c.kind !== 'deleted'), 'the write', write);
      rmSync(p);
      await until(() => seen.some((c) => c.path === p && c.kind === 'deleted'), 'the deletion');
    } finally {
      sub.dispose();
    }
    assert.ok(seen.length >= 2);
  });
});

describe('workspace: NodeFsBackend error codes', () => {
  let dir: string;
  let fs: NodeFsBackend;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-fsb-codes-'));
    fs = new NodeFsBackend([dir]);
  });
  afterEach(() => {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('read-before-write: an I/O failure is FS_IO with the cause (a name too long for the file system)', async () => {
    await rejectsCode(fs.writeText(join(dir, 'x'.repeat(300)), 'x', { kind: 'createIfAbsent' }), 'FS_IO');
    await rejectsCode(fs.readText(join(dir, 'y'.repeat(300))), 'FS_IO');
  });

  it('read-before-write: a denied write is FS_PERMISSION and leaves the file as it was', async function () {
    if (process.getuid?.() === 0) {
      // root ignores mode bits; sysfs still refuses to create files, with EACCES
      await rejectsCode(new NodeFsBackend(['/sys'], {}).writeText('/sys/rawp-probe.txt', 'x', { kind: 'createIfAbsent' }), 'FS_PERMISSION');
      return;
    }
    const p = join(dir, 'locked.txt');
    writeFileSync(p, 'keep');
    chmodSync(dir, 0o555);
    await rejectsCode(fs.writeText(p, 'x', { kind: 'unconditional' }), 'FS_PERMISSION');
    assert.equal(readFileSync(p, 'utf8'), 'keep');
  });
});

describe('workspace: NodeFsBackend stat versions', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-fsb-stat-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('read-before-write: stat versions stay exact for a recently written file (no stale cache within one tick)', async () => {
    const fs = new NodeFsBackend([dir]);
    const p = join(dir, 'hot.txt');
    writeFileSync(p, 'aaaa');
    const v1 = (await fs.stat(p))!.version;
    const before = statSync(p);
    writeFileSync(p, 'bbbb');
    utimesSync(p, before.atime, before.mtime);
    const v2 = (await fs.stat(p))!.version;
    assert.notEqual(v1, v2, 'recently written: hashed again, not served from the cache');
    assert.equal(v2, (await fs.readText(p)).version);
  });

  it('read-before-write: a content change is seen by stat even when the mtime is set back', async () => {
    const fs = new NodeFsBackend([dir]);
    const p = join(dir, 'cold.txt');
    writeFileSync(p, 'old content');
    const old = new Date(Date.now() - 60_000);
    utimesSync(p, old, old);
    // ctime cannot be set back, so this file counts as recently changed on the first stat; the
    // point here is that a later content change (new ctime) is always seen.
    const v1 = (await fs.stat(p))!.version;
    assert.equal((await fs.stat(p))!.version, v1);
    writeFileSync(p, 'new content');
    utimesSync(p, old, old);
    const v2 = (await fs.stat(p))!.version;
    assert.notEqual(v1, v2);
    assert.equal(v2, (await fs.readText(p)).version);
  });
});
