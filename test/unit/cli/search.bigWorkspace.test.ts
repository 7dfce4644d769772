// `rawp search` over a 60,000-file workspace, the bundled CLI (dist/cli.js) as a user runs it: the
// folder is past the threshold, so the scan runs in the bundled scan workers (dist/scanWorker.js,
// decision 500). The answer must be the one an in-process one-thread search gives over the same
// listing, with no "could not run" warning on stderr.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher, PARALLEL_MIN_PATHS } from '../../../src/workspace/fileSearch';
import { makeTmp, removeTmp } from '../workspace/tmpWorkspace';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const FILES = 60_000;

describe('cli/search: rawp search over a workspace too big for one thread (decision 500)', function () {
  this.timeout(180_000);
  let root: string;
  const paths: string[] = [];
  before(() => {
    assert.ok(FILES > PARALLEL_MIN_PATHS, 'the workspace is past the worker threshold');
    root = makeTmp('rawp-big-');
    const names = ['chatWidget.ts', 'main.c', 'index.tsx', 'netdev.c', 'README.md', 'circBuffer.ts'];
    for (let i = 0; i < FILES; i++) {
      const dir = `pkg${i % 150}/mod${i % 7}`;
      if (i < 150 * 7) mkdirSync(join(root, dir), { recursive: true });
      const rel = `${dir}/f${i}_${names[i % names.length]}`;
      writeFileSync(join(root, rel), '');
      paths.push(rel);
    }
  });
  after(() => removeTmp(root));

  it('§16.1.2 gives the one-thread answer, scanned by the bundled workers without a warning', async () => {
    const alone = new FileSearcher(FileIndex.fromPaths([{ name: 'ws', paths }]), undefined, { pool: null });
    for (const query of ['circb', 'mod3 main', 'f1234']) {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, 'search', '--workspace', root, '--max', '10', query], { maxBuffer: 16 << 20 });
      assert.equal(stderr, '', `no warning for "${query}"`);
      const body = JSON.parse(stdout) as { candidates: { path: string; match_score: number }[]; total_count: number };
      const expected = alone.searchSync({ query, max_results: 10 });
      assert.equal(body.total_count, expected.total_count, `total for "${query}"`);
      assert.deepEqual(
        body.candidates.map((c) => [c.path, c.match_score]),
        expected.hits.map((h) => [h.path, h.match_score]),
        `ranking for "${query}"`,
      );
    }
  });
});
