// The Read tool's line window (src/tools/read.ts lineWindow): only the asked-for lines are built, so
// a 20 MB file does not become 400,000 strings on the host's event loop (issue 12 finding 2).
import { strict as assert } from 'node:assert';
import { lineWindow } from '../../../src/tools/read';

/** What Read computed before: the whole text split into lines (CRLF as LF, a final newline ends the last line). */
function splitWhole(text: string, start: number, limit: number): { window: string[]; count: number } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { window: lines.slice(start, start + limit), count: lines.length };
}

describe('tools: Read line window (§5.3.3 file_content)', () => {
  it('§5.3.3 gives the same lines and line count as splitting the whole text (20,000 random texts of LF, CRLF and lone CR)', () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const parts = ['a', '\n', '\r', '\r\n', '', ' b'];
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(rnd() * 10) }, () => parts[Math.floor(rnd() * parts.length)]).join('');
      const start = Math.floor(rnd() * 4);
      const limit = 1 + Math.floor(rnd() * 4);
      assert.deepEqual(lineWindow(text, start, limit), splitWhole(text, start, limit), JSON.stringify({ text, start, limit }));
    }
  });

  it('§5.3.3 a 20 MB file: the first 2,000 of 400,000 lines, and the count, without building the rest', () => {
    const text = 'const v = foo(bar) + foo(baz); // padding padding\n'.repeat(400_000);
    const { window, count } = lineWindow(text, 0, 2000);
    assert.equal(count, 400_000);
    assert.equal(window.length, 2000);
    assert.equal(window[1999], 'const v = foo(bar) + foo(baz); // padding padding');
  });
});
