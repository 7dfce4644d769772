// The shadow object store is pruned when checkpoints are dropped (decision 337): the 500 cap (here
// 2) and a deleted session (forgetSession) free the objects only they needed, in the background and
// in the service's queue; what the kept checkpoints and a running turn need stays readable.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';
import { eventually } from '../../../support/settle';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoints: pruning the shadow object store (issue 17)', function () {
  this.timeout(60_000);
  let base: string;
  let svc: CheckpointService | undefined;
  afterEach(async () => {
    svc?.dispose();
    await svc?.idle();
    rmSync(base, { recursive: true, force: true });
  });

  /** A turn of `session` that gives `n` files new contents: a checkpoint with new blobs. */
  async function turn(s: CheckpointService, ws: string, session: string, turn_id: string, n: number) {
    await s.beforeTurn(session, turn_id);
    for (let i = 0; i < n; i++) writeFileSync(join(ws, `f${i}.txt`), `${turn_id} ${i}\n`);
    const rec = await s.afterTurn(session, turn_id);
    assert.ok(rec, `${turn_id} changed files`);
    return rec;
  }

  it('§3.1.1 dropping checkpoints (the cap, a deleted session) shrinks the object count; kept checkpoints still read', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-prune-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const s = (svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent, maxCheckpoints: 2, pruneDelayMs: 50 }));
    await turn(s, ws, 'a', 't1', 20);
    await turn(s, ws, 'a', 't2', 20);
    await s.idle();
    const two = await s.repos.objectCount();
    assert.ok(two >= 40, `two turns of twenty distinct files: at least 40 blobs (${two})`);
    for (let i = 3; i <= 6; i++) await turn(s, ws, 'a', `t${i}`, 20);
    assert.equal(s.list('a').length, 2, 'the cap keeps two');
    // Six turns wrote 120 distinct blobs. Kept: t5's before (t4's files), t5's and t6's after — 60
    // blobs and 3 trees; the index is t6's tree. The background prune (queued after the drops) gets there.
    const keptBound = 3 * 21 + 2;
    await eventually(async () => (await s.repos.objectCount()) <= keptBound, `pruned to what t5 and t6 need (<= ${keptBound})`);
    const [t5, t6] = s.list('a');
    assert.equal(await s.textAt(t5.checkpoint_id, 'f0.txt', 'before'), 't4 0\n', "a kept checkpoint's before-side is still readable");
    assert.equal(await s.textAt(t6.checkpoint_id, 'f7.txt', 'after'), 't6 7\n');

    // A second session's turn (the cap then drops t5), the workspace back to t6's files, then the
    // session is deleted: b1's twenty blobs go as well; t6's before and after are what is left.
    await turn(s, ws, 'b', 'b1', 20);
    await s.idle();
    assert.ok((await s.repos.objectCount()) >= 2 * 20 + 20, "b1's blobs are in the store");
    for (let i = 0; i < 20; i++) writeFileSync(join(ws, `f${i}.txt`), `t6 ${i}\n`);
    await s.warm(); // a snapshot: the index no longer holds b1's blobs
    s.forgetSession('b');
    assert.deepEqual(s.list('b'), []);
    const sessionBound = 2 * 21 + 2;
    await eventually(async () => (await s.repos.objectCount()) <= sessionBound, `pruned after the session was forgotten (<= ${sessionBound})`);
    // What the cap kept survives every prune, and the rewind of it still works.
    const r = await s.restore(t6.checkpoint_id);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.conflicts, []);
  });

  it('§3.1.1 a prune while a turn is between its snapshots keeps that turn’s before-state', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-prune-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const s = (svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent, maxCheckpoints: 1, pruneDelayMs: 60_000 }));
    writeFileSync(join(ws, 'keep.txt'), 'before the turn\n');
    await s.beforeTurn('a', 'open');
    writeFileSync(join(ws, 'keep.txt'), 'during the turn\n');
    // Another snapshot moves the index on: only the pending turn still needs the old blob.
    await s.warm();
    await s.prune();
    const rec = await s.afterTurn('a', 'open');
    assert.ok(rec);
    assert.equal(await s.textAt(rec.checkpoint_id, 'keep.txt', 'before'), 'before the turn\n');
  });
});
