// PathLocks (src/workspace/pathLocks.ts): the per-path critical section both FsBackends run their
// writes in (spec read-before-write.md: "check guard -> transform -> write" must not interleave).
import { strict as assert } from 'node:assert';
import { PathLocks } from '../../../src/workspace/pathLocks';

/** A promise and its resolver, to hold a critical section open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('workspace: PathLocks, one write per path at a time (read-before-write)', () => {
  it('read-before-write: a second section for the same path starts only after the first ended, even when the first failed', async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const first = gate();
    const a = locks.run('/w/a.txt', async () => {
      order.push('a start');
      await first.promise;
      order.push('a end');
      throw new Error('a failed');
    });
    const b = locks.run('/w/a.txt', async () => {
      order.push('b');
      return 'b done';
    });
    // Bounded wait until the first section is inside: b must not have started meanwhile.
    for (const deadline = Date.now() + 5_000; !order.includes('a start'); ) {
      if (Date.now() > deadline) throw new Error('the first section never started');
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(order, ['a start']);
    first.open();
    await assert.rejects(a, /a failed/);
    assert.equal(await b, 'b done');
    assert.deepEqual(order, ['a start', 'a end', 'b']);
  });

  it('read-before-write: sections for different paths do not wait for each other', async () => {
    const locks = new PathLocks();
    const held = gate();
    const slow = locks.run('/w/slow.txt', () => held.promise.then(() => 'slow'));
    // Would never settle if /w/other.txt waited for /w/slow.txt.
    assert.equal(await locks.run('/w/other.txt', async () => 'other'), 'other');
    held.open();
    assert.equal(await slow, 'slow');
  });
});
