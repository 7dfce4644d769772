// The unified diffs of a checkpoint for masters without a diff editor (decision 401), on a real
// workspace and shadow git: each file before the turn against now, /dev/null for a missing side,
// a renamed file against its old path; a file that became binary or too large gets no text, and
// once the answer's budget is spent the rest are listed without text — bounded for any checkpoint.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointDiff, MAX_SIDE_BYTES } from '../../../../src/host/checkpoints/checkpointDiff';
import { CheckpointService } from '../../../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../../../src/workspace/nodeFsBackend';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('checkpoint diffs for the browser master (issue 17 item 2, decision 401)', function () {
  this.timeout(60_000);
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('§3.1.1 modified, created, deleted, renamed: unified diffs before → now; large or binary files without text; unknown checkpoint is an error', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cpdiff-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'mod.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(ws, 'gone.txt'), 'bye\n');
    writeFileSync(join(ws, 'old.ts'), 'export const stays = "the same content, long enough to be a rename";\n');
    writeFileSync(join(ws, 'grows.txt'), 'small\n');
    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    await svc.beforeTurn('s', 't1');
    writeFileSync(join(ws, 'mod.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(ws, 'new.txt'), 'fresh\n');
    unlinkSync(join(ws, 'gone.txt'));
    renameSync(join(ws, 'old.ts'), join(ws, 'new.ts'));
    writeFileSync(join(ws, 'grows.txt'), 'x'.repeat(MAX_SIDE_BYTES + 1));
    writeFileSync(join(ws, 'made.bin'), Buffer.from([1, 0, 2, 0]));
    const rec = await svc.afterTurn('s', 't1');
    assert.ok(rec);
    const d = await checkpointDiff(svc, 's', rec.checkpoint_id);
    const by = new Map(d.files.map((f) => [f.path, f]));
    assert.equal(d.error, undefined);
    assert.match(by.get('mod.txt')!.unified_diff!, /^--- a\/mod\.txt/m);
    assert.match(by.get('mod.txt')!.unified_diff!, /^-two\n\+TWO$/m);
    assert.match(by.get('new.txt')!.unified_diff!, /^--- \/dev\/null/m);
    assert.match(by.get('new.txt')!.unified_diff!, /^\+fresh$/m);
    assert.match(by.get('gone.txt')!.unified_diff!, /^\+\+\+ \/dev\/null/m);
    assert.match(by.get('gone.txt')!.unified_diff!, /^-bye$/m);
    const renamed = by.get('new.ts')!;
    assert.equal(renamed.change, 'renamed');
    assert.equal(renamed.from, 'old.ts');
    assert.doesNotMatch(renamed.unified_diff!, /^[-+]export/m, 'same content: no changed lines');
    // Grown past the limit now: listed (the checkpoint kept its small "before"), without text.
    assert.equal(by.get('grows.txt')!.omitted, 'large');
    assert.equal(by.get('grows.txt')!.unified_diff, undefined);
    // A new binary file is one the checkpoint skips (decision 332): not in the review's list at all.
    assert.deepEqual(rec.skipped, [{ path: 'made.bin', reason: 'binary' }]);
    assert.ok(!by.has('made.bin'));
    assert.deepEqual([...by.keys()].sort(), ['gone.txt', 'grows.txt', 'mod.txt', 'new.ts', 'new.txt']);
    for (const f of d.files) assert.ok(f.unified_diff !== undefined || f.omitted !== undefined, `${f.path} has text or a reason`);

    const wrong = await checkpointDiff(svc, 'other-session', rec.checkpoint_id);
    assert.equal(wrong.error?.code, 'CHECKPOINT_NOT_FOUND', 'a checkpoint of another session is not given out');
    assert.deepEqual(wrong.files, []);
  });

  it('§3.1.1 a file or folder that became a symlink out of the workspace since is never followed: its side is "unavailable", the outside text never sent (the adversarial review of 2026-12-06, decision 669)', async () => {
    base = mkdtempSync(join(tmpdir(), 'rawp-cpdiff-'));
    const ws = join(base, 'ws');
    const outside = join(base, 'outside');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    mkdirSync(join(outside, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE SECRET\n');
    writeFileSync(join(outside, 'sub', 'in.txt'), 'OUTSIDE SECRET TOO\n');
    writeFileSync(join(ws, 'notes.txt'), 'hello notes\n');
    writeFileSync(join(ws, 'sub', 'in.txt'), 'inside\n');
    writeFileSync(join(ws, 'plain.txt'), 'one\n');
    const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
    await svc.beforeTurn('s', 't1');
    writeFileSync(join(ws, 'notes.txt'), 'edited notes\n');
    writeFileSync(join(ws, 'sub', 'in.txt'), 'edited inside\n');
    writeFileSync(join(ws, 'plain.txt'), 'two\n');
    const rec = await svc.afterTurn('s', 't1');
    assert.ok(rec);
    // Since the turn: a branch checked out, or a swap, made the file and the folder links out.
    unlinkSync(join(ws, 'notes.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'notes.txt'));
    rmSync(join(ws, 'sub'), { recursive: true });
    symlinkSync(join(outside, 'sub'), join(ws, 'sub'));
    const d = await checkpointDiff(svc, 's', rec.checkpoint_id);
    const by = new Map(d.files.map((f) => [f.path, f]));
    assert.equal(by.get('notes.txt')?.omitted, 'unavailable');
    assert.equal(by.get('sub/in.txt')?.omitted, 'unavailable');
    assert.match(by.get('plain.txt')!.unified_diff!, /^-one\n\+two$/m, 'the other files are still diffed');
    assert.ok(!JSON.stringify(d).includes('OUTSIDE SECRET'), 'no outside text in the answer');
  });
});
