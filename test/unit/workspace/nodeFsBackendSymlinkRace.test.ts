// Security property "no write escapes the workspace": a parent directory swapped for a symlink
// after the path was checked (while the write was under way) must not carry the write outside.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsError } from '../../../src/workspace/fsBackend';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';

describe('workspace: NodeFsBackend symlink swapped in between check and write', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-race-'));
    outside = mkdtempSync(join(tmpdir(), 'rawp-race-out-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('security: a parent directory replaced by a symlink to outside after the check is refused, and the outside file is untouched', async () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'f.txt'), 'inside');
    writeFileSync(join(outside, 'f.txt'), 'outside');
    const fs = new NodeFsBackend([dir]);
    const target = join(dir, 'sub', 'f.txt');
    let err: unknown;
    try {
      await fs.updateText(target, { kind: 'unconditional' }, (current) => {
        // Another actor (the agent's shell, a person) swaps the parent for a link while we work.
        renameSync(join(dir, 'sub'), join(dir, 'sub-moved'));
        symlinkSync(outside, join(dir, 'sub'));
        return current + ' changed';
      });
    } catch (e) {
      err = e;
    }
    assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside', 'the file outside the workspace must not be written');
    assert.ok(err instanceof FsError, `expected a refusal, got ${String(err)}`);
    assert.equal(err.code, 'FS_OUTSIDE_WORKSPACE');
  });
});
