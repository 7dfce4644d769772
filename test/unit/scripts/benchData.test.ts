// The repository stands alone (issue 14 item 4): the benchmark corpora live in scripts/bench/data,
// Brotli-compressed, and decompress to exactly the path lists their README describes.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

const DATA = join(__dirname, '..', '..', '..', 'scripts', 'bench', 'data');

describe('scripts/bench/data: benchmark corpora kept in the repository', () => {
  it('every corpus of the README is stored and decompresses to its listed number of paths', () => {
    const readme = readFileSync(join(DATA, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `(paths-[^`]+\.txt)` \|.*?\| ([\d,]+) \| ([\d,]+) \|/gm)];
    assert.equal(rows.length, 5, 'the README lists five corpora');
    const stored = readdirSync(DATA).filter((f) => f.endsWith('.txt.br')).sort();
    assert.deepEqual(stored, rows.map((r) => `${r[1]}.br`).sort());
    for (const [, file, paths, bytes] of rows) {
      const text = brotliDecompressSync(readFileSync(join(DATA, `${file}.br`)));
      assert.equal(text.length, Number(bytes.replace(/,/g, '')), `${file}: byte count`);
      const lines = text.toString('utf8').split('\n').filter(Boolean);
      assert.equal(lines.length, Number(paths.replace(/,/g, '')), `${file}: path count`);
    }
  });
});
