// WorkspaceSearch (§16.1.1–§16.1.2) on real directories and big in-memory indexes: what a search
// answers (metadata, recently modified, scopes), files changing under it, and cancellation between
// scan slices; and the whole live path of `rawp serve` (LazyFileSearch as the engine's search port)
// answering a control.file.search. Moved here from the tests of the unused FileSearchResponder
// (deleted, decision 557), whose checks did not depend on it.
import { strict as assert } from 'node:assert';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrame } from '../../../src/protocol';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher } from '../../../src/workspace/fileSearch';
import { LazyFileSearch } from '../../../src/workspace/lazyFileSearch';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { watchTree } from '../../../src/workspace/nodeWatcher';
import { WorkspaceSearch } from '../../../src/workspace/workspaceSearch';
import { EngineHarness } from '../../support/engineHarness';
import { until as settled } from '../../support/settle';
import { makeTmp, removeTmp, until, writeTree } from './tmpWorkspace';

const tick = () => new Promise((r) => setImmediate(r));

describe('workspace/workspaceSearch: §16.1 answers on real and big workspaces', () => {
  it('§16.1.2 rawp serve\'s search port answers through the engine: parent_id = the search, query_id echoed, ranges and size from the disk; the frame is valid', async () => {
    const root = makeTmp();
    writeTree(root, { 'src/auth.ts': 'x', 'README.md': '' });
    const lazy = new LazyFileSearch(() => [root], () => new NodeFsBackend([root]));
    try {
      const h = await EngineHarness.start({}, { fileSearch: lazy.run });
      const from = h.frames.length;
      const frame = h.control('control.file.search', { query_id: '00000000-0000-4000-8000-0000000000a1', query: 'aut' });
      await settled(() => h.ofType('session.file.candidates', from).length === 1, 'the answer');
      const [reply] = h.ofType('session.file.candidates', from);
      assert.equal(reply.parent_id, frame.message_id);
      assert.equal(reply.payload.query_id, frame.payload.query_id);
      assert.equal(reply.payload.candidates[0].path, 'src/auth.ts');
      assert.deepEqual(reply.payload.candidates[0].match_ranges, [{ start: 4, end: 7 }]);
      assert.equal(reply.payload.candidates[0].size_bytes, 1);
      assert.equal(parseFrame(JSON.stringify(reply)).kind, 'accepted');
      await h.session.end();
    } finally {
      lazy.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.3 two masters searching one big workspace at once both get their candidates: the lane keeps one from stopping the other\'s worker scan (decision 558)', async () => {
    // 60,000 paths: scanned by the scan workers, which a newer search of the same lane stops.
    const paths = Array.from({ length: 60_000 }, (_, i) => `pkg${i % 97}/src/module${i}/${i % 3 === 0 ? 'main' : 'circBuffer'}${i}.ts`);
    const search = new WorkspaceSearch(FileIndex.fromPaths([{ name: 'ws', paths }]), { statResults: false });
    try {
      const alone = { a: await search.run({ query: 'circ' }), b: await search.run({ query: 'main' }) };
      const [a, b] = await Promise.all([search.run({ query: 'circ' }, { cancelled: false }, 'master-a'), search.run({ query: 'main' }, { cancelled: false }, 'master-b')]);
      assert.deepEqual(a?.candidates.map((c) => c.path), alone.a?.candidates.map((c) => c.path), 'master a\'s answer, although master b searched after it');
      assert.deepEqual(b?.candidates.map((c) => c.path), alone.b?.candidates.map((c) => c.path));
      assert.equal(a?.candidates.length, 20);
    } finally {
      search.dispose();
    }
  });

  it('§16.1.3 cancel stops a real scan between slices (the search resolves without a result)', async () => {
    const paths = Array.from({ length: 60_000 }, (_, i) => `dir${i % 97}/sub${i % 13}/file_${i}.ts`);
    const index = FileIndex.fromPaths([{ name: 'big', paths }]);
    // Scanned in this thread (the scan workers' cancel is tested in parallelSearch.test.ts).
    const searcher = new FileSearcher(index, undefined, { pool: null });
    const token = { cancelled: false };
    let slices = 0;
    const counting = { get cancelled() { slices++; return token.cancelled; } };
    // budget 0: yield to the event loop after every slice, so the cancel lands mid-scan
    const running = searcher.search({ query: 'fil' }, counting, 0);
    await tick();
    token.cancelled = true;
    assert.equal(await running, undefined);
    assert.ok(slices >= 2 && slices < 60_000 / 16384 + 2, `stopped after ${slices} checks`);
    const ws = new WorkspaceSearch(index, { statResults: false });
    assert.equal((await ws.run({ query: 'fil' }))?.total_count, 60_000);
    const pre = { cancelled: true };
    assert.equal(await ws.run({ query: 'fil' }, pre), undefined, 'a search cancelled before it starts does nothing');
  });

  it('§16.1.1 files that appear and disappear during a search are seen by the next keystroke', async () => {
    const root = makeTmp();
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`pkg${i % 10}/module${i}.ts`] = '';
    writeTree(root, files);
    const index = await FileIndex.open({ roots: [root], noGit: true });
    index.attach((listener) => watchTree([root], listener, { batchMs: 5 }));
    const ws = new WorkspaceSearch(index);
    const answer = async (query: string) => {
      const body = await ws.run({ query });
      assert.ok(body, `an answer for "${query}"`);
      return body;
    };
    try {
      // Type "wid…" while widget files are created and old modules deleted underneath.
      const first = await answer('w');
      assert.ok(!first.candidates.some((c) => c.path.includes('widget')));
      writeTree(root, { 'ui/widget.ts': '', 'ui/widgetHost.ts': '' });
      for (let i = 0; i < 10; i++) unlinkSync(join(root, `pkg${i}/module${i}.ts`));
      await until(() => index.folders[0].index.has('ui/widgetHost.ts') && !index.folders[0].index.has('pkg9/module9.ts'));
      const second = await answer('wi');
      assert.deepEqual(second.candidates.slice(0, 2).map((c) => c.path), ['ui/widget.ts', 'ui/widgetHost.ts']);
      const mod = await answer('module9');
      assert.ok(!mod.candidates.some((c) => c.path === 'pkg9/module9.ts'), 'a deleted file is gone');
      assert.ok(mod.candidates.some((c) => c.path === 'pkg9/module99.ts'));
      // Searches keep running while files churn; every answer lists only files that exist then or
      // were just deleted (never a path that was never there).
      const churn = (async () => {
        for (let i = 0; i < 20; i++) {
          writeTree(root, { [`tmp/churn${i}.ts`]: '' });
          if (i > 0) unlinkSync(join(root, `tmp/churn${i - 1}.ts`));
          await new Promise((r) => setTimeout(r, 3));
        }
      })();
      const seen = new Set<string>();
      for (const q of ['c', 'ch', 'chu', 'chur', 'churn']) for (const c of (await answer(q)).candidates) seen.add(c.path);
      await churn;
      for (const p of seen) assert.match(p, /^(tmp\/churn\d+\.ts|pkg\d\/module\d+\.ts|ui\/widget(Host)?\.ts)$/);
      let last = '';
      await until(async () => (last = (await answer('churn')).candidates.map((c) => c.path).join()) === 'tmp/churn19.ts', 20, {
        ms: 15_000,
        what: 'the picker to list only tmp/churn19.ts',
        detail: () => `${last}; the index holds ${index.folders[0].index.allPaths().filter((p) => p.startsWith('tmp/')).join()}`,
      });
    } finally {
      ws.dispose();
      index.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.1 an empty query returns recently modified files, newest first', async () => {
    const root = makeTmp();
    writeTree(root, { 'old.ts': '', 'mid.ts': '', 'new.ts': '' });
    const { utimesSync } = await import('node:fs');
    utimesSync(join(root, 'old.ts'), new Date(1_000_000), new Date(1_000_000));
    utimesSync(join(root, 'mid.ts'), new Date(2_000_000_000), new Date(2_000_000_000));
    utimesSync(join(root, 'new.ts'), new Date(3_000_000_000), new Date(3_000_000_000));
    const index = await FileIndex.open({ roots: [root], noGit: true });
    try {
      const res = await new WorkspaceSearch(index).run({ query: '' });
      assert.ok(res);
      assert.deepEqual(res.candidates.map((c) => c.path), ['new.ts', 'mid.ts', 'old.ts']);
      assert.equal(res.candidates[0].modified_at, new Date(3_000_000_000).toISOString());
    } finally {
      index.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.1 scope global also lists ignored files; workspace does not', async () => {
    const root = makeTmp();
    writeTree(root, { '.gitignore': 'dist/\n', 'src/app.ts': '', 'dist/app.js': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    const ws = new WorkspaceSearch(index);
    try {
      assert.deepEqual((await ws.run({ query: 'app' }))?.candidates.map((c) => c.path), ['src/app.ts']);
      assert.deepEqual((await ws.run({ query: 'app', scope: 'global' }))?.candidates.map((c) => c.path).sort(), ['dist/app.js', 'src/app.ts']);
    } finally {
      ws.dispose();
      index.dispose();
      removeTmp(root);
    }
  });
});
