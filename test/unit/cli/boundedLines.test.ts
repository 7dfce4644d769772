// boundedLines: the same lines as node:readline (crlfDelay Infinity) for any chunking, and a line
// over the bound counted, never held (decision 589).
import { strict as assert } from 'node:assert';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { boundedLines, type InputLine } from '../../../src/cli/boundedLines';
import { mulberry32 } from '../../../src/workspace/seededRandom';

async function collect(chunks: (string | Buffer)[], max = 1 << 20): Promise<InputLine[]> {
  const out: InputLine[] = [];
  for await (const l of boundedLines(Readable.from(chunks), max)) out.push(l);
  return out;
}

async function readlineLines(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const l of createInterface({ input: Readable.from([text]), crlfDelay: Infinity })) out.push(l);
  return out;
}

describe('cli/boundedLines', () => {
  it('splits as readline does (\\n, \\r\\n, lone \\r, no final newline) whatever the chunks', async () => {
    const random = mulberry32(589);
    const alphabet = ['a', 'é', '\n', '\r', '\r\n', ' ', '{}', '한'];
    for (let round = 0; round < 300; round++) {
      let text = '';
      for (let n = Math.floor(random() * 30); n > 0; n--) text += alphabet[Math.floor(random() * alphabet.length)];
      const bytes = Buffer.from(text);
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 5); // cuts inside \r\n and inside multi-byte characters
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const ours = (await collect(chunks)).map((l) => ('text' in l ? l.text : `<${l.tooLong}>`));
      assert.deepEqual(ours, await readlineLines(text), JSON.stringify(text));
    }
  });

  it('a line over the bound is one tooLong with its length; the lines around it are intact', async () => {
    const lines = await collect(['ok1\nxxxx', 'xxxxxx', 'xx\r\nok2\n', 'yyyyyyyyyyyy'], 10);
    assert.deepEqual(lines, [{ text: 'ok1' }, { tooLong: 12 }, { text: 'ok2' }, { tooLong: 12 }]);
  });

  it('a line of exactly the bound is read', async () => {
    assert.deepEqual(await collect(['0123456789\n'], 10), [{ text: '0123456789' }]);
  });
});
