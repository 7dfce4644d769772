// The @-search scanned in worker threads (issue 18, decision 500): a big snapshot is split into
// one part per worker, the parts share a bar to prune by, and the host merges their lists. The
// merged answer must be exactly the one-thread answer — same hits, scores, ranges and counts — on
// every keystroke, with deletions, additions, filters, several folders and ties (copies of one
// tree make many equal scores). Real worker threads throughout.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher, type SearchRequest, type SearchResult } from '../../../src/workspace/fileSearch';
import { PARALLEL_MIN_PATHS, ScanPool } from '../../../src/workspace/scanPool';
import { FolderIndex } from '../../../src/workspace/folderIndex';
import { TopHeap } from '../../../src/workspace/topHeap';

/** A seeded generator of real-looking paths; `copies` roots repeat the same tree (equal scores). */
function corpus(seed: number, n: number, copies = 2): string[] {
  let x = seed >>> 0 || 1;
  const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const dirs = ['src', 'lib', 'drivers', 'net', 'chat', 'browser', 'common', 'test', 'utils', 'core', 'ui', 'Widgets', 'é-docs'];
  const stems = ['chatWidget', 'main', 'index', 'auth_service', 'netdev', 'e1000', 'README', 'string-helpers', 'css3', 'Button', 'spec', 'circBuffer', 'rpt_report', 'café'];
  const exts = ['.ts', '.c', '.md', '.tsx', '.h', '.json', ''];
  const tree: string[] = [];
  for (let i = 0; i < n / copies; i++) {
    const depth = 1 + Math.floor(rnd() * 4);
    const parts = Array.from({ length: depth }, () => pick(dirs));
    tree.push(`${parts.join('/')}/${pick(stems)}${i % 7}${pick(exts)}`);
  }
  return Array.from({ length: copies }, (_, c) => tree.map((p) => `copy${c}/${p}`)).flat();
}

const QUERIES = ['c', 'ci', 'cir', 'circ', 'circb', 'm', 'ma', 'mai', 'main', 'main.c', 'spce', 'css3', 'chtwdg', 'é', 'café', 'zzzq', 'src/chat', ' au th ', 'Button'];

function same(a: SearchResult | undefined, b: SearchResult, what: string): void {
  assert.ok(a, `${what}: no result`);
  const view = (r: SearchResult) => ({ total: r.total_count, truncated: r.truncated, hits: r.hits.map((h) => [h.path, h.score, h.match_score, h.match_ranges]) });
  assert.deepEqual(view(a), view(b), what);
}

describe('workspace/parallelSearch: §16.1 the scan in worker threads (decision 500)', function () {
  this.timeout(120_000);
  const pools: ScanPool[] = [];
  const pool = (size: number) => {
    const p = ScanPool.create(size);
    pools.push(p);
    return p;
  };
  after(async () => {
    for (const p of pools) await p.dispose();
  });

  it('§16.1.2 every keystroke gives exactly the one-thread answer (2 and 3 parts, ties from copies)', async () => {
    const paths = corpus(7, 24_000, 3);
    const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
    for (const size of [2, 3]) {
      const parallel = new FileSearcher(index, undefined, { pool: pool(size), parallelMin: 0 });
      const alone = new FileSearcher(index, undefined, { pool: null });
      for (const q of QUERIES) {
        for (let k = 1; k <= q.length; k++) {
          const req: SearchRequest = { query: q.slice(0, k), max_results: k % 2 ? 20 : 50 };
          same(await parallel.search(req, { cancelled: false }), alone.searchSync(req), `${size} parts, "${req.query}"`);
        }
      }
    }
  });

  it('§16.1.1 filters, deletions, additions and several folders give the one-thread answer', async () => {
    const index = FileIndex.fromPaths([
      { name: 'one', paths: corpus(11, 12_000) },
      { name: 'two', paths: corpus(12, 3_000) },
    ]);
    const one = index.folders[0].index;
    // Deleted files and a deleted directory (ranges of the snapshot), and files added since.
    one.apply([
      { kind: 'remove', path: index.folders[0].index.snapshot.pathAt(5) },
      { kind: 'remove', path: 'copy0/src' },
      { kind: 'addFile', path: 'copy9/chat/circBuffer.ts' },
      { kind: 'addFile', path: 'copy9/main.c' },
    ]);
    // Folder two stays below the threshold: it is scanned in the host and merged with the workers' parts.
    const parallel = new FileSearcher(index, undefined, { pool: pool(2), parallelMin: 5_000 });
    const alone = new FileSearcher(index, undefined, { pool: null });
    const requests: SearchRequest[] = [
      { query: 'main' },
      { query: 'circ', filters: { extensions: ['ts'] } },
      { query: 'ma', filters: { exclude_patterns: ['**/test/**', 'copy1/**'] } },
      { query: 'cha', scope: 'project' },
      { query: 'e1000', max_results: 50 },
      { query: '' },
    ];
    for (const req of requests) same(await parallel.search(req, { cancelled: false }), alone.searchSync(req), JSON.stringify(req));
  });

  it('§16.1.2 a replaced snapshot is scanned as the new one (the workers get the new generation)', async () => {
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(21, 8_000) }]);
    const parallel = new FileSearcher(index, undefined, { pool: pool(2), parallelMin: 0 });
    const alone = new FileSearcher(index, undefined, { pool: null });
    same(await parallel.search({ query: 'circ' }, { cancelled: false }), alone.searchSync({ query: 'circ' }), 'before');
    await index.folders[0].index.replaceAll(corpus(22, 6_000));
    for (const q of ['c', 'ci', 'circ', 'main']) same(await parallel.search({ query: q }, { cancelled: false }), alone.searchSync({ query: q }), `after, "${q}"`);
  });

  it('§16.1.3 a search cancelled, or superseded by a newer keystroke, resolves without a result', async () => {
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(31, 60_000) }]);
    const parallel = new FileSearcher(index, undefined, { pool: pool(2), parallelMin: 0 });
    const token = { cancelled: false };
    const running = parallel.search({ query: 'circ' }, token);
    token.cancelled = true;
    assert.equal(await running, undefined, 'cancelled while the workers scanned');
    // Cancelled later, while the workers scan (the host polls the token and tells them).
    const later = { cancelled: false };
    const scanning = parallel.search({ query: 'xq' }, later);
    setTimeout(() => (later.cancelled = true), 1);
    assert.equal(await scanning, undefined, 'cancelled a moment later');
    // The superseded one stops or finishes; the newer one is answered in full either way.
    const first = parallel.search({ query: 'ma' }, { cancelled: false });
    const second = parallel.search({ query: 'mai' }, { cancelled: false });
    const [a, b] = await Promise.all([first, second]);
    const alone = new FileSearcher(index, undefined, { pool: null });
    if (a !== undefined) same(a, alone.searchSync({ query: 'ma' }), 'the superseded one, had it finished');
    same(b, alone.searchSync({ query: 'mai' }), 'the newer one');
  });

  it('§16.1.3 a newer search stops only its own lane\'s scan: two masters typing at once both get full answers (decision 558)', async () => {
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(37, 60_000) }]);
    const parallel = new FileSearcher(index, undefined, { pool: pool(2), parallelMin: 0 });
    const alone = new FileSearcher(index, undefined, { pool: null });
    // Posted back to back: the first is still queued in the workers when the second starts.
    for (const [qa, qb] of [['ma', 'ci'], ['circ', 'main'], ['spce', 'css3']]) {
      const [a, b] = await Promise.all([parallel.search({ query: qa, lane: 'master-a' }, { cancelled: false }), parallel.search({ query: qb, lane: 'master-b' }, { cancelled: false })]);
      same(a, alone.searchSync({ query: qa }), `master a's "${qa}", while master b searched`);
      same(b, alone.searchSync({ query: qb }), `master b's "${qb}"`);
    }
    // In one lane the newer keystroke still stops the older one, which the workers had not begun.
    const [older, newer] = await Promise.all([parallel.search({ query: 'ma', lane: 'master-a' }, { cancelled: false }), parallel.search({ query: 'mai', lane: 'master-a' }, { cancelled: false })]);
    assert.equal(older, undefined, 'superseded in its own lane');
    same(newer, alone.searchSync({ query: 'mai' }), 'the newer one');
  });

  it('§16.1 a folder of PARALLEL_MIN_PATHS paths starts its scan workers while it is indexed and has them warm up once it is built (decisions 509, 522); a smaller one does not', async () => {
    const early = pool(2);
    await FolderIndex.create(corpus(43, PARALLEL_MIN_PATHS - 1, 1), { scanPool: early });
    assert.equal(early.started, false, 'one path short: no workers');
    const paths = corpus(43, PARALLEL_MIN_PATHS, 1);
    const building = FolderIndex.create(paths, { scanPool: early });
    assert.equal(early.started, true, 'the workers run while the folder is indexed');
    assert.deepEqual(await early.warmUpStates(), ['waiting', 'waiting'], 'and leave the cores to the build');
    const index = await building;
    assert.equal(index.snapshot.size, new Set(paths).size);
    const states = await early.warmUpStates();
    assert.ok(states.every((s) => s !== 'waiting'), `built: the workers warm up (${states.join(', ')})`);
    const deadline = Date.now() + 30_000;
    while (!(await early.warmUpStates()).every((s) => s === 'done')) {
      assert.ok(Date.now() < deadline, 'the warm-up ends');
      await sleep(50);
    }
  });

  it('§16.1 a pool whose first use is a search warms its workers up too (decision 522)', async () => {
    const lazy = pool(2);
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(47, 4_000) }]);
    const parallel = new FileSearcher(index, undefined, { pool: lazy, parallelMin: 0 });
    same(await parallel.search({ query: 'main' }, { cancelled: false }), new FileSearcher(index, undefined, { pool: null }).searchSync({ query: 'main' }), 'the search');
    const states = await lazy.warmUpStates();
    assert.ok(states.every((s) => s !== 'waiting'), `the workers warm up (${states.join(', ')})`);
  });

  it('§16.1 where no worker can start, the search runs in the host and gives the same answer', async () => {
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(41, 4_000) }]);
    const broken = ScanPool.create(2, '/nonexistent/scanWorker.js');
    pools.push(broken);
    const parallel = new FileSearcher(index, undefined, { pool: broken, parallelMin: 0 });
    const alone = new FileSearcher(index, undefined, { pool: null });
    same(await parallel.search({ query: 'main' }, { cancelled: false }), alone.searchSync({ query: 'main' }), 'first search');
    assert.equal(broken.usable, false, 'the pool knows it cannot be used');
    assert.match(broken.failure ?? '', /scanWorker|Cannot find|ENOENT|not found/i, 'and says why');
    same(await parallel.search({ query: 'mai' }, { cancelled: false }), alone.searchSync({ query: 'mai' }), 'next search');
  });
});

describe('workspace/topHeap: a total order, so parts merge exactly (decision 500)', () => {
  it('keeps the same best entries whatever order they come in, equal scores by tie', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 30 }), fc.integer(), (scores, cap, seed) => {
        const entries = scores.map((s, tie) => ({ s: s / 8, tie }));
        const best = (order: typeof entries) => {
          const h = new TopHeap(cap);
          for (const e of order) if (h.admits(e.s, e.tie)) h.push(e.s, e.tie, e.tie);
          return [...h.refs.slice(0, h.size)].sort((a, b) => a - b);
        };
        let x = seed >>> 0 || 1;
        const shuffled = [...entries].sort(() => ((x = (x * 1103515245 + 12345) >>> 0) & 1 ? 1 : -1));
        const expected = [...entries].sort((a, b) => b.s - a.s || a.tie - b.tie).slice(0, cap).map((e) => e.tie).sort((a, b) => a - b);
        assert.deepEqual(best(entries), expected);
        assert.deepEqual(best(shuffled), expected);
        // Split in two "parts", each kept to cap, then merged: the same set.
        const half = Math.floor(entries.length / 2);
        const parts = [best(shuffled.slice(0, half)), best(shuffled.slice(half))].flat().map((tie) => entries[tie]);
        assert.deepEqual(best(parts), expected);
      }),
      { seed: 500, numRuns: 300 },
    );
  });
});

describe('workspace/parallelSearch: the pieces as they ship (decision 500)', function () {
  this.timeout(120_000);

  it('§16.1.1 a first filtered search over a big folder is sliced (no long event-loop block)', async () => {
    // Testing 300k paths against the filters took ~100 ms in one piece; in slices no block comes
    // near that. A loaded machine can stall any one run: a run under the bound is what counts
    // (the unsliced code fails every run), within a few tries.
    const exts = ['.ts', '.md', '.c'];
    const paths = Array.from({ length: 300_000 }, (_, i) => `third_party/vendor/chromium/src/dir${i % 97}/${i % 5 ? 'sub' : 'test'}${i % 13}/main_${i}${exts[i % 3]}`);
    const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
    assert.equal(index.folders[0].index.snapshot.size, 300_000);
    const alone = new FileSearcher(index, undefined, { pool: null });
    const request: SearchRequest = { query: 'main', filters: { exclude_patterns: ['**/test/**', 'copy1/**', '**/*.md'] } };
    const expected = alone.searchSync(request);
    let best = Infinity;
    for (let attempt = 0; attempt < 6 && best >= 30; attempt++) {
      for (const pool of [null, undefined] as const) {
        const fresh = new FileSearcher(index, undefined, { pool, parallelMin: 0 });
        const h = monitorEventLoopDelay({ resolution: 1 });
        h.enable();
        await sleep(5); // the histogram samples on a timer: let it run before and after
        const result = await fresh.search(request, { cancelled: false });
        await sleep(5);
        h.disable();
        same(result, expected, `filtered search (${pool === null ? 'in the host' : 'in the workers'})`);
        best = Math.min(best, h.max / 1e6);
      }
    }
    assert.ok(best < 30, `longest event-loop block while filtering: ${best.toFixed(1)} ms`);
  });

  it('§16.1.2 the bundled worker (dist/scanWorker.js, what the VSIX and rawp ship) answers like the sources', async () => {
    const bundled = resolve(__dirname, '../../../dist/scanWorker.js');
    assert.ok(existsSync(bundled), 'npm run build makes dist/scanWorker.js');
    const index = FileIndex.fromPaths([{ name: 'ws', paths: corpus(61, 20_000) }]);
    const pool = ScanPool.create(2, bundled);
    try {
      const parallel = new FileSearcher(index, undefined, { pool, parallelMin: 0 });
      const alone = new FileSearcher(index, undefined, { pool: null });
      for (const q of ['m', 'ma', 'mai', 'main', 'circb']) same(await parallel.search({ query: q }, { cancelled: false }), alone.searchSync({ query: q }), `"${q}"`);
      assert.equal(pool.usable, true, 'the bundled worker started and answered');
    } finally {
      await pool.dispose();
    }
  });
});
