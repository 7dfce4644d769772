// Run in a child process by scanWarmUp.test.ts, under `node --trace-deopt --require tsx/cjs`:
// warms a WorkerScans up as a scan worker does (unless `--cold`), prints a marker line, then types
// queries unlike the warm-up's over a workspace unlike its own, the way the pool asks for them. The
// test reads which functions V8 deoptimized after the marker.
import { writeSync } from 'node:fs';
import { PathSnapshot } from '../../src/workspace/pathSnapshot';
import { runToEnd } from '../../src/workspace/runSteps';
import { typeKeystrokes, warmUpKeystrokes, warmUpPaths, warmUpSteps } from '../../src/workspace/scanWarmUp';
import { WorkerScans } from '../../src/workspace/workerScans';

export const PROBE_MARKER = '@@ warmed up';

/** Long plain queries first (the hot loop gets optimized on them), then digits, separators, a wide character. */
const QUERIES = ['libparser', 'drvconfig', 'utilindex', 'chatwidget', 'test2', 'main.c', 'config_9', 'v2html5', '문', 'idx3p'];

if (require.main === module) {
  const scans = new WorkerScans();
  if (!process.argv.includes('--cold')) runToEnd(warmUpSteps(scans));
  writeSync(1, `${PROBE_MARKER}\n`);
  const snap = PathSnapshot.build(warmUpPaths(40_000, 0xbeef));
  scans.add(snap);
  runToEnd(typeKeystrokes(scans, snap, warmUpKeystrokes(QUERIES)));
  writeSync(1, `@@ done ${scans.held.snapshots}\n`);
}
