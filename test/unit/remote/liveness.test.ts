// Decision 571: what the heartbeat counts as a live master.
import { strict as assert } from 'node:assert';
import { Liveness } from '../../../src/remote/liveness';

/** How many heartbeats pass before the peer is dropped, when nothing more happens. */
function beatsUntilDropped(l: Liveness): number {
  for (let n = 1; n <= 10; n++) if (!l.beat()) return n;
  return Infinity;
}

describe('remote/liveness of a master at the heartbeat (decision 571)', () => {
  it('a peer that never answers is dropped at the second heartbeat; one that answers every ping never is', () => {
    assert.equal(beatsUntilDropped(new Liveness()), 2);
    const answering = new Liveness();
    for (let n = 0; n < 10; n++) {
      assert.equal(answering.beat(), true);
      answering.pong();
    }
  });

  it('a peer whose history keeps moving is alive without answering; once it stops, its ping is tolerated once more (it may wait behind the history the kernel still holds), then it is dropped', () => {
    const l = new Liveness();
    for (let n = 0; n < 10; n++) {
      assert.equal(l.beat(), true);
      l.progress();
    }
    assert.equal(beatsUntilDropped(l), 3);
  });

  it('the extra heartbeat is granted once per progress, not for ever', () => {
    const l = new Liveness();
    l.progress();
    assert.equal(l.beat(), true);
    assert.equal(l.beat(), true, 'the tolerated one');
    l.pong();
    assert.equal(beatsUntilDropped(l), 2, 'after that, like any peer');
  });
});
