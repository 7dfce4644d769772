// Run as its own process by scanPoolExit.test.ts: indexes a folder big enough for the scan workers
// (PARALLEL_MIN_PATHS), searches it or not (`--search`), says whether the workers started, and
// then simply returns. A process whose workers keep it alive never exits; the test sees that.
import { FileIndex } from '../../src/workspace/fileIndex';
import { FileSearcher } from '../../src/workspace/fileSearch';
import { PARALLEL_MIN_PATHS, ScanPool } from '../../src/workspace/scanPool';

async function main(): Promise<void> {
  // A pool of its own, of two workers whatever the machine's cores (the process's shared pool is
  // none on one core), never disposed: the process must end without being told.
  const pool = ScanPool.create(2);
  const paths = Array.from({ length: PARALLEL_MIN_PATHS + 1_000 }, (_, i) => `src/dir${i % 997}/sub${i % 13}/file${i}.ts`);
  const index = await FileIndex.fromPathsAsync([{ name: 'big', paths }], { scanPool: pool });
  if (process.argv.includes('--search')) {
    const searcher = new FileSearcher(index, undefined, { pool });
    const r = await searcher.search({ query: 'file12' }, { cancelled: false });
    process.stdout.write(`hits ${r?.hits.length ?? 0}\n`);
  }
  process.stdout.write(`workers started ${pool.started}\n`);
}

void main();
