// A multi-root workspace: the path the @ picker offers for a file (`name/rel`, with `-2` for a
// second folder of the same name) is the path the built-in tools read, and what the tools list
// leads with the folder's name, so the agent can name it again (the picker trial of 2026-12-05:
// `ws2/x` was read as `<first root>/ws2/x`; `app-2/index.js` meant nothing to anyone but the picker).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { createSharedToolState, createToolRunner } from '../../../src/tools/toolkit';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher } from '../../../src/workspace/fileSearch';
import { namedRoot, rootNames } from '../../../src/workspace/rootNames';
import { resolveInWorkspace } from '../../../src/workspace/resolvePath';
import { FakeHost } from '../../support/fakeHost';

describe('tools: multi-root paths are the picker\'s paths (§16.4)', () => {
  let base: string;
  let roots: string[];
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-multiroot-'));
    roots = [join(base, 'ws'), join(base, 'ws2'), join(base, 'a', 'app'), join(base, 'b', 'app')];
    const files: Record<string, string> = { 'ws/README.md': 'first\n', 'ws2/second-root-only.txt': 'second\n', 'ws2/src/main.c': 'int main;\n', 'a/app/index.js': 'a\n', 'b/app/index.js': 'b\n' };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(base, rel, '..'), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('§16.4 folder names: duplicates get -2 in workspace order; namedRoot finds the folder a path names', () => {
    assert.deepEqual(rootNames(roots), ['ws', 'ws2', 'app', 'app-2']);
    assert.deepEqual(namedRoot(roots, 'app-2/index.js'), { root: roots[3], rest: 'index.js' });
    assert.deepEqual(namedRoot(roots, 'ws2/src/main.c'), { root: roots[1], rest: 'src/main.c' });
    assert.equal(namedRoot(roots, 'src/main.c'), undefined);
    assert.equal(namedRoot([roots[0]], 'ws/README.md'), undefined, 'one root: no names');
  });

  it('§16.4 every path the picker offers resolves (resolveInWorkspace) to the file it lists', async () => {
    const index = await FileIndex.open({ roots, noGit: true });
    const searcher = new FileSearcher(index, undefined, { pool: null });
    try {
      const result = await searcher.search({ query: 'index', max_results: 20 }, { cancelled: false });
      const offered = (result?.hits ?? []).map((h) => h.path).filter((p) => p.endsWith('index.js')).sort();
      assert.deepEqual(offered, ['app-2/index.js', 'app/index.js']);
      const second = await resolveInWorkspace(roots, 'app-2/index.js');
      assert.ok(second.ok && second.absolute === join(roots[3], 'index.js'), JSON.stringify(second));
      // The path as shown, typed back (led by the folder's name), finds it first.
      for (const typed of ['ws2/src/main.c', 'ws2/main', 'app-2/index.js', 'app-2/ind']) {
        const again = await searcher.search({ query: typed, max_results: 5 }, { cancelled: false });
        const want = typed.startsWith('ws2') ? 'ws2/src/main.c' : 'app-2/index.js';
        assert.equal(again?.hits[0]?.path, want, `"${typed}" → ${JSON.stringify(again?.hits.map((h) => h.path))}`);
      }
    } finally {
      searcher.release();
      index.dispose();
    }
  });

  it('§16.4 the built-in Read takes `ws2/…` and `app-2/…`; Glob and LS list paths led by the folder name', async () => {
    const fs = new NodeFsBackend(roots);
    const shared = createSharedToolState({ fs });
    const runner = createToolRunner(new FakeHost(roots[0]), shared);
    const call = (name: string, input: Record<string, unknown>) => runner.invoke(name, input, new AbortController().signal);
    const read = await call('Read', { file_path: 'ws2/second-root-only.txt' });
    assert.equal(read.status, 'success', JSON.stringify(read.output));
    assert.match(String(read.output), /second/);
    const dup = await call('Read', { file_path: 'app-2/index.js' });
    assert.equal(dup.status, 'success', JSON.stringify(dup.output));
    assert.match(String(dup.output), /\bb\b/, 'the second folder named app');
    const first = await call('Read', { file_path: 'README.md' });
    assert.equal(first.status, 'success', 'a plain relative path is still the first folder\'s');

    const glob = await call('Glob', { pattern: '**/*.c', path: 'ws2' });
    assert.deepEqual(glob.output, ['ws2/src/main.c']);
    const back = await call('Read', { file_path: (glob.output as string[])[0] });
    assert.equal(back.status, 'success', 'a listed path reads back');
    const ls = await call('LS', { path: 'ws2' });
    assert.match(JSON.stringify(ls.output), /ws2\/second-root-only\.txt/);
  });
});
