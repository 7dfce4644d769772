// frameText / frameBytes: a frame is serialized and encoded once even when a few other frames are
// serialized between its uses (a prompt's handling publishes its turn start and state change
// before the prompt is relayed: a 4 MiB prompt was serialized twice, decision 594).
import { strict as assert } from 'node:assert';
import { frameText } from '../../../src/session/frameText';
import { frameBytes } from '../../../src/remote/frameBytes';

/** A frame whose serializations are counted (JSON.stringify calls toJSON once per serialization). */
function counted(name: string): { frame: object; calls: () => number } {
  let calls = 0;
  const frame = {
    toJSON() {
      calls++;
      return { type: name };
    },
  };
  return { frame, calls: () => calls };
}

describe('session/frameText and remote/frameBytes', () => {
  it('a frame used again after three others is not serialized again; after four more it is', () => {
    const big = counted('big');
    assert.equal(frameText(big.frame), '{"type":"big"}');
    for (const other of ['a', 'b', 'c']) frameText(counted(other).frame);
    assert.equal(frameText(big.frame), '{"type":"big"}');
    assert.equal(big.calls(), 1);
    for (const other of ['d', 'e', 'f', 'g']) frameText(counted(other).frame);
    frameText(big.frame);
    assert.equal(big.calls(), 2, 'only the last few are remembered (memory stays bounded)');
  });

  it('frameBytes: the same Buffer for a frame among the last few, its text encoded once', () => {
    const big = counted('bytes');
    const first = frameBytes(big.frame);
    for (const other of ['h', 'i', 'j']) frameBytes(counted(other).frame);
    assert.equal(frameBytes(big.frame), first, 'the very same Buffer');
    assert.equal(big.calls(), 1);
    assert.equal(first.toString('utf8'), '{"type":"bytes"}');
  });
});
