// `rawp convert` reads its input as it comes (decision 726): LineSplitter turns chunks of bytes into
// exactly the lines the whole text split on /\r?\n/ gave (a byte order mark dropped), and a line
// over its bound into its length only, without keeping it.
import { strict as assert } from 'node:assert';
import { LineSplitter, type LineEntry } from '../../../src/agents/convert/lineSplitter';

function splitInChunks(bytes: Buffer, size: number, max = 1 << 20): LineEntry[] {
  const s = new LineSplitter(max);
  const out: LineEntry[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  out.push(...s.end());
  return out;
}

/** The whole-text split, without the trailing '' a final line break leaves (blank lines are dropped anyway). */
function wholeSplit(text: string): string[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

describe('rawp convert: the streamed input is split into the whole text\'s lines (decision 726)', () => {
  const text = '\ufeff{"a":"héllo — 世界 🎉"}\r\n\n  \r\n{"b":1}\r{"c":2}\n{"d":"\r"}\r\n{"last":"no line break"}\r';

  it('any chunking (1 byte, a multi-byte character cut in two, CR LF cut in two) gives the same lines as the whole text split on /\\r?\\n/', () => {
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 5, 7, 13, bytes.length]) assert.deepEqual(splitInChunks(bytes, size), wholeSplit(text), `chunks of ${size}`);
    assert.deepEqual(splitInChunks(Buffer.from('a\nb\n'), 1), ['a', 'b']);
    assert.deepEqual(splitInChunks(Buffer.from(''), 1), []);
    // A mark after the start is text, as before.
    assert.deepEqual(splitInChunks(Buffer.from('x\n\ufeffy'), 1), ['x', '\ufeffy']);
  });

  it('a line over the bound comes out as its length (its CR before LF not counted), a blank one as \'\', and the next lines as they are; at the bound plus CR LF a line is kept', () => {
    const max = 10;
    const long = 'x'.repeat(25);
    const cases: Array<[string, LineEntry[]]> = [
      [`a\n${long}\r\nb\n`, ['a', 25, 'b']],
      [`a\n${long}\nb`, ['a', 25, 'b']],
      [`${long}`, [25]],
      [`${long}\r`, [26]], // no LF: the CR is part of the line, as in the whole split
      [`${' '.repeat(30)}\nb`, ['', 'b']],
      [`${'y'.repeat(max)}\r\nz`, ['y'.repeat(max), 'z']],
      [`${'y'.repeat(max + 1)}\nz`, ['y'.repeat(max + 1), 'z']], // kept: unreadableLine then refuses it by its length
      [`${'y'.repeat(max + 2)}\nz`, [max + 2, 'z']],
      [`  ${'y'.repeat(20)}  \r\nz`, [24, 'z']],
    ];
    for (const [input, want] of cases) {
      for (const size of [1, 3, 64]) assert.deepEqual(splitInChunks(Buffer.from(input), size, max), want, `${JSON.stringify(input)} in chunks of ${size}`);
    }
  });

  it('an over-long line is counted, not kept: 64 MiB in one line with a bound of 1 KiB leaves the splitter holding nothing of it', () => {
    const s = new LineSplitter(1024);
    const chunk = Buffer.alloc(1 << 20, 'q');
    const out: LineEntry[] = [];
    for (let i = 0; i < 64; i++) out.push(...s.push(chunk));
    assert.equal(s.heldBytes, 0, 'no byte of the line is kept');
    out.push(...s.push('\nnext\n'), ...s.end());
    assert.deepEqual(out, [64 << 20, 'next']);
  });
});

/** A small deterministic generator (the same cases every run). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

/** The lines of `bytes` as `rawp convert FILE` reads them (Buffer's UTF-8 decoder, the whole text), by the splitter's rules. */
function wholeLines(bytes: Buffer, max: number): LineEntry[] {
  const lines = bytes.toString('utf8').replace(/^\ufeff/, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l, i) => {
    const cr = i < lines.length - 1 || bytes.at(-1) === 0x0a ? (l.endsWith('\r') ? 1 : 0) : 0;
    if (l.length <= max + 1) return l.slice(0, l.length - cr);
    return /\S/.test(l) ? l.length - cr : '';
  });
}

describe('rawp convert: the streamed input is split on LF as bytes, each line decoded once (decision 736)', () => {
  it('a line across chunks is held as its bytes until its LF and decoded then, whole; once decoded nothing of it is held', () => {
    const s = new LineSplitter(1 << 20);
    const line = Buffer.from(`{"text":"${'жé😀 '.repeat(5000)}"}`);
    const out: LineEntry[] = [];
    for (let i = 0; i < line.length; i += 1000) {
      out.push(...s.push(line.subarray(i, i + 1000)));
      assert.equal(s.heldBytes, Math.min(i + 1000, line.length), 'the bytes so far, not decoded pieces');
    }
    assert.deepEqual(out, []);
    assert.deepEqual(s.push(Buffer.from('\r\nnext')), [line.toString('utf8')]);
    assert.equal(s.heldBytes, 4, 'only the next line\'s bytes');
    assert.deepEqual(s.end(), ['next']);
    assert.equal(s.heldBytes, 0);
  });

  it('characters, not bytes, against the bound: multi-byte lines up to bound + 1 characters are kept, longer ones counted in characters (a 4-byte character is 2)', () => {
    const max = 4;
    const cases: Array<[string, LineEntry[]]> = [
      ['жжжж\nz', ['жжжж', 'z']], // 8 bytes, 4 characters
      ['жжжжж\nz', ['жжжжж', 'z']], // bound + 1: kept
      ['жжжжжж\r\nz', [6, 'z']],
      ['😀😀\nz', ['😀😀', 'z']], // 8 bytes, 4 units
      ['😀😀😀\nz', [6, 'z']],
      ['\u3000\u3000\u3000\u3000\u3000\u3000\nz', ['', 'z']], // ideographic spaces: blank
    ];
    for (const [input, want] of cases) {
      for (const size of [1, 2, 3, 64]) assert.deepEqual(splitInChunks(Buffer.from(input), size, max), want, `${JSON.stringify(input)} in chunks of ${size}`);
    }
  });

  it('any bytes (invalid UTF-8, a byte order mark cut anywhere or half there, CR, white space of every width) in any chunking, with bounds around the lines\' lengths: the lines of the whole text decoded as a FILE is', () => {
    const next = random(736);
    const pieces = ['a', ' ', '\t', '\r', '\n', '\n', 'ж', '世', '😀', '\u00a0', '\u3000', '\ufeff', '"'].map((t) => Buffer.from(t));
    const invalid = [0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0x82, 0xed, 0xa0, 0xf0, 0x9f, 0xf4, 0x90, 0xff].map((b) => Buffer.from([b]));
    for (let t = 0; t < 4000; t++) {
      const parts: Buffer[] = [];
      if (next(3) === 0) parts.push(Buffer.from([0xef, 0xbb, 0xbf].slice(0, 1 + next(3))));
      const n = next(t % 10 === 0 ? 600 : 40);
      for (let i = 0; i < n; i++) parts.push(next(8) === 0 ? invalid[next(invalid.length)] : pieces[next(pieces.length)]);
      const bytes = Buffer.concat(parts);
      const max = 1 + next(t % 10 === 0 ? 400 : 10);
      const want = wholeLines(bytes, max);
      const s = new LineSplitter(max);
      const got: LineEntry[] = [];
      for (let i = 0; i < bytes.length; ) {
        const size = 1 + next(t % 2 ? 7 : 97);
        got.push(...s.push(bytes.subarray(i, i + size)));
        i += size;
      }
      got.push(...s.end());
      assert.deepEqual(got, want, `${bytes.toString('hex')} with a bound of ${max}`);
    }
  });
});
