// ONE contract for every FsBackend (issue 13): the Node backend (`rawp serve`, mocha:
// test/unit/workspace/fsBackendContract.test.ts) and the VS Code backend over `file:` and over an
// extension's in-memory file system (inside code-server: test/vscode/suite/fsBackendContract.test.ts)
// run these same tests, so versions stay content-addressed and the ledger's verdicts are the same.
// Mocha's BDD globals (describe/it) are used, so the file runs in both mochas.
import assert from 'node:assert/strict';
import type { FsBackend } from '../../../src/workspace/fsBackend';
import { ObservationPolicy } from '../../../src/tools/ledger/policy';
import type { FsTarget } from '../../../src/tools/fsEvents';
import { versionOfBytes } from '../../../src/workspace/fileVersion';
import { SLICE_BYTES } from '../../../src/workspace/bytesInTurns';

export interface ContractFixture {
  fs: FsBackend;
  /** Changes behind the backend's back: a person, another program, the file system provider. */
  outside: {
    write(rel: string, content: string | Uint8Array): Promise<void>;
    read(rel: string): Promise<Uint8Array | undefined>;
    remove(rel: string): Promise<void>;
    /** A symlink at `rel` to a file (`secret.txt`) or a folder (holding `secret.txt`) outside the folder. */
    symlinkOut?(rel: string, to: 'file' | 'dir'): Promise<void>;
  };
  dispose(): Promise<void>;
}

/** By name and code: the backend may come from another bundle (the extension's). */
const fsCode = (code: string) => (e: unknown) => (e as { name?: string }).name === 'FsError' && (e as { code?: string }).code === code;
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));

export interface ContractOptions {
  /** The file system has symlinks (file: folders): the symlink refusals are checked. */
  symlinks: boolean;
}

export function fsBackendContract(name: string, make: () => Promise<ContractFixture>, options: ContractOptions): void {
  describe(`FsBackend contract: ${name}`, function () {
    this.timeout(30_000);
    let fx: ContractFixture;
    let root: string;
    const at = (rel: string) => `${root}/${rel}`;
    beforeEach(async () => {
      fx = await make();
      root = fx.fs.roots[0];
    });
    afterEach(async () => fx.dispose());

    it('read-before-write (decision 595): another program writing the file while the edit is made — the edit is refused (FS_STALE_VERSION) and that program\'s bytes stay', async () => {
      await fx.outside.write('log.txt', 'TOKEN0\n');
      const { version } = await fx.fs.readText(at('log.txt'));
      await assert.rejects(
        fx.fs.updateText(at('log.txt'), { kind: 'replaceIfVersion', version }, async (t) => {
          await fx.outside.write('log.txt', 'TOKEN0\nAPPENDED by another program\n');
          return t.replace('TOKEN0', 'TOKEN1');
        }),
        fsCode('FS_STALE_VERSION'),
      );
      assert.equal(text(await fx.outside.read('log.txt')), 'TOKEN0\nAPPENDED by another program\n');
    });

    it('read-before-write: versions are content-addressed — same bytes same version, other bytes another, whoever wrote them', async () => {
      await fx.outside.write('a.txt', 'one\n');
      const v1 = (await fx.fs.readText(at('a.txt'))).version;
      assert.equal((await fx.fs.stat(at('a.txt')))?.version, v1);
      await fx.outside.write('b.txt', 'one\n');
      assert.equal((await fx.fs.readText(at('b.txt'))).version, v1, 'identical bytes in another file: identical version');
      await fx.outside.write('a.txt', 'two\n');
      const v2 = (await fx.fs.readText(at('a.txt'))).version;
      assert.notEqual(v2, v1);
      assert.equal((await fx.fs.stat(at('a.txt')))?.version, v2, 'stat sees the change at once (no stale cached version)');
      const w = await fx.fs.writeText(at('a.txt'), 'one\n', { kind: 'replaceIfVersion', version: v2 });
      assert.equal(w.version, v1, 'our own write of the same bytes: the same version again');
    });

    it('read-before-write: the ledger — an unread edit is FS_NOT_OBSERVED, an edit after an outside change FS_STALE_VERSION, a fresh one succeeds', async () => {
      const policy = new ObservationPolicy();
      await fx.outside.write('src/main.ts', 'const x = 1;\n');
      const target: FsTarget = { targetKey: at('src/main.ts'), displayPath: 'src/main.ts' };
      assert.throws(() => policy.editIntent(target, 'agent'), fsCode('FS_NOT_OBSERVED'));
      const read = await fx.fs.readText(target.targetKey);
      policy.observed(target, 'agent', { kind: 'present', version: read.version });
      await fx.outside.write('src/main.ts', 'const x = 2;\n');
      await assert.rejects(() => fx.fs.updateText(target.targetKey, policy.editIntent(target, 'agent'), (t) => t.replace('x', 'y')), fsCode('FS_STALE_VERSION'));
      assert.equal(text(await fx.outside.read('src/main.ts')), 'const x = 2;\n', 'the refused edit wrote nothing');
      const again = await fx.fs.readText(target.targetKey);
      policy.observed(target, 'agent', { kind: 'present', version: again.version });
      const r = await fx.fs.updateText(target.targetKey, policy.editIntent(target, 'agent'), (t) => t.replace('x', 'y'));
      assert.deepEqual([r.before, r.after, r.created], ['const x = 2;\n', 'const y = 2;\n', false]);
      assert.equal(text(await fx.outside.read('src/main.ts')), 'const y = 2;\n');
      assert.equal((await fx.fs.readText(target.targetKey)).version, r.version);
    });

    it('read-before-write: a write over a file nobody read is FS_EXISTS; a new file is created with its folders', async () => {
      const policy = new ObservationPolicy();
      await fx.outside.write('exists.txt', 'theirs\n');
      const t: FsTarget = { targetKey: at('exists.txt'), displayPath: 'exists.txt' };
      await assert.rejects(() => fx.fs.writeText(t.targetKey, 'mine\n', policy.writeIntent(t, 'agent')), fsCode('FS_EXISTS'));
      assert.equal(text(await fx.outside.read('exists.txt')), 'theirs\n');
      const n: FsTarget = { targetKey: at('new/deep/file.txt'), displayPath: 'new/deep/file.txt' };
      const r = await fx.fs.writeText(n.targetKey, 'fresh\n', policy.writeIntent(n, 'agent'));
      assert.equal(r.created, true);
      assert.equal(text(await fx.outside.read('new/deep/file.txt')), 'fresh\n');
      assert.equal((await fx.fs.stat(at('new/deep')))?.type, 'directory');
    });

    it('read-before-write: a file deleted since it was read is FS_STALE_VERSION; a missing file is FS_NOT_FOUND for reads, edits and deletes', async () => {
      await fx.outside.write('gone.txt', 'x\n');
      const v = (await fx.fs.readText(at('gone.txt'))).version;
      await fx.outside.remove('gone.txt');
      await assert.rejects(() => fx.fs.writeText(at('gone.txt'), 'y\n', { kind: 'replaceIfVersion', version: v }), fsCode('FS_STALE_VERSION'));
      assert.equal(await fx.outside.read('gone.txt'), undefined, 'nothing was recreated');
      await assert.rejects(() => fx.fs.readText(at('gone.txt')), fsCode('FS_NOT_FOUND'));
      await assert.rejects(() => fx.fs.updateText(at('gone.txt'), { kind: 'unconditional' }, (t) => t), fsCode('FS_NOT_FOUND'));
      await assert.rejects(() => fx.fs.delete(at('gone.txt')), fsCode('FS_NOT_FOUND'));
      assert.equal(await fx.fs.stat(at('gone.txt')), undefined);
      assert.equal(await fx.fs.stat(at('no/such/dir/file.txt')), undefined);
    });

    it('list, stat and delete: sorted entries with their types; a directory is FS_IS_DIRECTORY for reads and writes', async () => {
      await fx.outside.write('dir/b.txt', 'b');
      await fx.outside.write('dir/a.txt', 'a');
      await fx.outside.write('dir/sub/c.txt', 'c');
      assert.deepEqual(await fx.fs.list(at('dir')), [
        { name: 'a.txt', type: 'file' },
        { name: 'b.txt', type: 'file' },
        { name: 'sub', type: 'directory' },
      ]);
      const st = await fx.fs.stat(at('dir/a.txt'));
      assert.equal(st?.type, 'file');
      assert.equal(st?.size, 1);
      assert.ok(st && st.mtimeMs > 0);
      await assert.rejects(() => fx.fs.readText(at('dir')), fsCode('FS_IS_DIRECTORY'));
      await assert.rejects(() => fx.fs.writeText(at('dir/sub'), 'x', { kind: 'unconditional' }), fsCode('FS_IS_DIRECTORY'));
      await fx.fs.delete(at('dir/a.txt'));
      assert.equal(await fx.outside.read('dir/a.txt'), undefined);
      assert.deepEqual((await fx.fs.list(at('dir'))).map((e) => e.name), ['b.txt', 'sub']);
    });

    it('times (decision 587): each path\'s type, size and the mtime stat gives, in the order asked; none for a missing path; an outside path is FS_OUTSIDE_WORKSPACE', async () => {
      assert.ok(fx.fs.times, 'both backends give times');
      await fx.outside.write('t/a.txt', 'a');
      await fx.outside.write('t/sub/b.txt', 'bb');
      const got = await fx.fs.times([at('t/sub/b.txt'), at('t/gone.txt'), at('t/a.txt'), at('t/sub'), at('no/such/x.txt')]);
      assert.deepEqual(got[0], { type: 'file', size: 2, mtimeMs: (await fx.fs.stat(at('t/sub/b.txt')))!.mtimeMs });
      assert.equal(got[1], undefined);
      assert.deepEqual(got[2], { type: 'file', size: 1, mtimeMs: (await fx.fs.stat(at('t/a.txt')))!.mtimeMs });
      assert.equal(got[3]?.type, 'directory');
      assert.equal(got[4], undefined);
      await assert.rejects(() => fx.fs.times!([at('t/a.txt'), `${root}/../escape.txt`]), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.times!([`${root}/a\0b`]), fsCode('FS_OUTSIDE_WORKSPACE'));
    });

    it('security: paths outside the folder are FS_OUTSIDE_WORKSPACE (.., absolute elsewhere, NUL)', async () => {
      await assert.rejects(() => fx.fs.readText(`${root}/../escape.txt`), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.writeText(`${root}-sibling/x.txt`, 'x', { kind: 'unconditional' }), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.stat(`${root}/a\0b`), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.list('/'), fsCode('FS_OUTSIDE_WORKSPACE'));
    });

    it('security (issue 12 finding 6, decision 608): a read marks a file that is not UTF-8; an edit or write over it is FS_NOT_TEXT and its bytes stay', async () => {
      const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
      await fx.outside.write('latin1.txt', latin1);
      const read = await fx.fs.readText(at('latin1.txt'));
      await assert.rejects(() => fx.fs.updateText(at('latin1.txt'), { kind: 'replaceIfVersion', version: read.version }, (t) => t + 'x'), fsCode('FS_NOT_TEXT'));
      await assert.rejects(() => fx.fs.writeText(at('latin1.txt'), 'new\n', { kind: 'replaceIfVersion', version: read.version }), fsCode('FS_NOT_TEXT'));
      assert.deepEqual([...((await fx.outside.read('latin1.txt')) ?? [])], [...latin1]);
      assert.equal(read.version, (await fx.fs.stat(at('latin1.txt')))?.version, 'the version is still of the bytes');
      assert.equal(read.notUtf8, true, 'the read says the bytes are not UTF-8 (decision 608)');
      await fx.outside.write('fffd.txt', new TextEncoder().encode('kept \ufffd\n'));
      assert.equal((await fx.fs.readText(at('fffd.txt'))).notUtf8, undefined, 'U+FFFD written as UTF-8 is text');
    });

    it('security (decision 602): an edit or write over a UTF-8 file holding a NUL byte (one Read calls binary) is FS_NOT_TEXT and its bytes stay', async () => {
      const bytes = Uint8Array.from([...new TextEncoder().encode('SQLite format 3'), 0, 0x10, 0x00, 0x01, ...new TextEncoder().encode('\nname = café\n')]);
      await fx.outside.write('page.db', bytes);
      const read = await fx.fs.readText(at('page.db'));
      const refused = (e: unknown) => fsCode('FS_NOT_TEXT')(e) && /binary file \(it holds NUL bytes\)/.test((e as Error).message);
      await assert.rejects(() => fx.fs.updateText(at('page.db'), { kind: 'replaceIfVersion', version: read.version }, (t) => t.replace('café', 'cafe')), refused);
      await assert.rejects(() => fx.fs.writeText(at('page.db'), 'name = cafe\n', { kind: 'replaceIfVersion', version: read.version }), refused);
      assert.deepEqual([...((await fx.outside.read('page.db')) ?? [])], [...bytes]);
      // A checkpoint's exact restore still puts bytes back wholesale.
      await fx.fs.writeText(at('page.db'), 'restored\n', { kind: 'unconditional' }, { exact: true });
      assert.equal(text(await fx.outside.read('page.db')), 'restored\n');
    });

    it('line endings and BOM: text written over a CRLF file stays CRLF; a BOM is kept by an edit and by a whole-file write', async () => {
      await fx.outside.write('crlf.txt', 'a\r\nb\r\n');
      const read = await fx.fs.readText(at('crlf.txt'));
      await fx.fs.writeText(at('crlf.txt'), 'a\nb\nc\n', { kind: 'replaceIfVersion', version: read.version });
      assert.equal(text(await fx.outside.read('crlf.txt')), 'a\r\nb\r\nc\r\n');
      await fx.outside.write('bom.txt', '\ufeffhello\n');
      const bom = await fx.fs.readText(at('bom.txt'));
      assert.equal(bom.text, '\ufeffhello\n');
      const edited = await fx.fs.updateText(at('bom.txt'), { kind: 'replaceIfVersion', version: bom.version }, (t) => t.replace('hello', 'bye'));
      assert.deepEqual([...((await fx.outside.read('bom.txt')) ?? [])].slice(0, 3), [0xef, 0xbb, 0xbf]);
      // A whole-file write keeps it too (it was dropped: Excel's CSV, PowerShell read the encoding from it).
      await fx.fs.writeText(at('bom.txt'), 'replaced\n', { kind: 'replaceIfVersion', version: edited.version });
      assert.equal(text(await fx.outside.read('bom.txt')), '\ufeffreplaced\n');
      const exact = await fx.fs.readText(at('bom.txt'));
      await fx.fs.writeText(at('bom.txt'), 'restored\n', { kind: 'replaceIfVersion', version: exact.version }, { exact: true });
      assert.equal(text(await fx.outside.read('bom.txt')), 'restored\n', 'an exact write (a restore) puts back the very text');
    });

    it('checkpoint restore (issue 17): an exact write puts back the very text — LF over a CRLF file stays LF, and it may replace a file that is not UTF-8', async () => {
      await fx.outside.write('exact.txt', 'a\r\nb\r\n');
      const read = await fx.fs.readText(at('exact.txt'));
      const res = await fx.fs.writeText(at('exact.txt'), 'a\nb\n', { kind: 'replaceIfVersion', version: read.version }, { exact: true });
      assert.equal(text(await fx.outside.read('exact.txt')), 'a\nb\n');
      assert.equal(res.version, (await fx.fs.stat(at('exact.txt')))?.version);
      await fx.outside.write('latin1-exact.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      const latin = await fx.fs.readText(at('latin1-exact.txt'));
      await fx.fs.writeText(at('latin1-exact.txt'), 'café\n', { kind: 'replaceIfVersion', version: latin.version }, { exact: true });
      assert.equal(text(await fx.outside.read('latin1-exact.txt')), 'café\n');
      // The guard still holds: an exact write from a stale read is refused.
      await assert.rejects(() => fx.fs.writeText(at('exact.txt'), 'stale\n', { kind: 'replaceIfVersion', version: read.version }, { exact: true }), fsCode('FS_STALE_VERSION'));
    });

    it('read-before-write (decision 490): a file bigger than a hashing slice, hashed in turns, has the version of its bytes hashed at once — by read, stat, update and write', async () => {
      const line = 'export const value = "한국어 and ASCII";\n';
      const big = line.repeat(Math.ceil((3 * SLICE_BYTES) / Buffer.byteLength(line)));
      const bytes = Buffer.from(big, 'utf8');
      assert.ok(bytes.byteLength > 2 * SLICE_BYTES, 'the fixture spans several slices');
      await fx.outside.write('big.ts', bytes);
      const read = await fx.fs.readText(at('big.ts'));
      assert.equal(read.text, big);
      assert.equal(read.version, versionOfBytes(bytes), 'read: the one-shot hash of the same bytes');
      assert.equal((await fx.fs.stat(at('big.ts')))?.version, read.version, 'stat: the same');
      const updated = await fx.fs.updateText(at('big.ts'), { kind: 'replaceIfVersion', version: read.version }, (t) => t.replace('value', 'renamed'));
      const after = Buffer.from(big.replace('value', 'renamed'), 'utf8');
      assert.deepEqual(Buffer.from((await fx.outside.read('big.ts')) ?? []), after);
      assert.equal(updated.version, versionOfBytes(after), 'update: the version of the bytes written');
      assert.equal((await fx.fs.stat(at('big.ts')))?.version, updated.version);
      const written = await fx.fs.writeText(at('big.ts'), big, { kind: 'replaceIfVersion', version: updated.version });
      assert.equal(written.version, read.version, 'write of the first bytes again: the first version again');
      await assert.rejects(() => fx.fs.writeText(at('big.ts'), 'x', { kind: 'replaceIfVersion', version: updated.version }), fsCode('FS_STALE_VERSION'));
    });

    it('read-before-write (decision 535): reads and stats while our own write of a big file is under way see the old bytes or the new, never a torn file', async () => {
      const texts = ['old line of the file\n'.repeat(150_000), 'new line, longer than the old one\n'.repeat(150_000)];
      const versions = texts.map((t) => versionOfBytes(Buffer.from(t, 'utf8')));
      await fx.outside.write('torn.txt', texts[0]);
      const torn: string[] = [];
      let reads = 0;
      for (let round = 0; round < 4; round++) {
        const before = (await fx.fs.readText(at('torn.txt'))).version;
        let done = false;
        const write = fx.fs.writeText(at('torn.txt'), texts[(round + 1) % 2], { kind: 'replaceIfVersion', version: before }).finally(() => (done = true));
        while (!done) {
          const [read, st] = await Promise.all([fx.fs.readText(at('torn.txt')), fx.fs.stat(at('torn.txt'))]);
          reads++;
          if (!texts.includes(read.text) || !versions.includes(read.version)) torn.push(`read: ${read.text.length} characters`);
          if (!versions.includes(st!.version)) torn.push(`stat: ${st!.size} bytes`);
        }
        assert.equal((await write).version, versions[(round + 1) % 2]);
      }
      assert.ok(reads >= 4, 'reads ran beside every write');
      assert.deepEqual(torn, []);
    });

    if (!options.symlinks) return;
    it('security: a symlink to outside the folder is never read, written or deleted through (FS_OUTSIDE_WORKSPACE)', async () => {
      await fx.outside.symlinkOut!('link.txt', 'file');
      await fx.outside.symlinkOut!('linkdir/inner', 'dir');
      assert.equal((await fx.fs.stat(at('link.txt')))?.type, 'symlink');
      await assert.rejects(() => fx.fs.readText(at('link.txt')), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.writeText(at('link.txt'), 'x', { kind: 'unconditional' }), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.delete(at('link.txt')), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.readText(at('linkdir/inner/secret.txt')), fsCode('FS_OUTSIDE_WORKSPACE'));
      await assert.rejects(() => fx.fs.writeText(at('linkdir/inner/new.txt'), 'x', { kind: 'unconditional' }), fsCode('FS_OUTSIDE_WORKSPACE'));
      assert.equal((await fx.fs.list(at('.'))).find((e) => e.name === 'link.txt')?.type, 'symlink');
      // times (decision 587): nothing through the folder link; the file link is not followed (its
      // own time where the backend can read it without following, else none).
      const [inner, link] = await fx.fs.times!([at('linkdir/inner/secret.txt'), at('link.txt')]);
      assert.equal(inner, undefined);
      assert.ok(link === undefined || link.type === 'symlink', `the link, not its target: ${JSON.stringify(link)}`);
    });
  });
}
