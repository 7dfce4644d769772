// The deferred matches' early exit, cut by what the query's first character cannot earn in a path
// (issue 18, decision 527): no word start of its character there, so none of the doubled bonus
// `rest` grants it. The exit must still mean "at most the caller's need", and a sibling that takes
// an early exit (decision 520) must be weighed against that need, not against the raised one.
// The scan-level property (every keystroke against scoring every path) is scanReference.test.ts.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { charBit, PathSnapshot } from '../../../src/workspace/pathSnapshot';
import { BELOW_FLOOR, quickScoreRaw } from '../../../src/workspace/quickScoreBytes';
import { firstCharCut, quickBonusCaps, quickScoreRest } from '../../../src/workspace/quickBound';
import { deferredRaw, SiblingScore } from '../../../src/workspace/siblingScore';

/** One path of a snapshot as the scan hands it to deferredRaw, and its exact raw quick score. */
function scored(snap: PathSnapshot, path: string, q: string) {
  const i = Array.from({ length: snap.size }, (_, k) => snap.pathAt(k)).indexOf(path);
  const qb = Uint8Array.from(q, (c) => c.charCodeAt(0));
  const caps = quickBonusCaps(qb);
  const s0 = snap.offsets[i];
  const e0 = snap.offsets[i + 1];
  const rest = quickScoreRest(caps);
  const lacksLast = (snap.nameMask[i] & charBit(qb[qb.length - 1])) === 0;
  return {
    exact: quickScoreRaw(snap.chars, snap.upper, s0, e0, s0 + snap.baseStart[i], qb, qb.length),
    cut: firstCharCut(snap.startMask[i], charBit(qb[0]), caps[0]),
    lacksLast,
    call: (siblings: SiblingScore, need: number, cut: number) => deferredRaw(siblings, snap.chars, snap.upper, snap.sharedPrefix, i, s0, e0, snap.baseStart[i], qb, qb.length, rest, need, lacksLast, cut),
  };
}

describe('workspace/firstCharCut: the deferred early exit without the first character\'s bonus a path cannot earn (decision 527)', () => {
  it('§16.1.1 the cut is the first character\'s whole share when its character sits at no word start, else nothing', () => {
    const bit = charBit('c'.charCodeAt(0));
    assert.equal(firstCharCut(0, bit, 32), 32);
    assert.equal(firstCharCut(charBit('a'.charCodeAt(0)), bit, 32), 32, 'another character at a word start does not count');
    assert.equal(firstCharCut(bit | charBit('a'.charCodeAt(0)), bit, 32), 0);
    const snap = PathSnapshot.build(['src/xcore/ycat.ts', 'src/core/cat.ts']);
    assert.equal(scored(snap, 'src/xcore/ycat.ts', 'cat').cut, 32, 'c sits inside words only');
    assert.equal(scored(snap, 'src/core/cat.ts', 'cat').cut, 0, 'c starts "core" and "cat"');
  });

  // Directories and basenames from a few letters and separators, so a query's first letter sits at
  // word starts in some paths and only inside words in others; basenames never start with a query
  // letter (deferred matches: no name boost).
  const segment = fc.stringMatching(/^[abcxy][abcxyAB_]{0,6}$/);
  const dirArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
  const nameArb = fc.stringMatching(/^[xy][abcxyB_.]{0,8}$/);
  const queryArb = fc.stringMatching(/^[abc]{2,4}$/);

  it('§16.1.1 with the cut, an early exit still means at most the caller\'s need, and a score above it is exact', () => {
    let exits = 0;
    fc.assert(
      fc.property(dirArb, nameArb, queryArb, fc.integer({ min: -40, max: 40 }), (dir, name, q, delta) => {
        const path = `${dir}/${name}`;
        const p = scored(PathSnapshot.build([path]), path, q);
        if (p.exact < -1000) return; // not a match
        const need = p.exact + delta;
        const raw = p.call(new SiblingScore(), need, p.cut);
        if (raw === BELOW_FLOOR) {
          assert.ok(p.exact <= need, `${path} for ${q}: an early exit at need ${need} for an exact ${p.exact}`);
          if (p.cut > 0) exits++;
        } else assert.equal(raw, p.exact, `${path} for ${q}`);
      }),
      { numRuns: 3000, seed: 527 },
    );
    assert.ok(exits > 50, `the cut took part in early exits (${exits})`);
  });

  it('§16.1.1 a sibling weighs an early exit against its own need, not the raised one: one that beats its need is still scored', () => {
    let decisive = 0;
    fc.assert(
      fc.property(dirArb, nameArb, nameArb, queryArb, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 40 }), (dir, nameA, nameB, q, overA, underB) => {
        if (nameA === nameB) return;
        const [a, b] = [`${dir}/${nameA}`, `${dir}/${nameB}`].sort();
        const snap = PathSnapshot.build([a, b]);
        const pa = scored(snap, a, q);
        const pb = scored(snap, b, q);
        if (pa.exact < -1000 || pb.exact < -1000) return;
        const siblings = new SiblingScore();
        const needA = pa.exact + overA; // a may stop early: it cannot beat needA
        const rawA = pa.call(siblings, needA, pa.cut);
        const needB = pb.exact - underB; // b beats its need: it must get its exact score
        const raw = pb.call(siblings, needB, pb.cut);
        assert.equal(raw, pb.exact, `${b} after ${a} for ${q} (needs ${needA}, ${needB}; cuts ${pa.cut}, ${pb.cut})`);
        // Where a lookup with b's raised need would have taken a's early exit for b, which beats its own.
        if (rawA === BELOW_FLOOR && pa.lacksLast && pb.lacksLast && needB + pb.cut >= needA) decisive++;
      }),
      { numRuns: 6000, seed: 527 },
    );
    assert.ok(decisive > 5, `cases where the raised need would have misled were met (${decisive})`);
  });
});
