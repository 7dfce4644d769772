// Decision 595: a program writing a file while our edit of it is made (an editor's autosave, a log
// writer) loses nothing. The trial: 15 edits against a file appended to every 40 ms — 7 edits
// succeeded and two appended lines vanished, with nothing reported. The Node backend now compares
// the file's state (inode, size, times in ns) around its read and right before its rename.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsError } from '../../../src/workspace/fsBackend';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';

describe('workspace: another program writes the file during our edit (decision 595)', () => {
  let dir: string;
  let fs: NodeFsBackend;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-race-'));
    fs = new NodeFsBackend([dir]);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an append between our read and our rename: the edit is refused (FS_STALE_VERSION) and the appended line stays', async () => {
    const file = join(dir, 'log.txt');
    writeFileSync(file, 'TOKEN0\nAPPEND 1\n');
    const { version } = await fs.readText(file);
    await assert.rejects(
      fs.updateText(file, { kind: 'replaceIfVersion', version }, (text) => {
        appendFileSync(file, 'APPEND 2\n'); // the other program, after our read, before our write
        return text.replace('TOKEN0', 'TOKEN1');
      }),
      (e: unknown) => e instanceof FsError && e.code === 'FS_STALE_VERSION' && /changed by another program while this edit was being made; nothing was written/.test(e.message),
    );
    assert.equal(readFileSync(file, 'utf8'), 'TOKEN0\nAPPEND 1\nAPPEND 2\n', 'the other program\'s line is there, ours is not');
  });

  it('a whole-file write is held to the same check; without another writer both go through', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    const first = await fs.readText(file);
    const done = await fs.updateText(file, { kind: 'replaceIfVersion', version: first.version }, (t) => t.replace('one', 'two'));
    assert.equal(readFileSync(file, 'utf8'), 'two\n');
    await fs.writeText(file, 'three\n', { kind: 'replaceIfVersion', version: done.version });
    assert.equal(readFileSync(file, 'utf8'), 'three\n');
  });
});
