// Decision 736: a streamed line past 64 Mi bytes is counted in characters (UTF-16 code units, what
// the bound counts) as it comes, so one past the bound is dropped rather than held. Utf16Counter
// counts valid UTF-8 from its bytes and decodes the rest; its count and its "anything but white
// space" must be exactly those of the text decoded whole, however the bytes are cut.
import { strict as assert } from 'node:assert';
import { Utf16Counter } from '../../../src/agents/convert/utf16Count';

function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

function counted(bytes: Uint8Array, cuts: number[]): { units: number; nonBlank: boolean } {
  const c = new Utf16Counter();
  let i = 0;
  for (const size of cuts) {
    c.write(bytes.subarray(i, i + size));
    i += size;
  }
  c.write(bytes.subarray(i));
  c.end();
  return { units: c.units, nonBlank: c.nonBlank };
}

describe('rawp convert: a long streamed line is counted in characters from its bytes (decision 736)', () => {
  it('valid text of 1- to 4-byte characters, or ASCII only, cut anywhere and lying at any offset of its buffer: the decoded length (a 4-byte character counts 2)', () => {
    for (const text of ['aé世😀 ж\u3000'.repeat(3000), 'plain text, ASCII only. '.repeat(3000)]) {
      const bytes = Buffer.from(text);
      for (const offset of [0, 1, 2, 3]) {
        const backing = Buffer.alloc(bytes.length + 8);
        bytes.copy(backing, offset);
        const view = backing.subarray(offset, offset + bytes.length);
        for (const size of [1, 2, 3, 5, 4096, 1 << 20]) {
          assert.deepEqual(counted(view, Array(Math.ceil(bytes.length / size)).fill(size)), { units: text.length, nonBlank: true }, `offset ${offset}, pieces of ${size}`);
        }
      }
    }
  });

  it('any bytes, valid or not, in any pieces: the length and the white-space test of Buffer\'s decoding of the whole', () => {
    const next = random(7360);
    const pool = [0x41, 0x20, 0x09, 0x0d, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xe3, 0x80, 0x80, 0xf0, 0x9f, 0x98, 0x80, 0xc2, 0xa0, 0x80, 0xbf, 0xc0, 0xc1, 0xed, 0xa0, 0xf4, 0x90, 0xf5, 0xff];
    for (let t = 0; t < 5000; t++) {
      const blank = next(4) === 0;
      const bytes = Buffer.from(Array.from({ length: next(t % 10 ? 30 : 3000) }, () => (blank ? [0x20, 0x09, 0x0d, 0xe3, 0x80, 0x80][next(6)] : pool[next(pool.length)])));
      const cuts = Array.from({ length: 1 + next(8) }, () => next(t % 10 ? 6 : 700));
      const text = bytes.toString('utf8');
      assert.deepEqual(counted(bytes, cuts), { units: text.length, nonBlank: /\S/.test(text) }, `${bytes.toString('hex')} cut ${cuts.join(',')}`);
    }
  });
});
