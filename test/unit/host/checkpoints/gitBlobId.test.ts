// Checkpoint restore compares the workspace with git trees by blob id (looseObjects.ts gitBlobId),
// hashed in event-loop turns for a big file: the id must be git's own (`git hash-object`).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { gitBlobId } from '../../../../src/host/checkpoints/looseObjects';
import { SLICE_BYTES } from '../../../../src/workspace/bytesInTurns';

describe('host/checkpoints: git blob ids hashed in turns (issue 17 item 3)', () => {
  it('issue 17: gitBlobId equals `git hash-object` for empty, small and multi-slice contents', async () => {
    for (const size of [0, 1, 4096, SLICE_BYTES, 3 * SLICE_BYTES + 5]) {
      const bytes = randomBytes(size);
      const want = execFileSync('git', ['hash-object', '--stdin'], { input: bytes }).toString().trim();
      assert.equal(await gitBlobId(bytes), want, `size ${size}`);
    }
  });
});
