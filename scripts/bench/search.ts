// `npm run bench:search` — the @-file picker benchmark (issue 3).
//
// For every path list in scripts/bench/data (Brotli-compressed `paths-*.txt.br`, see its README;
// override: RAWP_BENCH_DATA=dir of `paths-*.txt` or `.txt.br`) and for their union
// ("union": linux/… + biome/…, ~115k paths, built in memory) and four copies of the union under
// distinct roots ("chromium-sized", ~460k paths; latency and memory only, fewer queries), it types
// realistic queries keystroke by keystroke into our index and into the peers of searchPeers.ts
// (fuzzysort 4, fzf-for-js, uFuzzy) and prints per corpus: index build ms, the longest event-loop
// block while indexing, memory MB, keystroke p50/p95/max ms (wall clock; CPU time of the process
// next to it, since this machine is shared), recall@5 of the intended file, and the same for each
// peer with the ratio. The chromium-sized corpus is also indexed cold, first thing in fresh
// processes (searchCold.ts). Last, one JSON line per corpus, with a fixed CPU probe's figures
// (machineProbe.ts: `probe_1t_ms`, `probe_2t_ms`) so runs on a shared machine can be compared.
//
// Queries are derived from real paths of the corpus with a fixed seed, three kinds per target:
//  - prefix:   a prefix of the basename (4–8 characters), for files whose basename is unique;
//  - initials: the initial letters of the words of the parent directory and the basename
//              ("chat/chatWidgetHost.ts" → "ccwh");
//  - abbrev:   consonant skeletons of the parent directory and the basename stem, 3 letters each
//              ("chat/widget.ts" → "chtwdg").
// Run with `node --expose-gc` (the npm script does) so memory is measured after a collection.
// The scan workers run the worker's bundle, as the product ships it (searchWorkerBundle.ts,
// decision 529); the benchmark itself and the peers run under tsx.
// RAWP_BENCH_VSCODE=astro[,…] (issue 13): the named corpora are also written to disk and indexed
// inside a real VS Code (code-server; scripts/bench/searchVscode.ts): the index build through
// workspace.findFiles is printed beside the Node listing (git ls-files, walk) of the same folder.
// RAWP_BENCH_ONLY=union[,…] benches only the named corpora; RAWP_BENCH_PEERS=fuzzysort[,…] only
// the named peers (the JSON lines then lack the others' fields).
import { readdirSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileIndex } from '../../src/workspace/fileIndex';
import { FileSearcher, PARALLEL_MIN_PATHS } from '../../src/workspace/fileSearch';
import { settleGarbage } from '../../src/workspace/settleGarbage';
import { peers, type PeerBuild, type PeerName } from './searchPeers';
import { chromiumSized, readPathLists, unionOf } from './searchCorpora';
import { deriveQueries, type Kind, type Query } from './searchQueries';
import { vscodeIndexBuild } from './searchVscode';
import { machineProbe, type MachineProbe } from './machineProbe';
import { coldStarts, type ColdStartRun } from './searchCold';
import { benchScanPool, type BenchPool } from './searchWorkerBundle';

const repoRoot = resolve(__dirname, '..', '..');
const dataDir = process.env.RAWP_BENCH_DATA ?? resolve(repoRoot, 'scripts', 'bench', 'data');
const QUERIES_PER_KIND = Number(process.env.RAWP_BENCH_QUERIES ?? 40);
const CHROMIUM_QUERIES_PER_KIND = Number(process.env.RAWP_BENCH_CHROMIUM_QUERIES ?? 3);
const COLD_RUNS = Number(process.env.RAWP_BENCH_COLD_RUNS ?? 3);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
}
const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
};
const usedMemory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

interface EngineRun {
  wall: number[];
  cpu: number[];
  hits5: number;
  hitsByKind: Record<Kind, [number, number]>;
}
const newRun = (): EngineRun => ({ wall: [], cpu: [], hits5: 0, hitsByKind: { prefix: [0, 0], initials: [0, 0], abbrev: [0, 0] } });

/** Times one keystroke: a peer's synchronous search, or our asynchronous one (awaited only then,
 * so a synchronous peer's time holds no extra turn). */
async function timeKeystroke(run: EngineRun, fn: () => string[] | Promise<string[]>): Promise<string[]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const answer = fn();
  const r = answer instanceof Promise ? await answer : answer;
  run.wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  run.cpu.push((c.user + c.system) / 1000);
  return r;
}

/** How long the event loop was blocked at most while `fn` ran (perf_hooks histogram, 1 ms resolution). */
async function withBlockMonitor<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; maxBlockMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await sleep(5);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  await sleep(5);
  h.disable();
  return { value, ms, maxBlockMs: h.max / 1e6 };
}

/**
 * The same monitor over `ms` of 1-ms slices of busy work: the longest block this machine shows for
 * work that never runs longer than 1 ms at a time (preemption by other processes, collections). On
 * a shared machine it tells a block of the index from the machine's own noise.
 */
async function controlBlock(ms: number): Promise<number> {
  const r = await withBlockMonitor(async () => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      const t = performance.now();
      while (performance.now() - t < 1);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  });
  return r.maxBlockMs;
}

/** Waits while the scan workers' warm-up runs (asked by a big corpus's first search); at most a minute. */
async function warmUpDone(): Promise<void> {
  const pool = workers.pool;
  const until = performance.now() + 60_000;
  while (pool?.usable && (await pool.warmUpStates()).includes('running')) {
    if (performance.now() > until) throw new Error('the scan workers were still warming up after a minute');
    await sleep(20);
  }
}

interface PeerRun extends EngineRun {
  buildMs: number;
  memoryMb: number;
}

/** Build a peer's index (time, memory after GC), warm it up, then type every query into it. */
async function runPeer(build: PeerBuild, paths: string[], queries: Query[]): Promise<PeerRun> {
  gc();
  const m0 = usedMemory();
  const t0 = performance.now();
  const search = build(paths);
  search('a');
  const buildMs = performance.now() - t0;
  gc();
  // A peer that keeps no index of its own (uFuzzy searches the array it is given) measures ~0,
  // within GC noise of either sign; never report a negative size.
  const memoryMb = Math.max(0, (usedMemory() - m0) / 1e6);
  for (const q of queries.slice(0, 3)) for (let k = 1; k <= q.text.length; k++) search(q.text.slice(0, k));
  const run: PeerRun = { ...newRun(), buildMs, memoryMb };
  for (const q of queries) await typeQuery(run, q, search);
  return run;
}

/** The scan workers' own memory (heap and array buffers; the snapshot they share is counted once, in the host). */
async function workersMemory(): Promise<number> {
  const pool = workers.pool;
  if (!pool) return 0;
  const parts = await pool.memory(); // each worker settles its own garbage first
  return parts.reduce((sum, p) => sum + p.heapUsed + p.arrayBuffers, 0);
}

/** One query keystroke by keystroke; recall@5 from the final keystroke's answer. */
async function typeQuery(run: EngineRun, q: Query, search: (query: string) => string[] | Promise<string[]>): Promise<void> {
  let last: string[] = [];
  for (let k = 1; k <= q.text.length; k++) last = await timeKeystroke(run, () => search(q.text.slice(0, k)));
  const ok = last.slice(0, 5).includes(q.target);
  run.hits5 += ok ? 1 : 0;
  run.hitsByKind[q.kind][0] += ok ? 1 : 0;
  run.hitsByKind[q.kind][1]++;
}

/** The host's memory once its garbage has settled (settleGarbage.ts). */
async function settledMemory(): Promise<number> {
  await settleGarbage();
  return usedMemory();
}

async function benchCorpus(name: string, paths: string[], queries: Query[]) {
  const w0 = await workersMemory(); // starts the workers: their own start is not the index's memory
  const m0 = await settledMemory();
  // The product's build path: the snapshot is built in slices between event-loop turns, and the
  // first search runs the way the product runs it (FileSearcher.search, sliced), so the longest
  // block is the index's, not a synchronous benchmark-only call.
  const built = await withBlockMonitor(async () => {
    const index = await FileIndex.fromPathsAsync([{ name, paths }], { scanPool: workers.pool ?? null });
    const searcher = new FileSearcher(index, undefined, { pool: workers.pool ?? null });
    await searcher.search({ query: 'a' }, { cancelled: false });
    return { index, searcher };
  });
  const { index, searcher } = built.value;
  const controlBlockMs = await controlBlock(built.ms);
  const hostMemory = (await settledMemory()) - m0;

  // The scan workers' own warm-up (scanWarmUp.ts) runs once per pool, after the first index is
  // built; a keystroke during it waits for its step. Measured keystrokes start once it is done, as
  // a user's do seconds after the window opened, whichever corpus comes first (RAWP_BENCH_ONLY);
  // the keystrokes of a fresh process are the cold start's figures (searchCold.ts, decision 643).
  // Only a warm-up under way is waited for: a small corpus (scanned in this thread) asks none.
  await warmUpDone();
  // Warm up (JIT) on a few queries that are not measured. Keystrokes go through the product's
  // asynchronous search: big folders are scanned by the scan workers (decision 500).
  const token = { cancelled: false };
  for (const q of queries.slice(0, 5)) for (let k = 1; k <= q.text.length; k++) await searcher.search({ query: q.text.slice(0, k) }, token);
  const ours = newRun();
  for (const q of queries) await typeQuery(ours, q, async (query) => (await searcher.search({ query }, token))?.hits.map((h) => h.path) ?? []);
  // The index's memory: the host's (the snapshot, shared with the workers) and what the workers
  // hold for it after the keystrokes (each part's survivors and scan arrays).
  const workersMb = Math.max(0, (await workersMemory()) - w0) / 1e6;
  const memoryMb = hostMemory / 1e6 + workersMb;

  // Watcher batches: 20 batches of 25 creations + 25 deletions applied to the live index.
  const applyMs: number[] = [];
  const folder = index.folders[0].index;
  for (let b = 0; b < 20; b++) {
    const batch = [
      ...Array.from({ length: 25 }, (_, i) => ({ kind: 'addFile' as const, path: `new/batch${b}/file${i}.ts` })),
      ...Array.from({ length: 25 }, (_, i) => ({ kind: 'remove' as const, path: paths[(b * 25 + i) * 7 % paths.length] })),
    ];
    const t = performance.now();
    folder.apply(batch);
    applyMs.push(performance.now() - t);
  }
  index.dispose();
  searcher.release();
  // Peers one at a time (ours is disposed), each measured on the same queries.
  const others = {} as Record<PeerName, PeerRun>;
  for (const peer of PEERS) others[peer] = await runPeer(peers[peer], paths, queries);
  return { queries, hostMb: hostMemory / 1e6, workersMb, buildMs: built.ms, buildMaxBlockMs: built.maxBlockMs, controlBlockMs, memoryMb, ours, others, applyMs };
}

const ALL_PEERS: PeerName[] = ['fuzzysort', 'fzf', 'ufuzzy'];
/** RAWP_BENCH_PEERS=fuzzysort[,…]: only these peers (a quicker run while working on ours; fzf takes seconds a keystroke at 460k). */
const PEERS: PeerName[] = process.env.RAWP_BENCH_PEERS ? ALL_PEERS.filter((p) => process.env.RAWP_BENCH_PEERS?.split(',').includes(p)) : ALL_PEERS;

function scanWorkers(n: number): string {
  const pool = workers.pool;
  if (n < PARALLEL_MIN_PATHS || !pool) return 'scanned in the calling thread';
  return pool.usable ? `scanned by ${pool.size} scan workers running ${workers.runs}` : `scanned in the calling thread: the scan workers failed (${pool.failure})`;
}

/** `recall: false` for corpora whose copies make the intended file ambiguous (latency and memory only). */
async function report(name: string, paths: string[], options: { queries?: Query[]; recall?: boolean } = {}): Promise<void> {
  const withRecall = options.recall !== false;
  const r = await benchCorpus(name, paths, options.queries ?? deriveQueries(paths, 0x5eed ^ paths.length, QUERIES_PER_KIND));
  const stat = (run: EngineRun) => ({
    p50: percentile(run.wall, 0.5),
    p95: percentile(run.wall, 0.95),
    max: Math.max(...run.wall),
    cpu50: percentile(run.cpu, 0.5),
    cpu95: percentile(run.cpu, 0.95),
    recall: run.hits5 / r.queries.length,
    kinds: Object.entries(run.hitsByKind)
      .map(([k, [h, n]]) => `${k} ${h}/${n}`)
      .join(', '),
  });
  const a = stat(r.ours);
  const ratio = (x: number, y: number) => (x > 0 ? `${round(y / x, 1)}×` : '—');
  const row = (label: string, buildMs: number, memoryMb: number, x: ReturnType<typeof stat>) =>
    `  ${label.padEnd(9)} ${round(buildMs, 0).toString().padStart(8)}  ${round(memoryMb, 1).toString().padStart(9)}  ${round(x.p50).toString().padStart(6)}  ${round(x.p95).toString().padStart(6)}  ${round(x.max, 1).toString().padStart(6)}  ${round(x.cpu50).toString().padStart(7)}  ${round(x.cpu95).toString().padStart(7)}  ${withRecall ? `${round(x.recall, 3)} (${x.kinds})` : '—'}`;
  const lines = [
    `\n== ${name}: ${paths.length} paths, ${r.queries.length} queries, ${r.ours.wall.length} keystrokes`,
    `            build ms  memory MB  p50 ms  p95 ms  max ms  cpu p50  cpu p95  recall@5`,
    row('ours', r.buildMs, r.memoryMb, a),
    ...PEERS.map((peer) => row(peer, r.others[peer].buildMs, r.others[peer].memoryMb, stat(r.others[peer]))),
    ...PEERS.map((peer) => `  ${peer} / ours: p50 ${ratio(a.p50, stat(r.others[peer]).p50)}, p95 ${ratio(a.p95, stat(r.others[peer]).p95)}, memory ${ratio(r.memoryMb, r.others[peer].memoryMb)}`),
    `  ours: keystrokes through FileSearcher.search, ${scanWorkers(paths.length)} (decision 500); memory ${round(r.hostMb, 1)} MB in the host (the snapshot the workers share) + ${round(r.workersMb, 1)} MB in the workers`,
    `  longest event-loop block while indexing: ${round(r.buildMaxBlockMs, 1)} ms (the machine's own, 1-ms slices of busy work as long: ${round(r.controlBlockMs, 1)} ms)`,
    `  watcher batch (25 created + 25 deleted) applied in: median ${round(percentile(r.applyMs, 0.5), 3)} ms, max ${round(Math.max(...r.applyMs), 3)} ms`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const line: Record<string, unknown> = {
    bench: 'search',
    corpus: name,
    paths: paths.length,
    build_ms: round(r.buildMs, 1),
    memory_mb: round(r.memoryMb, 1),
    p50_ms: round(a.p50),
    p95_ms: round(a.p95),
    max_ms: round(a.max),
    cpu_p50_ms: round(a.cpu50),
    cpu_p95_ms: round(a.cpu95),
    recall5: round(a.recall, 3),
    queries: r.queries.length,
    keystrokes: r.ours.wall.length,
    apply_batch_max_ms: round(Math.max(...r.applyMs), 3),
    build_max_block_ms: round(r.buildMaxBlockMs, 1),
    control_max_block_ms: round(r.controlBlockMs, 1),
    scan_workers: paths.length >= PARALLEL_MIN_PATHS && workers.pool?.usable ? workers.pool.size : 0,
    scan_worker: workers.kind,
  };
  for (const peer of PEERS) {
    const x = stat(r.others[peer]);
    line[`${peer}_build_ms`] = round(r.others[peer].buildMs, 1);
    line[`${peer}_memory_mb`] = round(r.others[peer].memoryMb, 1);
    line[`${peer}_p50_ms`] = round(x.p50);
    line[`${peer}_p95_ms`] = round(x.p95);
    if (peer === 'fuzzysort') line.fuzzysort_max_ms = round(x.max);
    line[`${peer}_recall5`] = round(x.recall, 3);
  }
  if (!withRecall) for (const key of Object.keys(line)) if (key.endsWith('recall5')) delete line[key];
  line.probe_1t_ms = round(probe.oneThreadMs, 1);
  line.probe_2t_ms = round(probe.twoThreadsMs, 1);
  results.push(line);
}

/**
 * The cold start (searchCold.ts, decision 522): the chromium-sized listing indexed first in a
 * fresh process from bundles, its scan workers starting meanwhile. Printed run by run; the JSON
 * line of the corpus gets the medians (and the worst block).
 */
function reportColdStarts(runs: ColdStartRun[], line: Record<string, unknown>): void {
  const median = (pick: (r: ColdStartRun) => number) => percentile(runs.map(pick), 0.5);
  const lines = [
    `  cold start (${runs.length} fresh processes from bundles; indexed first, the scan workers starting meanwhile):`,
    ...runs.map((r) => `    build ${round(r.build_ms, 0)} ms, longest block ${round(r.max_block_ms, 1)} ms; workers' warm-up ${round(r.warm_up_ms, 0)} ms after it, longest block ${round(r.warm_up_max_block_ms, 1)} ms; then "chtwdg" typed: slowest keystroke ${round(r.first_query_max_ms, 1)} ms`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  Object.assign(line, {
    cold_build_ms: round(median((r) => r.build_ms), 1),
    cold_build_max_block_ms: round(median((r) => r.max_block_ms), 1),
    cold_build_max_block_worst_ms: round(Math.max(...runs.map((r) => r.max_block_ms)), 1),
    cold_warm_up_ms: round(median((r) => r.warm_up_ms), 1),
    cold_warm_up_max_block_ms: round(median((r) => r.warm_up_max_block_ms), 1),
    cold_first_query_max_ms: round(median((r) => r.first_query_max_ms), 1),
  });
}

const results: Record<string, unknown>[] = [];
let probe: MachineProbe = { oneThreadMs: 0, twoThreadsMs: 0 };
let workers: BenchPool = { pool: undefined, runs: '', kind: 'none', dispose: async () => undefined };

async function main(): Promise<void> {
  if (!existsSync(dataDir)) {
    process.stderr.write(`bench:search: no bench data at ${dataDir} (set RAWP_BENCH_DATA)\n`);
    process.exitCode = 2;
    return;
  }
  if (!(globalThis as { gc?: unknown }).gc) process.stderr.write('bench:search: run with --expose-gc for exact memory figures\n');
  probe = await machineProbe();
  process.stdout.write(`machine probe (a fixed scan; lower is faster, compare run to run): one thread ${round(probe.oneThreadMs, 0)} ms, two threads at once ${round(probe.twoThreadsMs, 0)} ms\n`);
  workers = await benchScanPool();
  const lists = readPathLists(dataDir);
  const only = process.env.RAWP_BENCH_ONLY?.split(',');
  for (const [name, paths] of lists) if (!only || only.includes(name)) await report(name, paths);
  const union = unionOf(lists);
  if (union && (!only || only.includes('union'))) await report('union', union);
  // Issue 18: a chromium-sized workspace, four copies of the union under distinct roots
  // (~460,000 paths). The copies make the intended file ambiguous: latency and memory only, on
  // fewer queries (the slowest peer takes seconds a keystroke at this size).
  if (union && (!only || only.includes('chromium-sized'))) {
    const copies = chromiumSized(union);
    // The union's own derived queries (no basename is unique among copies, so none derive here).
    const queries = deriveQueries(union, 0x5eed ^ copies.length, CHROMIUM_QUERIES_PER_KIND).map((q) => ({ ...q, target: `copy1/${q.target}` }));
    await report('chromium-sized', copies, { queries, recall: false });
    reportColdStarts(await coldStarts(dataDir, COLD_RUNS), results.at(-1) ?? {});
  }
  // Issue 13: the index build inside VS Code (workspace.findFiles) beside the Node listing of the
  // same corpus on disk, for the corpora named by RAWP_BENCH_VSCODE (needs code-server).
  const inVscode = process.env.RAWP_BENCH_VSCODE ? process.env.RAWP_BENCH_VSCODE.split(',').filter(Boolean) : [];
  for (const name of inVscode) {
    const file = readdirSync(dataDir).find((f) => f.replace(/^paths-/, '').replace(/\.txt(\.br)?$/, '') === name);
    if (!file) {
      process.stderr.write(`bench:search: no corpus "${name}" for RAWP_BENCH_VSCODE\n`);
      process.exitCode = 2;
      continue;
    }
    const v = await vscodeIndexBuild(join(dataDir, file));
    process.stdout.write(`\n${name} on disk, ${v.files} files — index build: VS Code (workspace.findFiles) ${v.vscode_ms.toFixed(0)} ms · Node git ls-files ${v.node_git_ms.toFixed(0)} ms · Node walk ${v.node_walk_ms.toFixed(0)} ms (same paths from all three)\n`);
    results.push({ bench: 'search-index-build-on-disk', corpus: name, files: v.files, vscode_findfiles_ms: round(v.vscode_ms, 1), node_git_ms: round(v.node_git_ms, 1), node_walk_ms: round(v.node_walk_ms, 1) });
  }
  await workers.dispose();
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(JSON.stringify(r) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:search: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
