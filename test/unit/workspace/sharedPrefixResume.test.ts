// The scan's shared-prefix resume (issue 18): a path's subsequence test starts after the prefix it
// shares with the last path tested. Deep trees of look-alike paths must still match exactly what a
// plain subsequence test matches, fresh and keystroke by keystroke.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher } from '../../../src/workspace/fileSearch';
import { PathSnapshot } from '../../../src/workspace/pathSnapshot';

function isSubsequence(q: string, path: string): boolean {
  const l = path.toLowerCase();
  let j = 0;
  for (const c of q) {
    j = l.indexOf(c, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}

// Few short segments, so sorted neighbours share long directory prefixes.
const segment = fc.constantFrom('a', 'ab', 'Ba', 'cab', 'b_c', 'ca.b', 'aaB');
const pathArb = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));

describe('workspace/sharedPrefixResume: resuming after a shared prefix loses no match', () => {
  it('§16.1.1 sharedPrefix is the common prefix with the previous sorted path, case included (a directory part scores alike only in the same case)', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { minLength: 1, maxLength: 40 }), (paths) => {
        const snap = PathSnapshot.build(paths);
        for (let i = 1; i < snap.size; i++) {
          const a = snap.pathAt(i - 1);
          const b = snap.pathAt(i);
          let l = 0;
          while (l < a.length && l < b.length && a[l] === b[l]) l++;
          assert.equal(snap.sharedPrefix[i], l, `${a} | ${b}`);
        }
        assert.equal(snap.sharedPrefix[0], 0);
      }),
      { numRuns: 200 },
    );
  });

  it('§16.1.1 fresh and typed searches match exactly the subsequence matches, with the same hits', () => {
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 80 }), fc.stringMatching(/^[abc_./]{2,6}$/), (paths, query) => {
        const index = FileIndex.fromPaths([{ name: 'ws', paths }]);
        const fresh = new FileSearcher(index, 8).searchSync({ query, max_results: 50 });
        assert.equal(fresh.total_count, paths.filter((p) => isSubsequence(query, p)).length);
        const typed = new FileSearcher(index, 8);
        let last = fresh;
        for (let k = 1; k <= query.length; k++) last = typed.searchSync({ query: query.slice(0, k), max_results: 50 });
        const view = (r: typeof fresh) => r.hits.map(({ path, score, match_ranges }) => ({ path, score, match_ranges }));
        assert.equal(last.total_count, fresh.total_count);
        assert.deepEqual(view(last), view(fresh));
      }),
      { numRuns: 300 },
    );
  });
});
