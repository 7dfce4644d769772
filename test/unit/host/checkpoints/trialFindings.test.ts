// Decision 612: the checkpoint trial of 2026-12-05, on a real workspace with the real git binary.
// Undoing an old rewind also rewound everything after it (a later turn's new file was deleted); a
// turn that deleted a file too large or binary to keep lost it without a word; a symlink a person
// put in a file's place was reported as rewound; a rewind that found nothing to do said it rewound.
import { strict as assert } from 'node:assert';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoints: what the trial of 2026-12-05 found (decision 612)', function () {
  this.timeout(60_000);
  let base: string;
  let ws: string;
  let svc: CheckpointService;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-trial-'));
    ws = join(base, 'ws');
    mkdirSync(ws);
    svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent, maxFileBytes: 64 * 1024 });
  });
  afterEach(() => {
    svc.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  async function turn(id: string, work: () => void) {
    await svc.beforeTurn('s', id);
    work();
    return svc.afterTurn('s', id);
  }

  it('§3.1.1 undoing an old rewind puts back only what that rewind changed: a later turn\'s new file stays', async () => {
    const a = await turn('A', () => writeFileSync(join(ws, 'fa.txt'), 'work of turn A\n'));
    const rewind = await svc.restore(a!.checkpoint_id);
    assert.deepEqual(rewind.restored, ['fa.txt']);
    assert.equal(existsSync(join(ws, 'fa.txt')), false);
    await turn('B', () => writeFileSync(join(ws, 'fb.txt'), 'important new work of turn B\n'));
    const undo = await svc.restore(rewind.undo_checkpoint_id!);
    assert.deepEqual([undo.restored, undo.conflicts], [['fa.txt'], []]);
    assert.equal(readFileSync(join(ws, 'fa.txt'), 'utf8'), 'work of turn A\n');
    assert.equal(readFileSync(join(ws, 'fb.txt'), 'utf8'), 'important new work of turn B\n', "turn B's work is kept");
    // Undoing the undo rewinds fa.txt again, and only it.
    assert.deepEqual((await svc.restore(undo.undo_checkpoint_id!)).restored, ['fa.txt']);
    assert.equal(existsSync(join(ws, 'fb.txt')), true);
  });

  it('§3.1.1 a file the checkpoint could not keep (large, binary) that the turn deleted or replaced is reported as lost, and a rewind never deletes the replacement', async () => {
    writeFileSync(join(ws, 'huge.log'), 'x'.repeat(100 * 1024));
    writeFileSync(join(ws, 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    writeFileSync(join(ws, 'blob.bin'), Buffer.from([0, 1, 2]));
    const cp = await turn('T', () => {
      unlinkSync(join(ws, 'huge.log'));
      unlinkSync(join(ws, 'pic.png'));
      writeFileSync(join(ws, 'blob.bin'), 'now text\n');
      writeFileSync(join(ws, 'note.txt'), 'deleted two files\n');
    });
    assert.ok(cp);
    assert.deepEqual(cp.files.map((f) => `${f.change} ${f.path}`), ['created note.txt'], 'the replaced binary is not a file the turn created');
    assert.deepEqual(
      cp.skipped.map((k) => `${k.change} ${k.path} (${k.reason})`).sort(),
      ['deleted huge.log (large)', 'deleted pic.png (binary)', 'modified blob.bin (binary)'],
    );
    const r = await svc.restore(cp.checkpoint_id);
    assert.deepEqual(r.restored, ['note.txt']);
    assert.equal(readFileSync(join(ws, 'blob.bin'), 'utf8'), 'now text\n', 'not deleted: its old bytes are not there to put back');
  });

  it('§3.1.1 a turn that only deleted a file it could not keep still gets a checkpoint that says so', async () => {
    writeFileSync(join(ws, 'only.bin'), Buffer.from([0, 0, 0]));
    await svc.warm();
    const cp = await turn('T', () => unlinkSync(join(ws, 'only.bin')));
    assert.ok(cp, 'a checkpoint, so the footer can tell');
    assert.deepEqual(cp.files, []);
    assert.deepEqual(cp.skipped.map((k) => `${k.change} ${k.path}`), ['deleted only.bin']);
  });

  it('§3.1.1 a symlink a person put where the turn\'s file was is a conflict, never "rewound"; forced, it fails and stays', async () => {
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'victim.txt'), 'not yours\n');
    const cp = await turn('T', () => writeFileSync(join(ws, 'esc.txt'), 'by the agent\n'));
    unlinkSync(join(ws, 'esc.txt'));
    symlinkSync(join(base, 'outside', 'victim.txt'), join(ws, 'esc.txt'));
    const r = await svc.restore(cp!.checkpoint_id);
    assert.deepEqual([r.restored, r.conflicts], [[], ['esc.txt']]);
    const forced = await svc.restore(cp!.checkpoint_id, { force: ['esc.txt'] });
    assert.deepEqual(forced.failed.map((f) => f.path), ['esc.txt']);
    assert.match(forced.failed[0].message, /symlink or a folder is in its place/);
    assert.ok(lstatSync(join(ws, 'esc.txt')).isSymbolicLink());
    assert.equal(readFileSync(join(base, 'outside', 'victim.txt'), 'utf8'), 'not yours\n');
  });

  it('§3.1.1 a rewind that finds everything as it was says which files needed nothing, and records no undo', async () => {
    const cp = await turn('T', () => writeFileSync(join(ws, 'n.txt'), 'new\n'));
    const first = await svc.restore(cp!.checkpoint_id);
    assert.deepEqual([first.restored, first.unchanged], [['n.txt'], []]);
    assert.ok(first.undo_checkpoint_id);
    const second = await svc.restore(cp!.checkpoint_id);
    assert.deepEqual([second.restored, second.unchanged, second.undo_checkpoint_id], [['n.txt'], ['n.txt'], undefined]);
  });

  it('§7.8.2 a turn the process was killed in (between its snapshots) gets its checkpoint when the session is restored: its edits are its own, not someone else\'s conflict (decision 617)', async () => {
    writeFileSync(join(ws, 'b5.txt'), 'written in turn five\n');
    await svc.beforeTurn('s', 'T6');
    writeFileSync(join(ws, 'b5.txt'), 'EDITED in turn five\n');
    writeFileSync(join(ws, 'slow.txt'), 'half\n');
    // kill -9: no afterTurn; a new process reads the index.
    const next = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    try {
      assert.deepEqual(await next.recoverInterrupted('other-session'), []);
      const [rec] = await next.recoverInterrupted('s');
      assert.ok(rec, 'a checkpoint for the cut-off turn');
      assert.equal(rec.turn_id, 'T6');
      assert.deepEqual(rec.files.map((f) => `${f.change} ${f.path}`).sort(), ['created slow.txt', 'modified b5.txt']);
      assert.deepEqual(await next.recoverInterrupted('s'), [], 'once');
      const r = await next.restore(rec.checkpoint_id);
      assert.deepEqual([r.restored, r.conflicts], [['b5.txt', 'slow.txt'], []]);
      assert.equal(readFileSync(join(ws, 'b5.txt'), 'utf8'), 'written in turn five\n');
      assert.equal(existsSync(join(ws, 'slow.txt')), false);
    } finally {
      next.dispose();
    }
    // A third process finds nothing left to recover.
    const third = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    assert.deepEqual(await third.recoverInterrupted('s'), []);
    third.dispose();
  });
});
