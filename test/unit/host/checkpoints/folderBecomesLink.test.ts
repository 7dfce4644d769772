// A tracked folder that becomes a symlink (a branch checked out, a command's `ln -s`): git refuses
// to stage a tracked path beyond a symbolic link, and every later turn's snapshot failed
// ("checkpoint none: failed", no rewind) — found by the adversarial review of 2026-12-06
// (decision 671). The files under the link are untracked now; nothing is read through the link.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoints: a tracked folder that becomes a symlink (decision 671)', function () {
  this.timeout(60_000);
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  for (const target of ['inside', 'outside'] as const) {
    it(`§3.1.1 later turns still get their checkpoint and rewind, the link to a folder ${target} the workspace is skipped, its files never read`, async () => {
      base = mkdtempSync(join(tmpdir(), 'rawp-cp-link-'));
      const ws = join(base, 'ws');
      mkdirSync(join(ws, 'd'), { recursive: true });
      mkdirSync(join(ws, 'e'));
      mkdirSync(join(base, 'outside'));
      writeFileSync(join(ws, 'plain.txt'), 'one\n');
      writeFileSync(join(ws, 'e', 'f.txt'), 'inside e\n');
      writeFileSync(join(base, 'outside', 'f.txt'), 'OUTSIDE SECRET\n');
      const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
      try {
        await svc.beforeTurn('s', 't1');
        writeFileSync(join(ws, 'd', 'f.txt'), 'written by turn 1\n');
        const first = await svc.afterTurn('s', 't1');
        assert.ok(first?.files.some((f) => f.path === 'd/f.txt'), 'turn 1 made d/f.txt');
        // Between turns the folder becomes a link.
        rmSync(join(ws, 'd'), { recursive: true });
        symlinkSync(target === 'inside' ? join(ws, 'e') : join(base, 'outside'), join(ws, 'd'));
        for (const turn of ['t2', 't3']) {
          await svc.beforeTurn('s', turn);
          writeFileSync(join(ws, 'plain.txt'), `by ${turn}\n`);
          const rec = await svc.afterTurn('s', turn);
          assert.ok(rec, `${turn} got its checkpoint`);
          assert.ok(rec.files.some((f) => f.path === 'plain.txt'), `${turn}: the change is listed`);
          assert.ok(!rec.files.some((f) => f.path.startsWith('d/')), `${turn}: nothing under the link is listed as the turn's`);
        }
        const last = svc.list('s').at(-1)!;
        const r = await svc.restore(last.checkpoint_id);
        assert.ok(r.restored.includes('plain.txt'));
        assert.equal(readFileSync(join(ws, 'plain.txt'), 'utf8'), 'by t2\n');
        assert.equal(readFileSync(join(base, 'outside', 'f.txt'), 'utf8'), 'OUTSIDE SECRET\n', 'nothing outside touched');
      } finally {
        svc.dispose();
        await svc.idle();
      }
    });
  }
});
