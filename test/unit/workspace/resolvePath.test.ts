// Every referenced path must resolve inside a workspace folder (§16.3, §16.4): `..`, absolute paths
// elsewhere and symlink escapes are refused with a clear error.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveInWorkspace } from '../../../src/workspace/resolvePath';
import { makeTmp, removeTmp, writeTree } from './tmpWorkspace';

describe('workspace/resolvePath: references stay inside the workspace', () => {
  let a: string;
  let b: string;
  let outside: string;
  beforeEach(() => {
    a = makeTmp('rawp-a-');
    b = makeTmp('rawp-b-');
    outside = makeTmp('rawp-out-');
    writeTree(a, { 'src/x.ts': '', 'common.ts': 'a' });
    writeTree(b, { 'lib/y.ts': '', 'common.ts': 'b' });
    writeTree(outside, { 'secret.txt': '' });
  });
  afterEach(() => [a, b, outside].forEach(removeTmp));

  it('§16.4 relative paths resolve in the first folder that has them; name/rel picks a folder in multi-root', async () => {
    const x = await resolveInWorkspace([a, b], 'src/x.ts');
    assert.deepEqual(x, { ok: true, absolute: join(a, 'src/x.ts'), root: a, relative: 'src/x.ts' });
    const y = await resolveInWorkspace([a, b], 'lib/y.ts');
    assert.ok(y.ok && y.root === b);
    const named = await resolveInWorkspace([a, b], `${b.split('/').pop()}/common.ts`);
    assert.ok(named.ok && named.absolute === join(b, 'common.ts'));
    const inner = await resolveInWorkspace([a], 'src/../common.ts');
    assert.ok(inner.ok && inner.relative === 'common.ts', '.. that stays inside is fine');
    const abs = await resolveInWorkspace([a, b], join(b, 'lib/y.ts'));
    assert.ok(abs.ok && abs.relative === 'lib/y.ts');
  });

  it('§16.4 a name that only starts with two dots (..notes.txt, ...) is inside the workspace, not a way out', async () => {
    writeTree(a, { '..notes.txt': 'n', '.../deep.txt': 'd', 'src/..draft.md': '' });
    for (const p of ['..notes.txt', '.../deep.txt', 'src/..draft.md', join(a, '..notes.txt')]) {
      const r = await resolveInWorkspace([a], p);
      assert.ok(r.ok, `${p}: ${JSON.stringify(r)}`);
      assert.equal(r.ok && r.root, a);
    }
    const out = await resolveInWorkspace([a], '../x');
    assert.equal(!out.ok && out.code, 'FS_OUTSIDE_WORKSPACE');
  });

  it('§16.3 .. out of the folder, absolute paths elsewhere and symlink escapes are refused', async () => {
    symlinkSync(outside, join(a, 'out'));
    symlinkSync(join(outside, 'secret.txt'), join(a, 'secret-link'));
    const cases = ['../' + outside.split('/').pop() + '/secret.txt', join(outside, 'secret.txt'), 'out/secret.txt', 'secret-link', 'src/../../x'];
    for (const p of cases) {
      const r = await resolveInWorkspace([a], p);
      assert.equal(r.ok, false, p);
      assert.equal(!r.ok && r.code, 'FS_OUTSIDE_WORKSPACE', p);
      assert.ok(!r.ok && r.message.includes(p), `the message names the path: ${!r.ok && r.message}`);
    }
    // A file to be created under a symlinked directory that leaves the workspace is refused too.
    const fresh = await resolveInWorkspace([a], 'out/new/file.ts', false);
    assert.equal(!fresh.ok && fresh.code, 'FS_OUTSIDE_WORKSPACE');
    mkdirSync(join(a, 'newdir'));
    const ok = await resolveInWorkspace([a], 'newdir/later.ts', false);
    assert.ok(ok.ok);
  });

  it('§16.4 missing files, empty paths, NUL bytes and paths over 4,096 characters get clear errors', async () => {
    const missing = await resolveInWorkspace([a], 'nope.ts');
    assert.equal(!missing.ok && missing.code, 'FS_NOT_FOUND');
    assert.equal((await resolveInWorkspace([a], '')).ok, false);
    const nul = await resolveInWorkspace([a], 'a\0b');
    assert.equal(!nul.ok && nul.code, 'FS_INVALID_PATH');
    assert.equal((await resolveInWorkspace([], 'x')).ok, false);
    // Longer than any file system takes: refused by its length, naming only its start.
    const long = await resolveInWorkspace([a], `src/${'z'.repeat(1_000_000)}`);
    assert.equal(!long.ok && long.code, 'FS_INVALID_PATH');
    assert.ok(!long.ok && long.message.length < 300 && /1,000,004 characters long/.test(long.message));
  });
});
