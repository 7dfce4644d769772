// The scan worker as the product ships it (decision 529): `src/workspace/scanWorker.ts` bundled
// like `dist/scanWorker.js` (bundleLikeProduct.ts), into a temporary folder,
// for a ScanPool of the benchmark's own. Under tsx each module's imports are getters on a module
// object, and the worker's keystrokes measured about a tenth slower than the bundle's: what the
// editor runs is the bundle. RAWP_BENCH_WORKER=sources keeps the workers on the sources (tsx).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleLikeProduct } from './bundleLikeProduct';
import { ScanPool } from '../../src/workspace/scanPool';

const repoRoot = resolve(__dirname, '..', '..');

export interface BenchPool {
  /** The pool the benchmark's folders and searches use; undefined where the product has none (one core). */
  pool: ScanPool | undefined;
  /** What the workers run, for the report, and as the JSON field `scan_worker`. */
  runs: string;
  kind: 'bundle' | 'sources' | 'none';
  dispose(): Promise<void>;
}

export async function benchScanPool(): Promise<BenchPool> {
  const product = ScanPool.shared(); // sized as the product sizes its pool; starts nothing by itself
  if (!product) return { pool: undefined, runs: 'no scan workers (one core)', kind: 'none', dispose: async () => undefined };
  if (process.env.RAWP_BENCH_WORKER === 'sources') return { pool: product, runs: 'the sources under tsx (RAWP_BENCH_WORKER=sources)', kind: 'sources', dispose: () => product.dispose() };
  const dir = mkdtempSync(join(tmpdir(), 'rawp-bench-worker-'));
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir); // also when the benchmark fails before `dispose`
  await bundleLikeProduct({ scanWorker: join(repoRoot, 'src/workspace/scanWorker.ts') }, dir);
  const pool = ScanPool.create(product.size, join(dir, 'scanWorker.js'));
  return {
    pool,
    runs: 'the bundled worker, as shipped',
    kind: 'bundle',
    dispose: async () => {
      await pool.dispose();
      removeDir();
    },
  };
}
