// Interleaved parts of a snapshot (issue 18): the scan workers each take every `stride`-th block
// of paths instead of one contiguous share, so a query whose matches crowd into one directory no
// longer leaves one worker with most of the work. The parts must still cover every path exactly
// once, and their lists must merge into exactly what one scan of the whole snapshot keeps, typed
// keystroke by keystroke (each part narrows from its own survivors).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { scanQueryOf, scanSnapshot, ScanState } from '../../../src/workspace/folderScan';
import { PathSnapshot } from '../../../src/workspace/pathSnapshot';
import { inRange, rangeKey, rangeSize, runsOf, sameRange, type ScanRange } from '../../../src/workspace/scanRange';
import { normalizeQuery } from '../../../src/workspace/searchText';
import { TopHeap } from '../../../src/workspace/topHeap';

const dir = fc.constantFrom('ab', 'ba', 'abc', 'cab', 'a_b', 'Ab', 'c.a', 'bb', 'a1');
const name = fc.stringMatching(/^[abcAB_.1]{1,6}$/);
const pathArb = fc.tuple(fc.array(dir, { maxLength: 3 }), name).map(([dirs, n]) => [...dirs, n].join('/'));
const CAP = 5;

/** What a scan of `range` kept: its list as (score, index) pairs, and its count of matches. */
function scanned(state: ScanState, snap: PathSnapshot, q: string, range: ScanRange, heap = new TopHeap(CAP)) {
  const steps = scanSnapshot(state, snap, scanQueryOf(normalizeQuery(q)), range, undefined, undefined, { heap, tieBase: 0, onPush: (i) => i });
  let r = steps.next();
  while (!r.done) r = steps.next();
  return { heap, total: r.value };
}

const entries = (h: TopHeap) =>
  Array.from({ length: h.size }, (_, k) => [h.scores[k], h.refs[k]] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);

describe('workspace/scanRange: interleaved parts of a snapshot (issue 18)', () => {
  it('§16.1 the parts of a stride cover every index of [lo, hi) exactly once, and inRange, rangeSize and the runs agree', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(300), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 40 }), (lo, len, stride, block) => {
        const hi = lo + len;
        const owner = new Map<number, number>();
        for (let phase = 0; phase < stride; phase++) {
          const range = { lo, hi, stride, phase, block };
          const runs = runsOf(range);
          let n = 0;
          for (let r = 0; r < runs.length; r += 2) {
            assert.ok(runs[r] < runs[r + 1] && (r === 0 || runs[r] > runs[r - 1]), 'ascending, non-empty runs');
            for (let i = runs[r]; i < runs[r + 1]; i++) {
              assert.ok(!owner.has(i), `index ${i} in two parts`);
              owner.set(i, phase);
              assert.ok(inRange(range, i));
              n++;
            }
          }
          assert.equal(rangeSize(range), n);
        }
        assert.equal(owner.size, len, 'every index has a part');
        for (let i = lo - 2; i < hi + 2; i++) if (i < lo || i >= hi) for (let phase = 0; phase < stride; phase++) assert.ok(!inRange({ lo, hi, stride, phase, block }, i));
      }),
      { numRuns: 300 },
    );
    assert.ok(sameRange({ lo: 0, hi: 9 }, { lo: 0, hi: 9, stride: 1, phase: 3 }), 'stride 1 is the whole range');
    assert.ok(!sameRange({ lo: 0, hi: 9, stride: 2, phase: 0 }, { lo: 0, hi: 9, stride: 2, phase: 1 }));
    assert.notEqual(rangeKey({ lo: 0, hi: 9, stride: 2, phase: 0 }), rangeKey({ lo: 0, hi: 9, stride: 2, phase: 1 }));
  });

  it('§16.1.1 the parts\' lists, typed keystroke by keystroke, merge into exactly the whole scan\'s list and count (500 random workspaces)', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 150 }), fc.stringMatching(/^[abc_.1]{1,5}$/), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 16 }), (paths, query, stride, block) => {
        const snap = PathSnapshot.build(paths);
        const whole = new ScanState();
        const parts = Array.from({ length: stride }, () => new ScanState());
        for (let k = 1; k <= query.length; k++) {
          const q = query.slice(0, k);
          const want = scanned(whole, snap, q, { lo: 0, hi: snap.size });
          const merged = new TopHeap(CAP);
          let total = 0;
          parts.forEach((state, phase) => {
            const got = scanned(state, snap, q, { lo: 0, hi: snap.size, stride, phase, block });
            total += got.total;
            for (let e = 0; e < got.heap.size; e++) if (merged.admits(got.heap.scores[e], got.heap.ties[e])) merged.push(got.heap.scores[e], got.heap.ties[e], got.heap.refs[e]);
          });
          assert.equal(total, want.total, `count of ${q}`);
          assert.deepEqual(entries(merged), entries(want.heap), `list of ${q}`);
          compared++;
        }
      }),
      { numRuns: 500 },
    );
    assert.ok(compared > 1000);
  });
});
