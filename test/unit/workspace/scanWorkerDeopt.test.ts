// Real scan workers stay optimized after their warm-up (issue 18, decisions 509 and 570). A worker
// used to hand its answer's arrays to the host as transferables: the first transfer detached an
// ArrayBuffer, which invalidates V8's "array buffer detaching" protector in that thread and throws
// away every optimized function that relied on it — the whole warmed-up scan. The first real query
// after start-up paid for it (`ma` at 460k paths: 58–67 ms, then 9–11 ms once recompiled).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { WORKER_PROBE_MARKER } from '../../support/workerDeoptProbe';

const PROBE = resolve(__dirname, '../../support/workerDeoptProbe.ts');
/** The scan's hot functions, by the names V8 prints for a deopt or a thrown-away dependency. */
const HOT = /<(?:JSFunction|SharedFunctionInfo) (scanSlice|scanNamePrefix|scoreDeferred|scanSnapshot|quickScoreRaw|quickScoreBound|quickScoreBoundBoosted|quickScoreNeed|quickBonusLookup|nameBoostOf|nameBoostBytes|bonusAt|sharedBar|publishBar|push)\b/;

describe('scan workers: no deoptimization after the warm-up (decision 570)', function () {
  this.timeout(120_000);

  it('§16.1.1 typing through FileSearcher.search into two real workers throws none of the warmed-up scan away, in any thread', () => {
    const out = execFileSync(process.execPath, ['--trace-deopt', '--require', 'tsx/cjs', PROBE], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const after = out.slice(out.indexOf(WORKER_PROBE_MARKER));
    assert.ok(out.includes(WORKER_PROBE_MARKER), 'the workers warmed up');
    assert.match(after, /@@ answered 47\b/, 'every keystroke was answered');
    const thrownAway = after.split('\n').filter((line) => (line.includes('bailout') || line.includes('marking dependent code')) && HOT.test(line));
    assert.deepEqual(thrownAway.map((line) => line.match(HOT)?.[1]), []);
  });
});
