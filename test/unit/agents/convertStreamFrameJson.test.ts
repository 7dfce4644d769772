// Decision 736: the conversion thread sends a frame back in bounded parts instead of making its
// whole JSON (a frame carrying a line near the 64 Mi bound was one more copy of the line, and its
// slices a second). The parts joined must be exactly JSON.stringify's text, and none may be big.
import { strict as assert } from 'node:assert';
import { jsonParts } from '../../../src/agents/convert/frameJson';
import { OutPieces } from '../../../src/agents/convert/outPieces';

const joined = (value: unknown, partChars: number) => [...jsonParts(value, partChars)].join('');

describe('rawp convert: a frame\'s JSON in bounded parts (decision 736)', () => {
  it('joined, the parts are JSON.stringify\'s text: nested objects and arrays, undefined and functions left out (null in an array), numbers, escapes, lone surrogates, integer-like keys first', () => {
    const long = `${'ж'.repeat(50)}"\\\n\u0001${'😀'.repeat(40)}\ud800x${'a'.repeat(33)}`;
    const values: unknown[] = [
      { v: 1, type: 'agent.text.delta', payload: { text: long, content_index: 0 }, metadata: undefined },
      [long, undefined, () => 1, null, NaN, -0, 1e21, true, { a: [long, [long]] }],
      { b: 1, 2: 'two', a: long, 1: 'one', skipped: undefined, f: () => 2, nested: { deeper: { text: long, n: [1, 2, 3] } } },
      { empty: {}, list: [], text: '' },
      long,
      'short',
      42,
      null,
    ];
    for (const value of values) {
      for (const partChars of [2, 3, 7, 16, 64, 1 << 20]) assert.equal(joined(value, partChars), JSON.stringify(value), `parts of ${partChars}`);
    }
  });

  it('a string longer than a part is cut between characters, never inside a surrogate pair, each part at most 6 times the part size (every character escaped)', () => {
    for (const partChars of [2, 3, 4, 5, 8]) {
      for (const text of ['😀'.repeat(50), `x${'😀'.repeat(50)}`, '\u0001'.repeat(100)]) {
        const parts = [...jsonParts({ text }, partChars)];
        assert.equal(parts.join(''), JSON.stringify({ text }));
        assert.ok(parts.length > 10, 'cut into parts');
        for (const p of parts) assert.ok(p.length <= 6 * partChars + 16, `part of ${p.length} characters`);
        assert.ok(!parts.join('').includes('\\ud83d'), 'no pair became two escaped halves');
      }
    }
  });

  it('OutPieces: small frames joined into pieces, a big one spread over pieces of the piece size, flushed whenever more than the flush size waits; a frame counts in the message with its first piece', () => {
    const sent: Array<{ out: string[]; frames: number }> = [];
    const out: OutPieces = new OutPieces(1000, 4000, () => sent.push(out.take()));
    const small = { type: 'small', n: 1 };
    const big = { type: 'big', payload: { text: 'ж'.repeat(20_000) } };
    out.add(small);
    out.add(big);
    out.add(small);
    sent.push(out.take());
    const text = sent.flatMap((m) => m.out).join('');
    assert.equal(text, [small, big, small].map((f) => JSON.stringify(f) + '\n').join(''));
    for (const m of sent) for (const piece of m.out) assert.ok(piece.length <= 1000, `a piece of ${piece.length}`);
    assert.ok(sent.length >= 5, `flushed along the way (${sent.length} messages)`);
    assert.equal(sent.reduce((n, m) => n + m.frames, 0), 3);
    assert.equal(sent[0].frames, 2, 'the first message holds the small frame and the big one\'s start');
  });
});
