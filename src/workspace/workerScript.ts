// Where a worker thread's script is and how to start it. In the bundles (dist/extension.js,
// dist/cli.js) the worker is its own bundle beside them (dist/NAME.js); from the sources (tests and
// benchmarks under tsx) it is the .ts file next to the module that starts it, loaded through tsx.
// (This module is bundled with its callers, so its own file name tells which of the two it is.)
import { join } from 'node:path';
import type { WorkerOptions } from 'node:worker_threads';

const FROM_SOURCES = __filename.endsWith('.ts');

/** `dir`: the starting module's `__dirname`; `name`: the worker's file name without extension. */
export function workerScript(dir: string, name: string): { file: string; options: WorkerOptions } {
  return FROM_SOURCES ? { file: join(dir, `${name}.ts`), options: { execArgv: ['--require', 'tsx/cjs'] } } : { file: join(dir, `${name}.js`), options: {} };
}
