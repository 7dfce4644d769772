// Runs searchColdStart.ts (the @-search index's cold start, decision 522) in fresh processes from
// esbuild bundles written to a temporary folder, a few times, and sums up its figures.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleLikeProduct } from './bundleLikeProduct';

export interface ColdStartRun {
  paths: number;
  build_ms: number;
  max_block_ms: number;
  warm_up_ms: number;
  warm_up_max_block_ms: number;
  first_query_max_ms: number;
}

const repoRoot = resolve(__dirname, '..', '..');

/** `runs` cold starts, one process each (sequential: they measure time on a 2-core machine). */
export async function coldStarts(dataDir: string, runs: number): Promise<ColdStartRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rawp-cold-'));
  try {
    // The scan worker's bundle beside the child's: workerScript.ts looks for it there.
    await bundleLikeProduct({ searchColdStart: join(repoRoot, 'scripts/bench/searchColdStart.ts'), scanWorker: join(repoRoot, 'src/workspace/scanWorker.ts') }, dir);
    const out: ColdStartRun[] = [];
    for (let r = 0; r < runs; r++) {
      const child = spawnSync(process.execPath, ['--expose-gc', join(dir, 'searchColdStart.js')], { encoding: 'utf8', env: { ...process.env, RAWP_BENCH_DATA: dataDir }, timeout: 120_000 });
      const line = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !line.startsWith('{')) throw new Error(`the cold-start run failed (exit ${child.status}): ${child.stderr.trim() || line}`);
      out.push(JSON.parse(line) as ColdStartRun);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
