// Removing the folder of a test whose `rawp serve` (or agent) was just killed.
import { rmSync } from 'node:fs';

/**
 * Remove a folder that a dying process may still be writing into. A SIGKILLed `rawp serve` can
 * leave a checkpoint `git` child running for a moment, still writing into the shadow repository
 * under the state folder (ENOTEMPTY was seen on fresh-clone CI runs). Node's own `maxRetries`
 * does not cover this: it lists a folder's children once and then only retries the `rmdir`, so
 * one file written after that listing fails every retry. So the whole removal is repeated, each
 * time listing afresh, until the folder is gone or 15 s have passed.
 */
export function removeTree(dir: string): void {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EBUSY') || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
