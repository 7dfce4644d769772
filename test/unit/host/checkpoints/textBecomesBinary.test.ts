// A turn that turns a tracked text file into a binary one (issue 17 item 1: binary files are skipped
// with a note): the after-turn snapshot must not fail, the file is reported as skipped, and a rewind
// leaves it alone rather than restoring something wrong.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoints: a text file the turn makes binary (issue 17)', function () {
  this.timeout(60_000);
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('§3.1.1 the after-turn snapshot succeeds, the file is skipped as binary, the other changes are listed and rewound', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-tobin-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'tobin.txt'), 'text before\n');
    writeFileSync(join(ws, 'plain.txt'), 'plain before\n');
    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    try {
      await svc.beforeTurn('s', 't1');
      writeFileSync(join(ws, 'tobin.txt'), Buffer.from([1, 0, 2, 0]));
      writeFileSync(join(ws, 'plain.txt'), 'plain by the agent\n');
      const rec = await svc.afterTurn('s', 't1');
      assert.ok(rec, 'a checkpoint was recorded');
      assert.ok(rec.files.some((f) => f.path === 'plain.txt'), 'the text change is listed');
      assert.ok(rec.skipped.some((s) => s.path === 'tobin.txt'), 'the now-binary file is noted as skipped');
      const r = await svc.restore(rec.checkpoint_id);
      assert.ok(r.restored.includes('plain.txt'));
      assert.equal(readFileSync(join(ws, 'plain.txt'), 'utf8'), 'plain before\n');
      assert.deepEqual([...readFileSync(join(ws, 'tobin.txt'))], [1, 0, 2, 0], 'the binary file is left as the turn left it');
    } finally {
      svc.dispose();
      await svc.idle();
    }
  });
});
