// Checkpoints in a large workspace (decision 626; the picker trial of 2026-12-05 met every turn
// waiting ~72 s in a 140,000-file workspace): the snapshot stages in batches, so no git process
// runs long enough for the runner's watchdog and what was staged stays staged; a turn waits for its
// before-snapshot only so long, then goes on without a checkpoint — never with a wrong one — and
// the next turns get theirs. Real git, real files.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoint service: a large workspace (decision 626)', function () {
  this.timeout(120_000);
  let base: string;
  let ws: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cp-large-'));
    ws = join(base, 'ws');
    for (let d = 0; d < 50; d++) {
      mkdirSync(join(ws, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(ws, `d${d}`, `f${f}.txt`), `${d}/${f}\n`);
    }
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const service = (beforeTurnWaitMs?: number) =>
    new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent, ...(beforeTurnWaitMs !== undefined ? { beforeTurnWaitMs } : {}) });

  it('5,000 files (more than one batch of git add) are all in the first snapshot, and a turn\'s change is its checkpoint', async () => {
    const s = service();
    assert.equal(await s.beforeTurn('s1', 't1'), 'taken');
    writeFileSync(join(ws, 'd7', 'f7.txt'), 'changed\n');
    const rec = await s.afterTurn('s1', 't1');
    assert.deepEqual(rec?.files.map((f) => f.path), ['d7/f7.txt']);
    const tree = rec!.before[''];
    const count = execFileSync('git', ['--git-dir', join(base, 'state', 'workspace.git'), 'ls-tree', '-r', '--name-only', tree]).toString().trim().split('\n').length;
    assert.equal(count, 5000, 'every file is in the before-tree');
    await s.idle();
    s.dispose();
  });

  it('a turn whose before-snapshot takes too long goes on at once, without a checkpoint; the snapshot goes on, and the next turn has its checkpoint', async () => {
    const slow = service(1);
    const t0 = Date.now();
    assert.equal(await slow.beforeTurn('s1', 't1'), 'late');
    assert.ok(Date.now() - t0 < 2_000, 'the turn did not wait for the 5,000-file snapshot');
    writeFileSync(join(ws, 'd1', 'f1.txt'), 'written by the turn\n');
    let ended = false;
    const after = slow.afterTurn('s1', 't1').then((r) => ((ended = true), r));
    await new Promise((r) => setImmediate(r));
    assert.equal(ended, true, 'the turn\'s end does not wait behind the snapshot still running');
    assert.equal(await after, undefined, 'no checkpoint rather than one whose "before" may hold the turn\'s writes');
    await slow.idle();
    const file = join(base, 'state', 'checkpoints.json');
    const index = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as { pending?: unknown[] };
    assert.deepEqual(index.pending ?? [], [], 'the late snapshot, ended after the turn, left no pending turn for a restart to "recover"');
    slow.dispose();

    const s = service();
    assert.equal(await s.beforeTurn('s1', 't2'), 'taken');
    writeFileSync(join(ws, 'd2', 'f2.txt'), 'the next turn\n');
    const rec = await s.afterTurn('s1', 't2');
    assert.deepEqual(rec?.files.map((f) => f.path), ['d2/f2.txt']);
    await s.idle();
    s.dispose();
  });
});
