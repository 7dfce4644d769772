// The score upper bound the scan prunes with (issue 18): it must never be below the exact score, or
// a file that belongs in the top results would be skipped unread. Checked against the DP over
// random paths and queries, with the per-path masks the snapshot keeps (nameMask, startMask).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { PathSnapshot, charBit } from '../../../src/workspace/pathSnapshot';
import { bestAlignment, scoreUpperBound } from '../../../src/workspace/fuzzyScore';
import { lowerSameLength } from '../../../src/workspace/searchText';

const segment = fc.stringMatching(/^[a-cA-C0-9_.\-]{1,7}$/);
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const queryArb = fc.stringMatching(/^[a-c0-9._]{1,5}$/);

/** The first query index whose character is in the word-start mask (q.length: none). */
function firstAt(startMask: number, q: string): number {
  let f = 0;
  while (f < q.length && (startMask & charBit(q.charCodeAt(f))) === 0) f++;
  return f;
}

describe('workspace/scoreBound: pruning never drops a file that could rank', () => {
  it('§16.1.1 scoreUpperBound ≥ the exact score for every matching path (name prefix, first query character at a word start)', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.array(pathArb, { minLength: 1, maxLength: 20 }), queryArb, (paths, q) => {
        const snap = PathSnapshot.build(paths);
        const qm = [...q].reduce((mk, c) => mk | charBit(c.charCodeAt(0)), 0);
        for (let i = 0; i < snap.size; i++) {
          const path = snap.pathAt(i);
          const lower = lowerSameLength(path);
          const bs = snap.baseStart[i];
          const a = bestAlignment(path, lower, bs, q);
          if (!a) continue;
          checked++;
          const len = path.length;
          const ub = scoreUpperBound(q.length, len, len - bs, (snap.nameMask[i] & qm) === qm, lower.startsWith(q, bs), firstAt(snap.startMask[i], q));
          assert.ok(ub >= a.score, `${path} / ${q}: bound ${ub} < score ${a.score}`);
        }
      }),
      { numRuns: 400 },
    );
    assert.ok(checked > 200, `only ${checked} matches checked`);
  });

  it('§16.1.1 startMask holds exactly the characters at word starts', () => {
    const snap = PathSnapshot.build(['src/chatWidget_host.ts']);
    const has = (c: string) => (snap.startMask[0] & charBit(c.charCodeAt(0))) !== 0;
    for (const c of 'scwht') assert.ok(has(c), c);
    for (const c of 'ra') assert.ok(!has(c), c);
  });
});
