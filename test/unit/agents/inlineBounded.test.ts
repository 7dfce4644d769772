// Decision 543: the `inline` strategy reads only what it inlines. A referenced file is read up to
// its share of the budget (one bounded read on the local disk), a spent budget reads nothing, and
// a path named by several references is resolved once.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFileReferences } from '../../../src/agents/fileReferences';
import { FsError, type FsBackend, type FsStat, type FsVersion } from '../../../src/workspace/fsBackend';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { encodePrompt } from '../../../src/protocol/fileReference';
import { makeTmp, removeTmp } from '../workspace/tmpWorkspace';

/** The Node backend, counting its whole reads and its stats. */
class CountingNodeFs extends NodeFsBackend {
  reads = 0;
  stats = 0;
  override readText(path: string) {
    this.reads++;
    return super.readText(path);
  }
  override stat(path: string) {
    this.stats++;
    return super.stat(path);
  }
  /** Calls of `times` (metadata only: how a reference is resolved, decision 724). */
  lookups = 0;
  override times(paths: readonly string[], signal?: AbortSignal) {
    this.lookups++;
    return super.times(paths, signal);
  }
}

const refsTo = (paths: string[]) => encodePrompt(paths.flatMap((path, i) => [...(i ? [{ kind: 'text' as const, text: ' ' }] : []), { kind: 'file' as const, path }]));

describe('agents/fileReferences: bounded reads for inlining (decision 543)', () => {
  let root: string;
  beforeEach(() => {
    root = makeTmp();
  });
  afterEach(() => removeTmp(root));

  it('a big file on the Node backend is inlined from one bounded read, never read whole', async () => {
    writeFileSync(join(root, 'big.txt'), 'a'.repeat(4 * 1024 * 1024));
    writeFileSync(join(root, 'accents.txt'), 'é'.repeat(100));
    const fs = new CountingNodeFs([root]);
    const p = refsTo(['big.txt', 'accents.txt']);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline', maxBytesPerFile: 51 }, fs });
    assert.equal(fs.reads, 0, 'no whole read');
    assert.ok(r.text.includes(`\n${'a'.repeat(51)}\n\`\`\`\n[… truncated: showing the first 51 of 4194304 bytes]`), r.text);
    assert.ok(r.text.includes(`\n${'é'.repeat(25)}\n\`\`\`\n[… truncated: showing the first 50 of 200 bytes]`), r.text);
    assert.ok(!r.text.includes('\uFFFD'), 'no character was split');
  });

  it('once the total budget is spent, later references are named and not read at all', async () => {
    const files: Record<string, string> = { '/v/a.txt': 'A'.repeat(1000), '/v/b.txt': 'B'.repeat(1000), '/v/c.txt': 'C'.repeat(1000) };
    let reads = 0;
    const fs: Pick<FsBackend, 'roots' | 'stat' | 'readText'> = {
      roots: ['/v'],
      async stat(path): Promise<FsStat | undefined> {
        return files[path] === undefined ? undefined : { type: 'file', size: files[path].length, mtimeMs: 0, version: 'v' as FsVersion };
      },
      async readText(path) {
        reads++;
        if (files[path] === undefined) throw new FsError(`${path} not found`, 'FS_NOT_FOUND');
        return { text: files[path], version: 'v' as FsVersion };
      },
    };
    const p = refsTo(['a.txt', 'b.txt', 'c.txt']);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline', maxBytesPerFile: 600, maxTotalBytes: 600 }, fs });
    assert.equal(reads, 1);
    assert.ok(r.text.includes('A'.repeat(600)));
    assert.ok(r.text.includes('[File: b.txt] (not inlined: the 600 bytes of inlined files are used up)'), r.text);
    assert.ok(r.text.includes('[File: c.txt] (not inlined: the 600 bytes of inlined files are used up)'), r.text);
    assert.deepEqual(r.errors, []);
  });

  it('several references to one path resolve it once, from its metadata (the backend\'s stat would hash the whole file, decision 724)', async () => {
    writeFileSync(join(root, 'one.txt'), 'x\n');
    const fs = new CountingNodeFs([root]);
    // Five references (five ref_ids, as five @-mentions from a master) to the same path.
    const refs = Array.from({ length: 5 }, (_v, i) => ({ ref_id: `r${i}`, path: 'one.txt', name: 'one.txt', workspace_relative_path: 'one.txt' }));
    const text = refs.map((f) => `<@file:${f.ref_id}|one.txt>`).join(' ');
    const r = await convertFileReferences(text, refs, { roots: fs.roots, strategy: { kind: 'label' }, fs });
    assert.equal(r.text, '[File: one.txt] [File: one.txt] [File: one.txt] [File: one.txt] [File: one.txt]');
    assert.equal(fs.lookups, 1);
    assert.equal(fs.stats, 0);
  });
});
