// The folders of a listing that are symbolic links (the picker trial of 2026-12-05: VS Code's file
// search followed a link to /usr into the @ index). Real files and links.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { symlinkedDirs, underAny, withoutSymlinkedDirs } from '../../../src/workspace/symlinkedDirs';

describe('workspace: symlinked folders leave the listing', () => {
  let base: string;
  let ws: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-symdirs-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
    mkdirSync(join(base, 'outside', 'secret'), { recursive: true });
    writeFileSync(join(ws, 'src', 'deep', 'a.ts'), '');
    writeFileSync(join(base, 'outside', 'secret', 'key.txt'), '');
    symlinkSync(join(base, 'outside'), join(ws, 'src', 'out-link'));
    symlinkSync(join(ws, 'src', 'deep'), join(ws, 'inner-link'));
    writeFileSync(join(base, 'outside', 'file.txt'), '');
    symlinkSync(join(base, 'outside', 'file.txt'), join(ws, 'file-link.txt'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('finds the linked folders among the listed paths\' folders, top-down; files under them go, the rest stay (a file link keeps its own name)', async () => {
    // What a search that follows links lists for this tree.
    const listed = ['src/deep/a.ts', 'src/out-link/secret/key.txt', 'src/out-link/file.txt', 'inner-link/a.ts', 'file-link.txt'];
    assert.deepEqual([...(await symlinkedDirs(ws, listed))].sort(), ['inner-link', 'src/out-link']);
    assert.deepEqual(await withoutSymlinkedDirs(ws, listed), ['src/deep/a.ts', 'file-link.txt']);
  });

  it('underAny: the folder itself and what is below it, not a name that only starts alike', () => {
    const dirs = new Set(['src/out']);
    assert.equal(underAny('src/out', dirs), true);
    assert.equal(underAny('src/out/x/y', dirs), true);
    assert.equal(underAny('src/outer/x', dirs), false);
    assert.equal(underAny('src', dirs), false);
  });

  it('a listing without links comes back as it is; a folder gone meanwhile is not a link', async () => {
    const listed = ['src/deep/a.ts', 'gone/x.ts'];
    assert.equal(await withoutSymlinkedDirs(ws, listed), listed);
  });
});
