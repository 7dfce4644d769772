// Two sessions running turns in one workspace at once (decision 339): each checkpoint still lists
// every file that changed during its turn — whoever changed it — but marks them `concurrent`, and a
// rewind treats them as conflicts (the other session's work is not undone without asking); turns
// that did not overlap another session's are unmarked.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const show = (files: readonly { path: string; change: string; concurrent?: boolean }[]) => files.map((f) => `${f.change} ${f.path}${f.concurrent ? ' (concurrent)' : ''}`);

describe('checkpoints: two sessions in one workspace at once (issue 17)', function () {
  this.timeout(60_000);
  let base: string;
  let svc: CheckpointService | undefined;
  afterEach(async () => {
    svc?.dispose();
    await svc?.idle();
    rmSync(base, { recursive: true, force: true });
  });

  it('§3.1.1 overlapping turns are marked concurrent, their rewind asks first; a lone turn is not marked', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-conc-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'a0\n');
    writeFileSync(join(ws, 'b.txt'), 'b0\n');
    const s = (svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent }));

    await s.beforeTurn('A', 'a1');
    await s.beforeTurn('B', 'b1'); // B's turn starts while A's runs
    writeFileSync(join(ws, 'a.txt'), 'a1 by session A\n');
    writeFileSync(join(ws, 'b.txt'), 'b1 by session B\n');
    const a1 = await s.afterTurn('A', 'a1');
    writeFileSync(join(ws, 'b.txt'), 'b1 by session B, after A ended\n');
    const b1 = await s.afterTurn('B', 'b1');
    assert.ok(a1 && b1);
    assert.deepEqual(show(a1.files), ['modified a.txt (concurrent)', 'modified b.txt (concurrent)'], "A's checkpoint lists B's write too, marked");
    assert.deepEqual(show(b1.files), ['modified a.txt (concurrent)', 'modified b.txt (concurrent)'], "B's before-state predates A's write: both files, marked");

    // Rewinding A's turn would undo B's work on b.txt: both marked files wait for the person.
    const r = await s.restore(a1.checkpoint_id);
    assert.deepEqual(r.conflicts, ['a.txt', 'b.txt']);
    assert.deepEqual(r.restored, []);
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'b1 by session B, after A ended\n', "B's work is untouched");
    // The person confirms a.txt only.
    const forced = await s.restore(a1.checkpoint_id, { force: ['a.txt'] });
    assert.deepEqual(forced.restored, ['a.txt']);
    assert.deepEqual(forced.conflicts, ['b.txt']);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a0\n');

    // A turn alone in the workspace is not marked, and its rewind needs no confirmation.
    await s.beforeTurn('A', 'a2');
    writeFileSync(join(ws, 'a.txt'), 'a2 alone\n');
    const a2 = await s.afterTurn('A', 'a2');
    assert.ok(a2);
    assert.deepEqual(show(a2.files), ['modified a.txt']);
    assert.deepEqual((await s.restore(a2.checkpoint_id)).restored, ['a.txt']);

    // A rewind by one session while another's turn runs marks that turn too.
    await s.beforeTurn('B', 'b2');
    const rewind = await s.restore(a1.checkpoint_id, { force: ['b.txt'] }); // session A rewinds, B's turn runs
    assert.ok(rewind.restored.includes('b.txt'));
    const b2 = await s.afterTurn('B', 'b2');
    assert.ok(b2);
    assert.ok(b2.files.length > 0 && b2.files.every((f) => f.concurrent), `B's turn saw the rewind's writes, marked: ${show(b2.files).join(', ')}`);
  });
});
