// The cold start of the @-search index (issue 18, decision 522), run by searchCold.ts in a fresh
// process from esbuild bundles (as the extension ships: the scan workers load dist-like JS, not
// TypeScript through tsx). The chromium-sized listing arrives and is indexed first, so the scan
// workers start while it is built, as they do when VS Code opens a big workspace. Prints one JSON
// line: the build (index ready and first search answered) and its longest event-loop block, how
// long the workers' warm-up took after it and the longest block meanwhile, and the slowest
// keystroke of a query typed once the workers are warm.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileIndex } from '../../src/workspace/fileIndex';
import { FileSearcher } from '../../src/workspace/fileSearch';
import { ScanPool } from '../../src/workspace/scanPool';
import { chromiumSized, readPathLists, unionOf } from './searchCorpora';

const FIRST_QUERY = 'chtwdg';

async function main(): Promise<void> {
  const dataDir = process.env.RAWP_BENCH_DATA;
  if (!dataDir) throw new Error('RAWP_BENCH_DATA is not set');
  const union = unionOf(readPathLists(dataDir));
  if (!union) throw new Error(`no linux and biome lists in ${dataDir}`);
  const paths = chromiumSized(union);
  const pool = ScanPool.shared();
  if (!pool) throw new Error('this machine has one core: no scan workers to start');

  // The benchmark's own garbage (the lists the corpus was made of) is collected first: its
  // collection would land in the build's first slices and count as the index's block.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const duringBuild = monitorEventLoopDelay({ resolution: 1 });
  duringBuild.enable();
  await sleep(5);
  const t0 = performance.now();
  const index = await FileIndex.fromPathsAsync([{ name: 'chromium-sized', paths }]);
  const searcher = new FileSearcher(index);
  await searcher.search({ query: 'a' }, { cancelled: false });
  const buildMs = performance.now() - t0;
  duringBuild.disable();
  const duringWarmUp = monitorEventLoopDelay({ resolution: 1 });
  duringWarmUp.enable();
  while (!(await pool.warmUpStates()).every((s) => s === 'done')) await sleep(10);
  const warmUpMs = performance.now() - t0 - buildMs;
  await sleep(5);
  duringWarmUp.disable();

  let firstQueryMaxMs = 0;
  for (let k = 1; k <= FIRST_QUERY.length; k++) {
    const t = performance.now();
    await searcher.search({ query: FIRST_QUERY.slice(0, k) }, { cancelled: false });
    firstQueryMaxMs = Math.max(firstQueryMaxMs, performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ paths: paths.length, build_ms: buildMs, max_block_ms: duringBuild.max / 1e6, warm_up_ms: warmUpMs, warm_up_max_block_ms: duringWarmUp.max / 1e6, first_query_max_ms: firstQueryMaxMs }) + '\n');
  index.dispose();
}

main().catch((e: unknown) => {
  process.stderr.write(`searchColdStart: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
