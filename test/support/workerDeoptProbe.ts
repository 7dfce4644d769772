// Run in a child process by scanWorkerDeopt.test.ts, under `node --trace-deopt --require tsx/cjs`:
// real scan workers (a ScanPool, the worker's own message handling and replies) warm up as the
// product lets them, a marker line is printed, then queries are typed through FileSearcher.search
// over a workspace unlike the warm-up's. The test reads which scan functions V8 threw away after
// the marker, in any thread (--trace-deopt prints the workers' too).
import { writeSync } from 'node:fs';
import { FileIndex } from '../../src/workspace/fileIndex';
import { FileSearcher } from '../../src/workspace/fileSearch';
import { ScanPool } from '../../src/workspace/scanPool';
import { warmUpPaths } from '../../src/workspace/scanWarmUp';

export const WORKER_PROBE_MARKER = '@@ workers warmed up';

const QUERIES = ['libparser', 'drvconfig', 'utilindex', 'chatwidget', 'mainc', 'spcex'];

async function main(): Promise<void> {
  const pool = ScanPool.create(2);
  const paths = warmUpPaths(60_000, 0xbeef);
  const index = await FileIndex.fromPathsAsync([{ name: 'w', paths }], { scanPool: pool });
  const searcher = new FileSearcher(index, undefined, { pool, parallelMin: 1_000 });
  pool.warmUp();
  while (!(await pool.warmUpStates()).every((s) => s === 'done')) await new Promise((r) => setTimeout(r, 10));
  writeSync(1, `${WORKER_PROBE_MARKER}\n`);
  let answered = 0;
  for (const q of QUERIES) for (let k = 1; k <= q.length; k++) if (await searcher.search({ query: q.slice(0, k) }, { cancelled: false })) answered++;
  writeSync(1, `@@ answered ${answered}\n`);
  await pool.dispose();
}

if (require.main === module) void main().then(() => process.exit(0), (e) => { writeSync(2, String(e)); process.exit(1); });
