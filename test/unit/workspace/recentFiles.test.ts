// §16.1.1 "recently modified" for the empty @ query in a workspace whose files take long to stat
// (decision 633): the answer never waits for every file's time, leads with the open files, says
// it is partial until the times are all known, and keeps the newest `max` exactly as a full sort would.
import { strict as assert } from 'node:assert';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { WorkspaceSearch } from '../../../src/workspace/workspaceSearch';
import { knownMtimes } from '../../../src/workspace/recency';
import { until } from './tmpWorkspace';

/**
 * A listed folder whose stats each take `delayMs` (the editor's file system on a huge folder) —
 * until `release()`, after which they answer at once — except the ones named `fast`.
 */
function slowFolder(paths: string[], times: Map<string, number>, fast: ReadonlySet<string> = new Set(), delayMs = 5) {
  let released = false;
  let stats = 0;
  const statFile = async (rel: string) => {
    stats++;
    if (!fast.has(rel) && !released) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const t = times.get(rel);
    return t === undefined ? undefined : { size: 1, mtimeMs: t };
  };
  return { list: { root: '/ws', paths, statFile }, release: () => (released = true), stats: () => stats };
}

describe('workspace/recentFiles: §16.1.1 the empty query in a slow, large workspace', () => {
  it('§16.1.1 the first empty query answers before every file is stat-ed: the open file leads, the answer says it is partial; once the times are known it is complete', async () => {
    const paths = Array.from({ length: 20_000 }, (_, i) => `src/mod${i % 50}/file${i}.ts`);
    const times = new Map(paths.map((p, i) => [p, 1_000_000 + i]));
    const open = 'src/mod7/file7.ts';
    const slow = slowFolder(paths, times, new Set([open]), 2_000);
    const index = await FileIndex.fromListed([slow.list]);
    const search = new WorkspaceSearch(index, { folders: true, openFiles: () => [`/ws/${open}`] });
    try {
      const first = await search.run({ query: '' });
      assert.ok(first);
      assert.ok(index.folders[0].recency?.complete === false, 'answered before every file was stat-ed');
      assert.equal(first.candidates[0].path, open, 'the open file, the only time known, leads');
      assert.equal(first.truncated, true, 'partial: the other files\' times are not known yet');
      assert.equal(first.total_count, paths.length);
      slow.release();
      let queries = 1;
      const empty = () => (queries++, search.run({ query: '' }));
      await until(async () => (await empty())?.candidates[0].path === paths.at(-1), 20, { ms: 20_000, what: 'the newest file to lead once every time is known' });
      const full = await empty();
      assert.deepEqual(full?.candidates.map((c) => c.path), paths.slice(-20).reverse(), 'newest first, exactly');
      assert.equal(full?.truncated, true, 'more files than shown');
      // One stat a file for the times, plus one per shown candidate (its size) per answer.
      assert.ok(slow.stats() <= paths.length + 1 + 20 * queries, `each file's time stat-ed once (${slow.stats()} stats in ${queries} queries), not once per query`);
    } finally {
      search.dispose();
      index.dispose();
    }
  });

  it('§16.1.1 a file changed while the times load keeps its newer time (the load never overwrites the change feed)', async () => {
    const paths = ['a.ts', 'b.ts', 'c.ts'];
    const times = new Map([
      ['a.ts', 3_000],
      ['b.ts', 2_000],
      ['c.ts', 1_000],
    ]);
    const slow = slowFolder(paths, times, new Set(), 400);
    const index = await FileIndex.fromListed([slow.list]);
    const search = new WorkspaceSearch(index, {});
    try {
      await search.run({ query: '' }); // starts the load
      index.folders[0].recency?.mtimes.set('c.ts', 9_000); // what the editor's change feed does on a save
      slow.release();
      await until(() => index.folders[0].recency?.complete === true, 20, { ms: 20_000, what: 'the load to finish' });
      assert.deepEqual((await search.run({ query: '' }))?.candidates.map((c) => c.path), ['c.ts', 'a.ts', 'b.ts']);
    } finally {
      search.dispose();
      index.dispose();
    }
  });

  it('§16.1.1 the newest `max` equal a full sort of the listing (times, then shorter path, then name), with the extension filter applied', async () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const paths = Array.from({ length: 5_000 }, (_, i) => `d${Math.floor(rand() * 40)}/${'x'.repeat(Math.floor(rand() * 4))}f${i}.${i % 3 ? 'ts' : 'md'}`);
    // Few distinct times, so the tie-breaks decide most places.
    const times = new Map(paths.map((p) => [p, Math.floor(rand() * 5)]));
    const index = await FileIndex.fromListed([{ root: '/ws', paths, statFile: async (rel) => ({ size: 1, mtimeMs: times.get(rel)! }) }]);
    const search = new WorkspaceSearch(index, {});
    try {
      await until(async () => (await search.run({ query: '' }))?.truncated === true && index.folders[0].recency?.complete === true, 20, { ms: 20_000, what: 'every time known' });
      const got = await search.run({ query: '', max_results: 50, filters: { extensions: ['.md'] } });
      const expected = paths
        .filter((p) => p.endsWith('.md'))
        .sort((a, b) => times.get(b)! - times.get(a)! || a.length - b.length || (a < b ? -1 : 1))
        .slice(0, 50);
      assert.deepEqual(got?.candidates.map((c) => c.path), expected);
      assert.equal(got?.total_count, paths.filter((p) => p.endsWith('.md')).length);
    } finally {
      search.dispose();
      index.dispose();
    }
  });

  it('§16.1.3 security: a burst of 100 empty queries from one master walks the files a few times, not 101, and answers only the newest; another master\'s empty query is still answered (a burst held the host for 20 s and 1 GB before)', async () => {
    const paths = Array.from({ length: 30_000 }, (_, i) => `pkg${i % 40}/file${i}.ts`);
    const index = await FileIndex.fromListed([{ root: '/ws', paths, statFile: async (rel) => ({ size: 1, mtimeMs: Number(/\d+(?=\.ts$)/.exec(rel)![0]) }) }]);
    const folder = index.folders[0].index;
    const realAllPaths = folder.allPaths.bind(folder);
    let walks = 0;
    folder.allPaths = () => {
      walks++;
      return realAllPaths();
    };
    const search = new WorkspaceSearch(index, {});
    try {
      await until(() => index.folders[0].recency?.complete ?? (void search.run({ query: '' }, { cancelled: false }, 'warm'), false), 20, { ms: 20_000, what: 'the times to load' });
      walks = 0;
      const burst = Array.from({ length: 100 }, () => search.run({ query: '' }, { cancelled: false }, 'master-a'));
      const other = search.run({ query: '' }, { cancelled: false }, 'master-b');
      const answers = await Promise.all(burst);
      assert.deepEqual(answers.slice(0, -1).filter((a) => a !== undefined).length, 0, 'every older empty query of master a was superseded');
      assert.equal(answers.at(-1)?.candidates[0].path, 'pkg39/file29999.ts', 'the newest is answered, newest file first');
      assert.equal((await other)?.candidates[0].path, 'pkg39/file29999.ts', 'master b is answered too');
      assert.ok(walks <= 3, `${walks} walks (each with its own copy of every path) for 101 queries`);
    } finally {
      search.dispose();
      index.dispose();
    }
  });

  it('§16.1.1 robustness: an open file on a hung mount does not hold the answer, and stats that never answer are given up, so the times load ends', async () => {
    const paths = Array.from({ length: 200 }, (_, i) => `f${i}.txt`);
    const hung = new Set(paths.filter((_, i) => i % 5 === 0)); // 40 stats that never settle
    const stat = (rel: string) => (hung.has(rel) ? new Promise<number>(() => undefined) : Promise.resolve(1000 + Number(rel.slice(1, -4))));
    const state = { mtimes: new Map<string, number>(), complete: false };
    const first = await knownMtimes(state, () => paths, stat, { waitMs: 100, first: ['f0.txt'], statTimeoutMs: 200 });
    assert.equal(first.mtimes.has('f0.txt'), false, 'the hung open file is simply not known yet');
    await until(() => state.complete, 20, { ms: 10_000, what: 'the load to end although 40 stats never answer' });
    assert.equal(state.mtimes.size, 160, 'every stat that answered counts; the hung ones are left out');
  });
});
