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
    const held = (s as unknown as { pieces: string[] }).pieces;
    assert.equal(held.length, 0, 'no piece of the line is kept');
    out.push(...s.push('\nnext\n'), ...s.end());
    assert.deepEqual(out, [64 << 20, 'next']);
  });
});
