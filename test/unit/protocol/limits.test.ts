// The UTF-8 count behind every frame budget (history, max_frame_size, frameFit): Node's native
// count where there is one, the loop in the view's bundle; both must give the same number for any
// frame text (decision 516).
import { strict as assert } from 'node:assert';
import { bytesOver, utf8Length, utf8LengthByLoop } from '../../../src/protocol/limits';
import { charactersCut, cutMark } from '../../../src/protocol/cutMark';

const TEXTS = ['', 'plain ASCII line\n', '가나다라 한국어', '😀😃 emoji', 'a😀b', 'ünïcödé ½ ∑', '\u0000\u007f\u0080\u07ff\u0800\uffff'];

describe('protocol/limits: UTF-8 counts (§12.2 max_frame_size, §7.1.1 history budget)', () => {
  it('§12.2 the native count and the loop agree with the encoder, for every kind of character', () => {
    for (const t of TEXTS) {
      const expected = new TextEncoder().encode(t).length;
      assert.equal(utf8Length(t), expected, JSON.stringify(t));
      assert.equal(utf8LengthByLoop(t), expected, JSON.stringify(t));
    }
  });

  it('§12.2 for frame text (JSON.stringify escapes lone surrogates) both count the same', () => {
    const json = JSON.stringify({ a: '\ud800', b: 'x\udc00y', c: '\ud83d\ude00', d: '한' });
    assert.equal(utf8Length(json), utf8LengthByLoop(json));
    assert.equal(utf8Length(json), Buffer.byteLength(json, 'utf8'));
  });

  it('§12.2 bytesOver: decided by length alone when it can be, counted otherwise', () => {
    assert.equal(bytesOver('x'.repeat(100), 40), 60);
    assert.equal(bytesOver('x'.repeat(10), 40), 0);
    assert.equal(bytesOver('가'.repeat(20), 40), 20); // 60 bytes
    assert.equal(bytesOver('가'.repeat(13), 40), 0); // 39 bytes
  });

  it('the cut mark carries its count: a text stands for that many characters more, less the mark', () => {
    const text = `start${cutMark(1_000)}end`;
    assert.equal(charactersCut(text), 1_000 - cutMark(1_000).length);
    assert.equal(charactersCut('no mark here'), 0);
  });
});
