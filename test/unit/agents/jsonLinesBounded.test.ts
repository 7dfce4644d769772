// Decision 543: JsonLineReader searches each chunk once (a long line no longer costs the square of
// its length), and a line over the limit is dropped whole and reported once, the lines after it
// read as usual.
import { strict as assert } from 'node:assert';
import { JsonLineReader } from '../../../src/agents/process/jsonLines';

function collect(maxLineChars?: number) {
  const messages: unknown[] = [];
  const bad: { line: string; reason: string }[] = [];
  const reader = new JsonLineReader({ onMessage: (v) => messages.push(v), onBadLine: (line, reason) => bad.push({ line, reason }) }, maxLineChars);
  return { reader, messages, bad };
}

/** Characters searched for '\n' by String.prototype.indexOf while `run` runs. */
function newlineSearchCost(run: () => void): number {
  const original = String.prototype.indexOf;
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, from?: number) {
    if (search === '\n') scanned += this.length - (from ?? 0);
    return original.call(this, search, from);
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = original;
  }
  return scanned;
}

describe('agents/process JsonLineReader: long lines (decision 543)', () => {
  it('a 4 MB line in 64 KB chunks is searched about once, not once per chunk', () => {
    const { reader, messages } = collect();
    const data = 'a'.repeat(4 * 1024 * 1024);
    const line = Buffer.from(JSON.stringify({ data }) + '\n');
    const scanned = newlineSearchCost(() => {
      for (let i = 0; i < line.length; i += 65536) reader.push(line.subarray(i, i + 65536));
    });
    assert.equal(messages.length, 1);
    assert.equal((messages[0] as { data: string }).data.length, data.length);
    // Rescanning the growing buffer searched ~64 × 2 MB = 137 M characters here.
    assert.ok(scanned <= 2 * line.length, `searched ${scanned} characters for a line of ${line.length}`);
  });

  it('a line over the limit, arriving in pieces, is dropped and reported once; the next line is read', () => {
    const { reader, messages, bad } = collect(100);
    const long = JSON.stringify({ d: 'x'.repeat(250) });
    const stream = `${long}\n{"a":1}\n`;
    for (let i = 0; i < stream.length; i += 30) reader.push(stream.slice(i, i + 30));
    reader.end();
    assert.deepEqual(messages, [{ a: 1 }]);
    assert.equal(bad.length, 1, JSON.stringify(bad));
    assert.match(bad[0].reason, /line longer than 100 characters dropped/);
    assert.ok(bad[0].line.startsWith('{"d":"xxx'));
  });

  it('a whole line over the limit inside one chunk is dropped too', () => {
    const { reader, messages, bad } = collect(100);
    reader.push(`${JSON.stringify({ d: 'x'.repeat(250) })}\n{"b":2}\n`);
    assert.deepEqual(messages, [{ b: 2 }]);
    assert.equal(bad.length, 1);
  });

  it('an over-long last line without a newline is not flushed at the end', () => {
    const { reader, messages, bad } = collect(100);
    reader.push('{"c":3}\n');
    reader.push('y'.repeat(80));
    reader.push('y'.repeat(80));
    reader.end();
    assert.deepEqual(messages, [{ c: 3 }]);
    assert.equal(bad.length, 1);
  });

  it('lines split anywhere, a multi-byte character across chunks, CRLF and a last line without newline still read', () => {
    const { reader, messages, bad } = collect();
    const bytes = Buffer.from('{"s":"é€"}\r\n{"t":1}\n\n{"u":2}');
    for (let i = 0; i < bytes.length; i++) reader.push(bytes.subarray(i, i + 1));
    reader.end();
    assert.deepEqual(messages, [{ s: 'é€' }, { t: 1 }, { u: 2 }]);
    assert.deepEqual(bad, []);
  });
});
