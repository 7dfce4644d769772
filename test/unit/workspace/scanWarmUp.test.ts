// The scan workers' warm-up (issue 18, decision 509): a fresh worker types a fixed set of queries
// over a generated workspace, so V8 has the type feedback of every branch of the scan before a
// real keystroke reaches it, and never throws the optimized loop away in the middle of one.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { runToEnd } from '../../../src/workspace/runSteps';
import { SCAN_BLOCK } from '../../../src/workspace/scanRange';
import { WARM_UP_QUERIES, WARM_UP_WORKSPACES, warmUpKeystrokes, warmUpPaths, warmUpSteps } from '../../../src/workspace/scanWarmUp';
import { WorkerScans } from '../../../src/workspace/workerScans';
import { PROBE_MARKER } from '../../support/scanDeoptProbe';

const PROBE = resolve(__dirname, '../../support/scanDeoptProbe.ts');
/** The scan's functions: a deopt of any of them after the warm-up is a branch the warm-up missed. */
const SCAN_FUNCTIONS = /<JSFunction (scanSlice|scanNamePrefix|scoreDeferred|scanSnapshot|quickScoreRaw|quickScoreBound|quickScoreBoundBoosted|quickScoreNeed|quickBonusLookup|nameBoostOf|nameBoostBytes|bonusAt|lengthCut|sharedBar|publishBar|push) /;

/** The scan functions V8 deoptimized after the probe's marker, one entry per deopt. */
function deoptsAfterWarmUp(cold: boolean): string[] {
  const out = execFileSync(process.execPath, ['--trace-deopt', '--require', 'tsx/cjs', PROBE, ...(cold ? ['--cold'] : [])], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const after = out.slice(out.indexOf(PROBE_MARKER));
  assert.ok(out.includes(PROBE_MARKER) && /@@ done 1/.test(after), 'the probe ran to its end');
  return after
    .split('\n')
    .filter((line) => line.includes('bailout') && SCAN_FUNCTIONS.test(line))
    .map((line) => line.match(SCAN_FUNCTIONS)?.[1] ?? '');
}

describe('scan warm-up (issue 18, decision 509)', function () {
  this.timeout(60_000);

  it('after the warm-up, typing other queries over another workspace deoptimizes none of the scan functions; cold, the same probe does', () => {
    assert.deepEqual(deoptsAfterWarmUp(false), []);
    // The probe can see what it looks for: without the warm-up, the first digit, filter and
    // narrowed scan each throw optimized scan code away.
    assert.ok(deoptsAfterWarmUp(true).length > 0, 'a cold scan deoptimizes');
  });

  it('§16.1.1 quickScoreNeed stays optimized when a bar below zero meets a short path: Math.ceil(−0.125) is −0, no small integer', () => {
    // Seen in a real keystroke (bar −6, penalty 5.875): the deopt threw the scan loop away in the
    // middle of a worker's part. V8's own status bits say whether the optimized code survived.
    const probe = `
      const { quickScoreNeed } = require(${JSON.stringify(resolve(__dirname, '../../../src/workspace/quickBound.ts'))});
      %PrepareFunctionForOptimization(quickScoreNeed);
      for (let i = 0; i < 2000; i++) quickScoreNeed(100 + (i % 7), 90 + (i % 5), 5.5 + (i % 3) / 8, i % 2 === 0, i % 3);
      %OptimizeFunctionOnNextCall(quickScoreNeed);
      quickScoreNeed(100, 90, 5.5, false, 0);
      const before = %GetOptimizationStatus(quickScoreNeed);
      const need = quickScoreNeed(45.375, -6, 5.875, false, 0);
      console.log(JSON.stringify({ before, after: %GetOptimizationStatus(quickScoreNeed), need }));`;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '--require', 'tsx/cjs', '-e', probe], { encoding: 'utf8' });
    const { before, after, need } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { before: number; after: number; need: number };
    const TURBOFANNED = 1 << 6;
    assert.ok(before & TURBOFANNED, `optimized before the call (status ${before})`);
    assert.ok(after & TURBOFANNED, `still optimized after it (status ${after})`);
    // And the answer: the bar's integer need, max(⌈−6 + 5.875⌉ − 1, the floor's ⌊45.375 + 5.875⌋) = 51.
    assert.equal(need, 51);
  });

  it('leaves no snapshot or narrowing state behind in the worker', () => {
    const scans = new WorkerScans();
    runToEnd(warmUpSteps(scans));
    assert.deepEqual(scans.held, { snapshots: 0, states: 0 });
  });

  it('runs in steps of one keystroke (a real message waits for one at most), over snapshots of its own (negative generations)', () => {
    const scans = new WorkerScans();
    const steps = warmUpSteps(scans);
    const generations = new Set<number>();
    const add = scans.add.bind(scans);
    scans.add = (snap) => {
      generations.add(snap.generation);
      add(snap);
    };
    let n = 0;
    while (!steps.next().done) n++;
    assert.ok(n > warmUpKeystrokes().length, `${n} steps`);
    assert.equal(generations.size, 2);
    for (const g of generations) assert.ok(g < 0, `generation ${g}`);
  });

  it('types over a workspace that takes every branch: several slices a part, mixed case, digits, separators, non-Latin-1 names, and queries of each kind', () => {
    const big = WARM_UP_WORKSPACES[0];
    const paths = warmUpPaths(big.size);
    // Two parts of interleaved blocks, each scanned in more than one slice (a slice that resumes
    // where the last one stopped takes a branch the first never does).
    assert.ok(new Set(paths).size > 2 * 2 * SCAN_BLOCK, `${new Set(paths).size} distinct paths`);
    assert.ok(WARM_UP_WORKSPACES.some((w) => w.variants), 'filters and deleted paths are typed too');
    assert.ok(paths.some((p) => /[A-Z]/.test(p)) && paths.some((p) => /\d/.test(p)) && paths.some((p) => /[_\-.]/.test(p.split('/').pop() ?? '')));
    assert.ok(paths.some((p) => /[^\u0000-\u00ff]/.test(p)), 'a name beyond Latin-1');
    assert.ok(WARM_UP_QUERIES.some((q) => /\d/.test(q)), 'a digit');
    assert.ok(WARM_UP_QUERIES.some((q) => /[^\u0000-\u00ff]/.test(q)), 'a character beyond Latin-1');
    assert.ok(WARM_UP_QUERIES.some((q) => q.includes('/')), 'a separator');
    assert.ok(WARM_UP_QUERIES.some((q) => !paths.some((p) => isSubsequence(q, p.toLowerCase()))), 'a query that matches nothing');
    const kinds = warmUpKeystrokes();
    assert.ok(kinds.some((k) => k.filtered) && kinds.some((k) => k.deleted) && kinds.some((k) => !k.filtered && !k.deleted));
  });
});

function isSubsequence(q: string, s: string): boolean {
  let j = 0;
  for (const c of s) if (c === q[j]) j++;
  return j === q.length;
}
