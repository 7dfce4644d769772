// The Node change feed (watchTree) against a real directory: what it reports, and in which order.
import { strict as assert } from 'node:assert';
import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FsChange } from '../../../src/workspace/fsBackend';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { lstatExists, watchTree } from '../../../src/workspace/nodeWatcher';
import { makeTmp, removeTmp, until, writeTree } from './tmpWorkspace';

describe('workspace/nodeWatcher: the change feed outside VS Code', () => {
  let root: string;
  beforeEach(() => (root = makeTmp()));
  afterEach(() => removeTmp(root));

  it('§16.1.1 batches are delivered in the order the disk changed, even when an older look finishes last', async () => {
    // x.ts is deleted and written again (an editor's save by rename does this). The first look
    // (x.ts is gone) is held back 300 ms; the second (x.ts exists) finishes at once. Delivered as
    // they finish, "created" would come before "deleted" and the index would lose a file that exists.
    writeTree(root, { 'x.ts': 'old' });
    let held = true;
    const exists = async (path: string): Promise<boolean> => {
      const now = await lstatExists(path);
      if (held && path.endsWith('x.ts')) {
        held = false;
        await new Promise((r) => setTimeout(r, 300));
      }
      return now;
    };
    const batches: FsChange[][] = [];
    const index = await FileIndex.open({ roots: [root], noGit: true });
    index.attach((listener) =>
      watchTree([root], (changes) => {
        batches.push(changes);
        listener(changes);
      }, { batchMs: 5, exists }),
    );
    try {
      assert.equal(index.folders[0].index.has('x.ts'), true);
      unlinkSync(join(root, 'x.ts'));
      await until(() => !held); // the first look has begun, and saw no x.ts
      writeTree(root, { 'x.ts': 'new' });
      const said = () => batches.flat().filter((c) => c.path.endsWith('x.ts')).map((c) => c.kind);
      await until(() => said().length >= 2, 20, { ms: 10_000, what: 'both changes to be reported', detail: () => said().join() });
      await index.settled();
      assert.deepEqual(said(), ['deleted', 'created'], 'the newest look is the last word');
      assert.equal(index.folders[0].index.has('x.ts'), true, 'a file that exists is in the index');
    } finally {
      index.dispose();
    }
  });

  it('§16.1.1 a listener that throws does not stop later batches', async () => {
    const seen: string[] = [];
    const watcher = watchTree([root], (changes) => {
      seen.push(...changes.map((c) => c.path.slice(root.length + 1)));
      if (seen.length === 1) throw new Error('listener failed');
    }, { batchMs: 5 });
    try {
      writeTree(root, { 'a.ts': '' });
      await until(() => seen.includes('a.ts'), 20, { ms: 10_000, what: 'a.ts to be reported', detail: () => seen.join() });
      writeTree(root, { 'b.ts': '' });
      await until(() => seen.includes('b.ts'), 20, { ms: 10_000, what: 'b.ts to be reported after the listener threw', detail: () => seen.join() });
    } finally {
      watcher.dispose();
    }
  });

  it('§16.1.1 inWorker (rawp serve): the recursive watch is set up in a worker thread, so the call returns at once while Node\'s own walk would hold the event loop; creations and deletions are still reported', async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 3000; d++) files[`d${d % 60}/e${d}/f.ts`] = '';
    writeTree(root, files);
    let t = performance.now();
    const direct = watchTree([root], () => undefined);
    const directMs = performance.now() - t;
    direct.dispose();
    const seen: string[] = [];
    t = performance.now();
    const watcher = watchTree([root], (changes) => seen.push(...changes.map((c) => `${c.kind} ${c.path.slice(root.length + 1)}`)), { batchMs: 5, inWorker: true });
    const workerMs = performance.now() - t;
    try {
      assert.ok(workerMs < directMs / 3, `the call returned in ${workerMs.toFixed(1)} ms; Node's own recursive watch held the loop ${directMs.toFixed(1)} ms`);
      await watcher.ready;
      writeTree(root, { 'd1/e1/new.ts': 'x' });
      await until(() => seen.includes('created d1/e1/new.ts'), 20, { ms: 10_000, what: 'the creation', detail: () => seen.join() });
      rmSync(join(root, 'd1/e1/new.ts'));
      await until(() => seen.includes('deleted d1/e1/new.ts'), 20, { ms: 10_000, what: 'the deletion', detail: () => seen.join() });
    } finally {
      watcher.dispose();
    }
  });
});
