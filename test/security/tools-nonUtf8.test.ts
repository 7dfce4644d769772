// Issue 12 finding 6: editing a non-UTF-8 or binary file replaced every byte outside the edit by
// U+FFFD. Edit and Write now refuse such files with FS_NOT_TEXT and leave every byte as it was;
// UTF-8 files keep every byte outside the edited range (BOM and CRLF included). Against a real
// `rawp serve` over loopback; bytes compared.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promptTurn, serve, type Served } from './serveChild';

const LATIN1 = Buffer.from('caf\xe9 na\xefve r\xe9sum\xe9\nsecond line caf\xe9\n', 'latin1');
const BINARY = Buffer.concat([Buffer.from('MAGIC caf header\n'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)), Buffer.from('\ncaf tail\n')]);
// Valid UTF-8 with NUL bytes: Read calls it binary and shows none of it, so an exact-match edit
// would change bytes nobody has seen (decision 602).
const NUL_UTF8 = Buffer.from('SQLite format 3\0\u0010\0\u0001 caf page\ncaf tail\n', 'utf8');
const UTF8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo café\r\nline two ✓\r\nlast café\r\n', 'utf8')]);

describe('security/tools: Edit and Write keep every byte of files that are not UTF-8 text (issue 12 finding 6)', function () {
  this.timeout(120_000);
  let served: Served | undefined;
  afterEach(() => {
    served?.close();
    served = undefined;
  });

  it('read-before-write: Edit, replace all and Write on a Latin-1 file, a binary file and UTF-8 with NUL bytes fail with FS_NOT_TEXT and change 0 bytes', async () => {
    served = await serve({ 'latin1.txt': LATIN1, 'blob.bin': BINARY, 'nul.db': NUL_UTF8 });
    const m = await served.master();
    for (const [name, bytes] of [['latin1.txt', LATIN1], ['blob.bin', BINARY], ['nul.db', NUL_UTF8]] as const) {
      const edit = await promptTurn(m, `replace \`caf\` with \`CAF\` in ${name}`, 'allow_once');
      const editResult = edit.results.filter((r) => r.payload.tool_name === 'Edit').at(-1);
      assert.equal(editResult?.payload.error_code, 'FS_NOT_TEXT', `${name}: ${JSON.stringify(editResult?.payload.output)}`);
      // The binary one holds NUL bytes: said as what Read calls it (decision 602).
      assert.match(String(editResult?.payload.output), name !== 'latin1.txt' ? /is a binary file \(it holds NUL bytes\)/ : /not UTF-8 text/);
      const all = await promptTurn(m, `replace all \`caf\` with \`CAF\` in ${name}`, 'allow_once');
      assert.equal(all.results.filter((r) => r.payload.tool_name === 'Edit').at(-1)?.payload.error_code, 'FS_NOT_TEXT');
      const write = await promptTurn(m, `write ${name}: replaced`, 'allow_once');
      assert.equal(write.results.filter((r) => r.payload.tool_name === 'Write').at(-1)?.payload.error_code, 'FS_NOT_TEXT');
      assert.ok(readFileSync(join(served.dir, name)).equals(bytes), `${name}: 0 bytes changed`);
    }
  });

  it('read-before-write: an Edit of a UTF-8 file (BOM, CRLF, non-ASCII) changes only the edited bytes', async () => {
    served = await serve({ 'u.txt': UTF8 });
    const m = await served.master();
    const t = await promptTurn(m, 'replace `line two` with `LINE 2` in u.txt', 'allow_once');
    assert.equal(t.results.filter((r) => r.payload.tool_name === 'Edit').at(-1)?.payload.status, 'success', JSON.stringify(t.results.map((r) => r.payload.output)));
    const expected = Buffer.from(UTF8.toString('latin1').replace('line two', 'LINE 2'), 'latin1');
    assert.ok(readFileSync(join(served.dir, 'u.txt')).equals(expected), 'every byte outside the edit is as it was');
  });
});
