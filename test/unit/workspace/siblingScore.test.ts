// The sibling rule of the @-search scan (issue 18, decision 520): a deferred match whose basename
// lacks the query's last letter is scored by its directory part alone, so a sibling with the same
// directory part (same bytes and case: sharedPrefix) may take its result — the exact score always,
// an early exit only where it holds for the sibling's own floor too. The scan-level property tests
// are in scanReference.test.ts; these pin the rule itself.
import { strict as assert } from 'node:assert';
import { BELOW_FLOOR } from '../../../src/workspace/quickScoreBytes';
import { SiblingScore, UNKNOWN } from '../../../src/workspace/siblingScore';

/** sharedPrefix of paths 0..n-1 where every neighbour shares `shared` bytes. */
const chain = (n: number, shared: number) => Uint16Array.from({ length: n }, (_, i) => (i === 0 ? 0 : shared));

describe('workspace/siblingScore: a sibling takes a directory part\'s score only where it must be the same', () => {
  it('§16.1.1 an exact score is given to the next files of the same directory, whatever their floor', () => {
    const s = new SiblingScore();
    const shared = chain(10, 7);
    s.store(2, 7, 123, 40);
    assert.equal(s.lookup(shared, 3, 7, 10), 123);
    assert.equal(s.lookup(shared, 5, 7, 500), 123);
  });

  it('§16.1.1 an early exit is given only to a sibling whose floor is no lower (an equal need or a higher one)', () => {
    const s = new SiblingScore();
    const shared = chain(10, 7);
    s.store(2, 7, BELOW_FLOOR, 40);
    assert.equal(s.lookup(shared, 3, 7, 39), UNKNOWN, 'a lower need: the same score may beat it');
    assert.equal(s.lookup(shared, 3, 7, 40), BELOW_FLOOR);
    assert.equal(s.lookup(shared, 4, 7, 41), BELOW_FLOOR);
  });

  it('§16.1.1 no result crosses a directory: another basename start, a shorter shared prefix on the way, an earlier path, or one too far', () => {
    const s = new SiblingScore();
    const shared = chain(80, 7);
    shared[6] = 6; // path 6 shares only 6 bytes with path 5: another directory from there on
    s.store(2, 7, 123, 40);
    assert.equal(s.lookup(shared, 3, 8, 40), UNKNOWN, 'another basename start');
    assert.equal(s.lookup(shared, 7, 7, 40), UNKNOWN, 'the chain breaks at 6');
    assert.equal(s.lookup(shared, 2, 7, 40), UNKNOWN, 'the path itself');
    assert.equal(s.lookup(shared, 1, 7, 40), UNKNOWN, 'an earlier path');
    s.store(10, 7, 99, 40);
    assert.equal(s.lookup(shared, 43, 7, 40), UNKNOWN, 'more than 32 paths on');
    assert.equal(s.lookup(shared, 42, 7, 40), 99);
    assert.equal(new SiblingScore().lookup(shared, 3, 7, 40), UNKNOWN, 'nothing stored');
  });
});
