// File names that are not UTF-8 (Linux, where the tests run, allows any bytes but `/` and NUL; decision 338): a snapshot
// skips them with a note, a rewind never touches them, and a file whose real name contains U+FFFD
// (what the bad bytes decode to) is checkpointed and restored exactly — never confused with them.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** An absolute path whose last part is `prefix`, the raw `bytes`, then `suffix`. */
const rawName = (dir: string, prefix: string, bytes: number[], suffix: string) => Buffer.concat([Buffer.from(`${dir}/${prefix}`), Buffer.from(bytes), Buffer.from(suffix)]);

describe('checkpoints: file names that are not UTF-8 (issue 17)', function () {
  this.timeout(60_000);
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('§3.1.1 skipped with a note (reason unreadable), never restored; a real U+FFFD name is kept and restored exactly', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-names-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const genuine = join(ws, 'x\uFFFD.txt'); // valid UTF-8 (EF BF BD)
    const twin = rawName(ws, 'x', [0xff], '.txt'); // decodes to the same string
    const lone = rawName(ws, 'latin1-caf', [0xe9], '.txt'); // "café" in Latin-1
    writeFileSync(genuine, 'genuine before\n');
    writeFileSync(twin, 'twin before\n');
    writeFileSync(join(ws, 'plain.txt'), 'plain before\n');
    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    try {
      await svc.beforeTurn('s', 't1');
      // The turn changes the real U+FFFD file, the twin and a plain one, creates a Latin-1 name and a folder with one.
      writeFileSync(genuine, 'genuine by the agent\n');
      writeFileSync(twin, 'twin by the agent\n');
      writeFileSync(join(ws, 'plain.txt'), 'plain by the agent\n');
      writeFileSync(lone, 'created by the agent\n');
      mkdirSync(rawName(ws, 'dir-', [0xc3, 0x28], ''));
      writeFileSync(Buffer.concat([rawName(ws, 'dir-', [0xc3, 0x28], ''), Buffer.from('/inside.txt')]), 'in a bad folder\n');
      const rec = await svc.afterTurn('s', 't1');
      assert.ok(rec);
      assert.deepEqual(rec.files.map((f) => `${f.change} ${f.path}`), ['modified plain.txt', 'modified x\uFFFD.txt'], 'only names that can be named back are changes');
      const notes = rec.skipped.map((k) => `${k.reason} ${k.path} (${k.note})`).sort();
      assert.deepEqual(notes, [
        'unreadable dir-\uFFFD(/inside.txt (the file name is not valid UTF-8)',
        'unreadable latin1-caf\uFFFD.txt (the file name is not valid UTF-8)',
      ], 'the new undecodable names are noted');
      assert.equal(await svc.textAt(rec.checkpoint_id, 'x\uFFFD.txt', 'before'), 'genuine before\n', "the real U+FFFD file's own bytes, not its twin's");

      const r = await svc.restore(rec.checkpoint_id);
      assert.equal(r.error, undefined);
      assert.deepEqual(r.conflicts, []);
      assert.deepEqual(r.restored, ['plain.txt', 'x\uFFFD.txt']);
      assert.equal(readFileSync(genuine, 'utf8'), 'genuine before\n');
      assert.equal(readFileSync(join(ws, 'plain.txt'), 'utf8'), 'plain before\n');
      assert.equal(readFileSync(twin, 'utf8'), 'twin by the agent\n', 'the undecodable twin is not touched');
      assert.ok(existsSync(lone), 'nor is the created Latin-1 file deleted: it was never kept');
    } finally {
      svc.dispose();
      await svc.idle();
    }
  });
});
