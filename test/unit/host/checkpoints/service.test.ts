// The checkpoint service on a real workspace with the real git binary (issue 17 item 1): the
// workspace's ignore files are honoured, .gitattributes cannot change a file's bytes, nested
// repositories (with and without commits) are checkpointed in shadow repositories of their own,
// large and binary files are skipped with a note, renames are detected, inherited GIT_* variables
// never reach the user's repository, and a restore puts back the very bytes.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';
import { byPath, fileHash, initUserRepo, sha256, userGit, userRepoFingerprint } from './support';

const sha = (text: string) => sha256(text);

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoint service: shadow repositories (issue 17)', function () {
  this.timeout(60_000);
  let base: string;
  const savedEnv = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
    rmSync(base, { recursive: true, force: true });
  });

  it('§3.1.1 ignore files, .gitattributes, nested repositories, large/binary notes, renames, inherited GIT_DIR: exactly the changed files, and the bytes back', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-'));
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, '.gitignore'), 'ignored.log\n');
    writeFileSync(join(ws, '.gitattributes'), '* text=auto eol=lf\n*.txt filter=evil\n');
    writeFileSync(join(ws, 'crlf.txt'), 'one\r\ntwo\r\n');
    writeFileSync(join(ws, 'src', 'old-name.ts'), 'export const stays = "the same content, long enough to be a rename";\n');
    writeFileSync(join(ws, 'ignored.log'), 'noise\n');
    writeFileSync(join(ws, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    initUserRepo(ws);
    // A nested repository with a commit, and one without (git add -A would fail on it).
    mkdirSync(join(ws, 'vendor', 'lib'), { recursive: true });
    writeFileSync(join(ws, 'vendor', 'lib', 'a.js'), 'module.exports = 1;\n');
    initUserRepo(join(ws, 'vendor', 'lib'));
    mkdirSync(join(ws, 'scratch'));
    userGit(join(ws, 'scratch'), 'init', '-q');
    const fingerprints = () => [userRepoFingerprint(ws), userRepoFingerprint(join(ws, 'vendor', 'lib'))];
    const before = fingerprints();
    // A terminal or hook would leave these behind: they must not point our git at the user's repository.
    process.env.GIT_DIR = join(ws, '.git');
    process.env.GIT_INDEX_FILE = join(ws, '.git', 'index');
    process.env.GIT_WORK_TREE = ws;
    // The user's global ignore file (git's default place) is honoured too.
    process.env.XDG_CONFIG_HOME = join(base, 'xdg');
    mkdirSync(join(base, 'xdg', 'git'), { recursive: true });
    writeFileSync(join(base, 'xdg', 'git', 'ignore'), '*.swp\n');

    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent, maxFileBytes: 1000 });
    const hashes = { crlf: fileHash(join(ws, 'crlf.txt')), a: fileHash(join(ws, 'vendor', 'lib', 'a.js')) };
    await svc.beforeTurn('s1', 't1');
    // The "agent" (any process): edits, creates in both nested repositories, renames, skips.
    writeFileSync(join(ws, 'crlf.txt'), 'one\r\nTWO\r\n');
    writeFileSync(join(ws, 'vendor', 'lib', 'a.js'), 'module.exports = 2;\n');
    writeFileSync(join(ws, 'scratch', 'new.txt'), 'fresh\n');
    renameSync(join(ws, 'src', 'old-name.ts'), join(ws, 'src', 'new-name.ts'));
    writeFileSync(join(ws, 'ignored.log'), 'more noise\n');
    writeFileSync(join(ws, '.crlf.txt.swp'), 'editor swap file\n');
    writeFileSync(join(ws, 'big.txt'), 'x'.repeat(5000));
    writeFileSync(join(ws, 'blob.dat'), Buffer.from([0, 0, 0, 1]));
    const rec = await svc.afterTurn('s1', 't1');
    assert.ok(rec);
    assert.deepEqual(byPath(rec.files), ['created scratch/new.txt', 'modified crlf.txt', 'modified vendor/lib/a.js', 'renamed src/new-name.ts']);
    assert.equal(rec.files.find((f) => f.change === 'renamed')?.from, 'src/old-name.ts');
    assert.deepEqual(
      rec.skipped.map((s) => `${s.reason} ${s.path}`).sort(),
      ['binary blob.dat', 'large big.txt'],
      'new large and binary files are noted (image.bin was skipped before the turn already)',
    );
    assert.equal(await svc.textAt(rec.checkpoint_id, 'crlf.txt', 'before'), 'one\r\ntwo\r\n', '.gitattributes did not convert the bytes');
    assert.equal(await svc.textAt(rec.checkpoint_id, 'scratch/new.txt', 'before'), undefined);

    const r = await svc.restore(rec.checkpoint_id);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.restored, ['crlf.txt', 'scratch/new.txt', 'src/new-name.ts', 'src/old-name.ts', 'vendor/lib/a.js']);
    assert.equal(fileHash(join(ws, 'crlf.txt')), hashes.crlf);
    assert.equal(fileHash(join(ws, 'vendor', 'lib', 'a.js')), hashes.a);
    assert.equal(fileHash(join(ws, 'scratch', 'new.txt')), undefined);
    assert.equal(fileHash(join(ws, 'src', 'new-name.ts')), undefined);
    assert.ok(fileHash(join(ws, 'src', 'old-name.ts')));
    delete process.env.GIT_DIR;
    delete process.env.GIT_INDEX_FILE;
    delete process.env.GIT_WORK_TREE;
    assert.deepEqual(fingerprints(), before, 'both user repositories: tree, index and refs unchanged');
  });

  it('§3.1.1 a rewind covers the later turns too; a person’s edit between two turns is a conflict even when the next turn built on it', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'shared.txt'), 'v0\n');
    writeFileSync(join(ws, 'mine.txt'), 'm0\n');
    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    await svc.beforeTurn('s', 't1');
    writeFileSync(join(ws, 'shared.txt'), 'v1 by the agent\n');
    const t1 = await svc.afterTurn('s', 't1');
    writeFileSync(join(ws, 'shared.txt'), 'v1 by the agent\nand a line by the person\n'); // between the turns
    await svc.beforeTurn('s', 't2');
    writeFileSync(join(ws, 'shared.txt'), 'v2 by the agent, on top of the person\n');
    writeFileSync(join(ws, 'mine.txt'), 'm2\n');
    writeFileSync(join(ws, 'later.txt'), 'created in t2\n');
    const t2 = await svc.afterTurn('s', 't2');
    assert.ok(t1 && t2);
    assert.equal(await svc.afterTurn('s', 'never-started'), undefined, 'a turn without a before-snapshot has no checkpoint');

    const r = await svc.restore(t1.checkpoint_id);
    assert.deepEqual(r.conflicts, ['shared.txt'], "the person's line would be lost: a conflict");
    assert.deepEqual(r.restored, ['later.txt', 'mine.txt'], "t2's files go back to before t1 as well");
    assert.equal(fileHash(join(ws, 'later.txt')), undefined);
    assert.equal(fileHash(join(ws, 'mine.txt')), sha('m0\n'));
    // Rewinding only t2 is no conflict: the person's line is part of t2's before-state.
    const only2 = await svc.restore(t2.checkpoint_id, { paths: ['shared.txt'] });
    assert.deepEqual(only2.conflicts, []);
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'v1 by the agent\nand a line by the person\n');
    assert.equal((await svc.restore('no-such-id')).error?.code, 'CHECKPOINT_NOT_FOUND');
  });
});
