// The pruned scan keeps exactly the list an exhaustive one keeps (issue 18). Every bound, early exit
// and shortcut of the scan (the deferred phase, runs of paths that share their match, the exact
// name boost, the second-byte test) may only skip a path that could not enter the top list. So the
// candidates a search ranks must be the best `cap` of ALL matching paths by quick score, equal
// scores by snapshot order — computed here by scoring every path, with no pruning at all.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher } from '../../../src/workspace/fileSearch';
import { quickScoreBytes } from '../../../src/workspace/quickScoreBytes';

// Few letters, many shared directories and basenames that start alike: lots of equal scores, runs
// of paths whose directory holds the query, and first and second letters that collide; digits, so
// the digit mask's prefilter is checked too (each path holds some, a query's may be missing).
const dir = fc.constantFrom('ab', 'ba', 'abc', 'cab', 'a_b', 'Ab', 'c.a', 'bb', 'a1', 'v2b');
const name = fc.stringMatching(/^[abcAB_.12]{1,6}$/);
const pathArb = fc.tuple(fc.array(dir, { minLength: 0, maxLength: 3 }), name).map(([dirs, n]) => [...dirs, n].join('/'));
const queryArb = fc.stringMatching(/^[abc_.12]{1,5}$/);
const CAP = 4;

/** The best `cap` paths by quick score over every path, ties by snapshot index, and how many match. */
function exhaustive(index: FileIndex, q: string, cap = CAP): { top: string[]; total: number } {
  const snap = index.folders[0].index.snapshot;
  const qb = Uint8Array.from(q, (c) => c.charCodeAt(0));
  const scored: { i: number; score: number }[] = [];
  for (let i = 0; i < snap.size; i++) {
    const s0 = snap.offsets[i];
    const e0 = snap.offsets[i + 1];
    const score = quickScoreBytes(snap.chars, snap.upper, s0, e0, s0 + snap.baseStart[i], qb, q.length);
    if (!Number.isNaN(score)) scored.push({ i, score });
  }
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const top = scored
    .slice(0, cap)
    .map((x) => snap.pathAt(x.i))
    .sort();
  return { top, total: scored.length };
}

/** What a search kept: its candidates (sorted: they come in DP order) and its count. */
const kept = (r: { hits: { path: string }[]; total_count: number }) => ({ top: r.hits.map((h) => h.path).sort(), total: r.total_count });

describe('workspace/scanReference: the pruned scan keeps what scoring every path keeps', () => {
  it('§16.1.1 fresh and typed keystroke by keystroke, the ranked candidates are the exhaustive best, ties by place, and the count is every match (1,000 random workspaces)', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 120 }), queryArb, (paths, query) => {
        const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
        // leaders = max_results = CAP: every candidate the scan keeps is returned (in DP order).
        const typed = new FileSearcher(index, CAP);
        for (let k = 1; k <= query.length; k++) {
          const q = query.slice(0, k);
          const got = typed.searchSync({ query: q, max_results: CAP });
          const fresh = new FileSearcher(index, CAP).searchSync({ query: q, max_results: CAP });
          const want = exhaustive(index, q);
          assert.deepEqual(kept(got), want, `typed ${q}`);
          assert.deepEqual(kept(fresh), want, `fresh ${q}`);
          compared++;
        }
      }),
      { numRuns: 1000 },
    );
    assert.ok(compared > 2000);
  });

  it('§16.1.1 an equal score goes to the earlier path when a first pass put a later one in the list first', () => {
    // Pairs found by search: equal quick scores for `abc`. The second's basename starts with `ab`
    // (a narrowed scan scores it first); the first's does not — `acab…` starts with the query's
    // first character, `caab…` not even that — and sorts first, so it wins the tie.
    for (const [first, second] of [
      ['acabacbbbb', 'cx/abxabbc'],
      ['a/caabaca', 'x/abxabbc'],
    ]) {
      const index = FileIndex.fromPaths([{ name: 'ws', paths: [first, second, 'zzz/other.txt'] }]);
      const typed = new FileSearcher(index, 1);
      let last;
      for (const q of ['a', 'ab', 'abc']) last = typed.searchSync({ query: q, max_results: 1 });
      assert.deepEqual(kept(last!), exhaustive(index, 'abc', 1), first);
      assert.deepEqual(kept(last!).top, [first]);
    }
  });

  it('§16.1.1 files of one directory whose basenames lack the query\'s last letter share its score only with the same bytes, case and early exit (decision 520)', () => {
    // Directories that differ in case only (`aB` sorts right before `ab`: a camel hump scores),
    // and many basenames without a, b or c of every length, so siblings get different early exits.
    const caseDir = fc.constantFrom('ab', 'aB', 'Ab', 'a/b', 'ba', 'bA', 'cab', 'caB', 'b_a', 'x/cAb', 'x/cab');
    const plainName = fc.stringMatching(/^[xyz.]{1,40}$/);
    const lettered = fc.stringMatching(/^[abcxy]{1,5}$/);
    const pathOf = fc.tuple(caseDir, fc.oneof(plainName, plainName, lettered)).map(([d, n]) => `${d}/${n}`);
    let compared = 0;
    fc.assert(
      fc.property(fc.uniqueArray(pathOf, { minLength: 2, maxLength: 80 }), fc.stringMatching(/^[abc]{1,4}$/), fc.integer({ min: 1, max: 3 }), (paths, query, cap) => {
        const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
        const typed = new FileSearcher(index, cap);
        for (let k = 1; k <= query.length; k++) {
          const q = query.slice(0, k);
          const want = exhaustive(index, q, cap);
          assert.deepEqual(kept(typed.searchSync({ query: q, max_results: cap })), want, `typed ${q}`);
          assert.deepEqual(kept(new FileSearcher(index, cap).searchSync({ query: q, max_results: cap })), want, `fresh ${q}`);
          compared++;
        }
      }),
      { numRuns: 600 },
    );
    assert.ok(compared > 1000);
  });

  it('§16.1.1 a directory part scored with a camel hump is not given to a sibling whose directory differs in case alone', () => {
    // `fOobar/` sorts before `foobAr/`; for `fa` the second's `A` is a hump, the first's `a` is not.
    const index = FileIndex.fromPaths([{ name: 'ws', paths: ['fOobar/x.txt', 'foobAr/x.txt'] }]);
    const got = new FileSearcher(index, 1).searchSync({ query: 'fa', max_results: 1 });
    assert.deepEqual(kept(got), exhaustive(index, 'fa', 1));
    assert.deepEqual(kept(got).top, ['foobAr/x.txt']);
  });

  it('§16.1.1 the same on one big folder with long runs (a directory that holds the query above 3,000 files)', () => {
    const paths: string[] = [];
    for (let d = 0; d < 30; d++) for (let f = 0; f < 100; f++) paths.push(`src/mach-${d % 7}/arm${d}/${['Makefile', 'main.c', 'map_a.h', 'xm.c', 'Kconfig'][f % 5]}${f}`);
    const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
    const typed = new FileSearcher(index, CAP);
    for (const q of ['m', 'ma', 'mak', 'make', 'makef', 'ar', 'arm', 'mc', 'xm', 'k']) {
      assert.deepEqual(kept(typed.searchSync({ query: q, max_results: CAP })), exhaustive(index, q), q);
    }
  });
});
