import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bytesTextPrefix,
  cutTextPrefix,
  findFileNewestFirst,
  firstExistingFile,
  isExecutableFile,
  listDirectoryNames,
  pathExists,
  readTextIfPresent,
  readTextOrUndefined,
  readTextPrefix,
  realPathOrUndefined,
} from '../../../src/workspace/localFiles';
import { createPrivateFile, moveAside, replacePrivateFile } from '../../../src/workspace/privateFiles';

describe('workspace: local files and private files (the node:fs the upper layers use)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-localfiles-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('readTextIfPresent: undefined only for a missing file; a directory is an error', () => {
    writeFileSync(join(dir, 'a.txt'), 'hello');
    assert.equal(readTextIfPresent(join(dir, 'a.txt')), 'hello');
    assert.equal(readTextIfPresent(join(dir, 'missing')), undefined);
    assert.throws(() => readTextIfPresent(dir), /EISDIR/);
    assert.equal(readTextOrUndefined(dir), undefined);
  });

  it('isExecutableFile: an executable file yes; a plain file, a directory or a missing path no', () => {
    const exe = join(dir, 'tool');
    writeFileSync(exe, '#!/bin/sh\n');
    assert.equal(isExecutableFile(exe), false);
    chmodSync(exe, 0o755);
    assert.equal(isExecutableFile(exe), true);
    assert.equal(isExecutableFile(dir), false);
    assert.equal(isExecutableFile(join(dir, 'nope')), false);
  });

  it('pathExists and realPathOrUndefined follow links; a dangling link does not exist', () => {
    writeFileSync(join(dir, 'target'), 'x');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    assert.equal(realPathOrUndefined(join(dir, 'link')), realPathOrUndefined(join(dir, 'target')));
    assert.equal(pathExists(join(dir, 'dangling')), false);
    assert.equal(realPathOrUndefined(join(dir, 'dangling')), undefined);
  });

  it('firstExistingFile tries directories in order; listDirectoryNames is [] for a missing directory', () => {
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'page.js'), '');
    assert.equal(firstExistingFile([join(dir, 'a'), join(dir, 'b')], 'page.js'), join(dir, 'b', 'page.js'));
    assert.equal(firstExistingFile([join(dir, 'a')], 'page.js'), undefined);
    assert.deepEqual(listDirectoryNames(join(dir, 'missing')), []);
    assert.deepEqual(listDirectoryNames(dir).sort(), ['a', 'b']);
  });

  it('findFileNewestFirst searches the newest-named subdirectory first, within the depth', async () => {
    for (const d of ['2026/11/30', '2026/12/01']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, '2026/11/30/rollout-x.jsonl'), 'old');
    writeFileSync(join(dir, '2026/12/01/rollout-x.jsonl'), 'new');
    const found = await findFileNewestFirst(dir, (n) => n === 'rollout-x.jsonl', 3);
    assert.equal(found, join(dir, '2026/12/01/rollout-x.jsonl'));
    assert.equal(await findFileNewestFirst(dir, (n) => n === 'rollout-x.jsonl', 2), undefined);
  });

  it('readTextPrefix cuts at the limit without splitting a character, and flags binary content', async () => {
    writeFileSync(join(dir, 't.txt'), 'ab\u00e9cd'); // é is 2 bytes: a b [c3 a9] c d
    const cut = await readTextPrefix(join(dir, 't.txt'), 3);
    assert.deepEqual(cut, { text: 'ab', total: 6, cut: true, binary: false });
    assert.deepEqual(await readTextPrefix(join(dir, 't.txt'), 100), { text: 'ab\u00e9cd', total: 6, cut: false, binary: false });
    writeFileSync(join(dir, 'b.bin'), Buffer.from([1, 0, 2]));
    assert.equal((await readTextPrefix(join(dir, 'b.bin'), 10)).binary, true);
  });

  it('a prefix keeps a whole U+FFFD the file holds, and cuts a 4-byte character whole (one rule for disk, memory and whole reads)', async () => {
    writeFileSync(join(dir, 'r.txt'), 'a\ufffdb'); // a [ef bf bd] b: the replacement character is real text
    assert.deepEqual(await readTextPrefix(join(dir, 'r.txt'), 4), { text: 'a\ufffd', total: 5, cut: true, binary: false });
    writeFileSync(join(dir, 'e.txt'), 'x\u{1F600}y'); // x [f0 9f 98 80] y
    for (const limit of [1, 2, 3, 4]) assert.deepEqual(await readTextPrefix(join(dir, 'e.txt'), limit), { text: 'x', total: 6, cut: true, binary: false }, `limit ${limit}`);
    assert.equal((await readTextPrefix(join(dir, 'e.txt'), 5)).text, 'x\u{1F600}');
    // A NUL counts only inside the kept bytes, on the disk and in memory alike.
    writeFileSync(join(dir, 'n.txt'), 'abc\0');
    assert.deepEqual(await readTextPrefix(join(dir, 'n.txt'), 3), { text: 'abc', total: 4, cut: true, binary: false });
    assert.deepEqual(cutTextPrefix('abc\0', 3), { text: 'abc', total: 4, cut: true, binary: false });
    assert.equal(cutTextPrefix('abc\0', 4).binary, true);
    assert.equal((await readTextPrefix(join(dir, 'n.txt'), 4)).binary, true);
  });

  it('bytesTextPrefix and cutTextPrefix give the longest whole-character prefix within the limit, for generated texts', () => {
    const pieces = ['a', '\n', '\u00e9', '\u20ac', '\ufffd', '\u{1F600}', '\u2028', '\ud55c'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 2000; k++) {
      let text = '';
      for (let n = next(12); n > 0; n--) text += pieces[next(pieces.length)];
      const bytes = Buffer.from(text, 'utf8');
      const limit = next(bytes.length + 2);
      // The reference: whole characters added while they fit.
      let want = '';
      for (const ch of text) {
        if (Buffer.byteLength(want + ch, 'utf8') > limit) break;
        want += ch;
      }
      const expected = { text: want, total: bytes.length, cut: want.length < text.length, binary: false };
      assert.deepEqual(bytesTextPrefix(bytes, bytes.length, limit), expected, `${JSON.stringify(text)} at ${limit}`);
      assert.deepEqual(cutTextPrefix(text, limit), expected, `${JSON.stringify(text)} at ${limit} (in memory)`);
    }
  });

  it('private files: created exclusively with mode 0600, replaced atomically, moved aside', () => {
    const f = join(dir, 'state', 'token');
    replacePrivateFile(f, 'one\n');
    assert.equal(readTextIfPresent(f), 'one\n');
    assert.equal(statSync(f).mode & 0o777, 0o600);
    assert.throws(() => createPrivateFile(f, 'two\n'), /EEXIST/);
    assert.equal(readTextIfPresent(f), 'one\n', 'an existing file is never overwritten by create');
    const g = join(dir, 'new');
    createPrivateFile(g, 'fresh');
    assert.equal(statSync(g).mode & 0o777, 0o600);
    assert.equal(moveAside(g, `${g}.corrupt`), true);
    assert.equal(pathExists(g), false);
    assert.equal(readTextIfPresent(`${g}.corrupt`), 'fresh');
    assert.equal(moveAside(join(dir, 'missing'), join(dir, 'x')), false);
  });
});
