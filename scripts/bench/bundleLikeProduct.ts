// Bundles benchmark entry points with the settings of esbuild.config.mjs's Node bundles
// (dist/extension.js, dist/scanWorker.js: CommonJS, node20, not minified), so what a benchmark
// times is built as the product is (decisions 522, 529). One place for those settings.
import { build } from 'esbuild';

/** Writes `outdir/NAME.js` for each `NAME: source file` of `entryPoints`. */
export async function bundleLikeProduct(entryPoints: Record<string, string>, outdir: string): Promise<void> {
  await build({ entryPoints, outdir, bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', logLevel: 'warning' });
}
