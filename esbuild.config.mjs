// Bundles the three deliverables: the extension host entry, the webview UI and the `rawp` CLI
// (with the worker-thread scripts they start).
// `node esbuild.config.mjs [--watch] [--production]`
import * as esbuild from 'esbuild';
import { chmodSync } from 'node:fs';
import { webviewTarget } from './webview-ui/build.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['bufferutil', 'utf-8-validate'],
  },
  {
    // Grep/Glob's linear-time regex worker (src/tools/search/searchClient.ts loads it beside the bundle).
    ...common,
    entryPoints: ['src/tools/search/searchWorker.ts'],
    outfile: 'dist/searchWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The @-search scan workers (src/workspace/scanPool.ts loads it beside the bundle).
    ...common,
    entryPoints: ['src/workspace/scanWorker.ts'],
    outfile: 'dist/scanWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // `rawp convert`'s conversion thread: the converters only (src/agents/convert/stream.ts loads it beside the bundle).
    ...common,
    entryPoints: ['src/agents/convert/convertWorker.ts'],
    outfile: 'dist/convertWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  webviewTarget(common),
];

if (watch) {
  const ctxs = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(ctxs.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  chmodSync('dist/cli.js', 0o755);
}
