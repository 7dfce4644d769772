// Decision 543: JsonLineReader searches each chunk once (a long line no longer costs the square of
// its length), and a line over the limit is dropped whole and reported once, the lines after it
// read as usual.
import { strict as assert } from 'node:assert';
import { AGENT_LINE_MAX_DEPTH, badLineMessage, JsonLineReader, TOO_DEEP_REASON } from '../../../src/agents/process/jsonLines';
import { INCOMING_MAX_DEPTH } from '../../../src/protocol/parse';

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

// Decision 716: JSON.parse takes ~5,000 levels of nesting that every recursive step after it
// (zod, JSON.stringify of the frame made from the line, the structured-output validator) then
// dies on: one 10 KB stream-json line failed `rawp run` with nothing said. The reader refuses a
// line nested deeper than a peer's frame may be, before JSON.parse, as a line it could not read.
describe('agents/process JsonLineReader: nesting depth (decision 716)', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const claudeLine = (levels: number) => `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"x":${nested(levels)}}}]}}`;

  it('a stream-json line nested 5,000 deep is refused unread, in words, and the next line is read', () => {
    const { reader, messages, bad } = collect();
    reader.push(`${claudeLine(5000)}\n{"type":"result"}\n`);
    assert.deepEqual(messages, [{ type: 'result' }]);
    assert.equal(bad.length, 1);
    assert.equal(bad[0].reason, `arrays and objects nested deeper than ${AGENT_LINE_MAX_DEPTH} levels`);
    assert.equal(bad[0].reason, TOO_DEEP_REASON);
    assert.match(badLineMessage('Claude Code', bad[0].line, bad[0].reason), /^Claude Code wrote a line that could not be read \(arrays and objects nested deeper than 64 levels\): \{"type":"assistant"/);
    assert.ok(badLineMessage('Claude Code', bad[0].line, bad[0].reason).length < 300, 'only the start of the line is quoted');
  });

  it(`the bound is a peer's (${INCOMING_MAX_DEPTH}): a line of exactly that depth is read, one level more is not; brackets inside strings do not count`, () => {
    assert.equal(AGENT_LINE_MAX_DEPTH, INCOMING_MAX_DEPTH);
    const { reader, messages, bad } = collect();
    reader.push(`${nested(AGENT_LINE_MAX_DEPTH)}\n${nested(AGENT_LINE_MAX_DEPTH + 1)}\n${JSON.stringify({ s: '['.repeat(10_000) })}\n`);
    assert.equal(messages.length, 2);
    assert.equal((messages[1] as { s: string }).s.length, 10_000);
    assert.equal(bad.length, 1);
  });

  it('a line of a million brackets is refused in one linear scan, without the stack', () => {
    const { reader, messages, bad } = collect();
    const started = performance.now();
    reader.push(`${'['.repeat(1_000_000)}\n{"ok":true}\n`);
    assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
    assert.deepEqual(messages, [{ ok: true }]);
    assert.equal(bad.length, 1);
  });
});
