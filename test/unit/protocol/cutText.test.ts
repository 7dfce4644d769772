// Cutting text without leaving half of a surrogate pair (src/protocol/cutText.ts): from the start
// (cutAt) and keeping the end (lastUnits, a path's file name: the unloaded command files' paths).
import { strict as assert } from 'node:assert';
import { cutAt, lastUnits } from '../../../src/protocol/cutText';

describe('protocol/cutText', () => {
  it('cutAt keeps at most `keep` units and never ends on a high surrogate', () => {
    assert.equal(cutAt('abcdef', 3), 'abc');
    assert.equal(cutAt('ab😀cd', 3), 'ab', 'the pair is not split: its first half goes too');
    assert.equal(cutAt('ab😀cd', 4), 'ab😀');
  });

  it('lastUnits keeps at most the last `keep` units and never starts on a low surrogate', () => {
    assert.equal(lastUnits('abcdef', 3), 'def');
    assert.equal(lastUnits('ab😀cd', 3), 'cd', 'the pair is not split: its second half goes too');
    assert.equal(lastUnits('ab😀cd', 4), '😀cd');
    assert.equal(lastUnits('abc', 10), 'abc');
    assert.equal(lastUnits('abc', 0), '');
  });
});
