// `npm run bench:search` — the @-file picker benchmark (issue 3).
//
// For every path list in scripts/bench/data (Brotli-compressed `paths-*.txt.br`, see its README;
// override: RAWP_BENCH_DATA=dir of `paths-*.txt` or `.txt.br`) and for their union
// ("combo": linux/… + biome/…, ~115k paths, built in memory), it types realistic queries keystroke
// by keystroke into our index and into fuzzysort 4 (threshold 0, limit 20, a fuzzysort snapshot)
// and prints per corpus: index build ms, memory MB, keystroke p50/p95/max ms (wall clock; CPU time
// of the process next to it, since this machine is shared), recall@5 of the intended file, and the
// same for fuzzysort with the ratio. Last, one JSON line per corpus.
//
// Queries are derived from real paths of the corpus with a fixed seed, three kinds per target:
//  - prefix:   a prefix of the basename (4–8 characters), for files whose basename is unique;
//  - initials: the initial letters of the words of the parent directory and the basename
//              ("chat/chatWidgetHost.ts" → "ccwh");
//  - abbrev:   consonant skeletons of the parent directory and the basename stem, 3 letters each
//              ("chat/widget.ts" → "chtwdg").
// Run with `node --expose-gc` (the npm script does) so memory is measured after a collection.
// RAWP_BENCH_VSCODE=astro[,…] (issue 13): the named corpora are also written to disk and indexed
// inside a real VS Code (code-server; scripts/bench/searchVscode.ts): the index build through
// workspace.findFiles is printed beside the Node listing (git ls-files, walk) of the same folder.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import fuzzysort from 'fuzzysort';
import { FileIndex } from '../../src/workspace/fileIndex';
import { FileSearcher } from '../../src/workspace/fileSearch';
import { deriveQueries, type Kind } from './searchQueries';
import { vscodeIndexBuild } from './searchVscode';

const repoRoot = resolve(__dirname, '..', '..');
const dataDir = process.env.RAWP_BENCH_DATA ?? resolve(repoRoot, 'scripts', 'bench', 'data');
const QUERIES_PER_KIND = Number(process.env.RAWP_BENCH_QUERIES ?? 40);

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

function timeKeystroke(run: EngineRun, fn: () => string[]): string[] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = fn();
  run.wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  run.cpu.push((c.user + c.system) / 1000);
  return r;
}

function benchCorpus(name: string, paths: string[]) {
  const queries = deriveQueries(paths, 0x5eed ^ paths.length, QUERIES_PER_KIND);

  gc();
  let m0 = usedMemory();
  let t0 = performance.now();
  const index = FileIndex.fromPaths([{ name, paths }]);
  const searcher = new FileSearcher(index);
  searcher.searchSync({ query: 'a' });
  const buildMs = performance.now() - t0;
  gc();
  const memoryMb = (usedMemory() - m0) / 1e6;

  gc();
  m0 = usedMemory();
  t0 = performance.now();
  const fsTargets = fuzzysort.snapshot(paths);
  fuzzysort.go('a', fsTargets, { threshold: 0, limit: 20 });
  const fsBuildMs = performance.now() - t0;
  gc();
  const fsMemoryMb = (usedMemory() - m0) / 1e6;

  // Warm both engines up (JIT) on a few queries that are not measured.
  for (const q of queries.slice(0, 5)) for (let k = 1; k <= q.text.length; k++) {
    searcher.searchSync({ query: q.text.slice(0, k) });
    fuzzysort.go(q.text.slice(0, k), fsTargets, { threshold: 0, limit: 20 });
  }

  const ours = newRun();
  const theirs = newRun();
  for (const q of queries) {
    let last: string[] = [];
    for (let k = 1; k <= q.text.length; k++) last = timeKeystroke(ours, () => searcher.searchSync({ query: q.text.slice(0, k) }).hits.map((h) => h.path));
    const ok = last.slice(0, 5).includes(q.target);
    ours.hits5 += ok ? 1 : 0;
    ours.hitsByKind[q.kind][0] += ok ? 1 : 0;
    ours.hitsByKind[q.kind][1]++;
    let lastFs: string[] = [];
    for (let k = 1; k <= q.text.length; k++)
      lastFs = timeKeystroke(theirs, () => Array.from(fuzzysort.go(q.text.slice(0, k), fsTargets, { threshold: 0, limit: 20 }), (r) => r.target));
    const okFs = lastFs.slice(0, 5).includes(q.target);
    theirs.hits5 += okFs ? 1 : 0;
    theirs.hitsByKind[q.kind][0] += okFs ? 1 : 0;
    theirs.hitsByKind[q.kind][1]++;
  }
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
  return { queries, buildMs, memoryMb, fsBuildMs, fsMemoryMb, ours, theirs, applyMs };
}

function report(name: string, paths: string[]): void {
  const r = benchCorpus(name, paths);
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
  const b = stat(r.theirs);
  const ratio = (x: number, y: number) => (x > 0 ? `${round(y / x, 1)}×` : '—');
  const lines = [
    `\n== ${name}: ${paths.length} paths, ${r.queries.length} queries, ${r.ours.wall.length} keystrokes`,
    `            build ms  memory MB  p50 ms  p95 ms  max ms  cpu p50  cpu p95  recall@5`,
    `  ours      ${round(r.buildMs, 0).toString().padStart(8)}  ${round(r.memoryMb, 1).toString().padStart(9)}  ${round(a.p50).toString().padStart(6)}  ${round(a.p95).toString().padStart(6)}  ${round(a.max, 1).toString().padStart(6)}  ${round(a.cpu50).toString().padStart(7)}  ${round(a.cpu95).toString().padStart(7)}  ${round(a.recall, 3)} (${a.kinds})`,
    `  fuzzysort ${round(r.fsBuildMs, 0).toString().padStart(8)}  ${round(r.fsMemoryMb, 1).toString().padStart(9)}  ${round(b.p50).toString().padStart(6)}  ${round(b.p95).toString().padStart(6)}  ${round(b.max, 1).toString().padStart(6)}  ${round(b.cpu50).toString().padStart(7)}  ${round(b.cpu95).toString().padStart(7)}  ${round(b.recall, 3)} (${b.kinds})`,
    `  fuzzysort / ours: p50 ${ratio(a.p50, b.p50)}, p95 ${ratio(a.p95, b.p95)}, memory ${ratio(r.memoryMb, r.fsMemoryMb)}`,
    `  watcher batch (25 created + 25 deleted) applied in: median ${round(percentile(r.applyMs, 0.5), 3)} ms, max ${round(Math.max(...r.applyMs), 3)} ms`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  results.push({
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
    fuzzysort_build_ms: round(r.fsBuildMs, 1),
    fuzzysort_memory_mb: round(r.fsMemoryMb, 1),
    fuzzysort_p50_ms: round(b.p50),
    fuzzysort_p95_ms: round(b.p95),
    fuzzysort_max_ms: round(b.max),
    fuzzysort_recall5: round(b.recall, 3),
    queries: r.queries.length,
    keystrokes: r.ours.wall.length,
    apply_batch_max_ms: round(Math.max(...r.applyMs), 3),
  });
}

const results: Record<string, unknown>[] = [];

async function main(): Promise<void> {
  if (!existsSync(dataDir)) {
    process.stderr.write(`bench:search: no bench data at ${dataDir} (set RAWP_BENCH_DATA)\n`);
    process.exitCode = 2;
    return;
  }
  if (!(globalThis as { gc?: unknown }).gc) process.stderr.write('bench:search: run with --expose-gc for exact memory figures\n');
  const lists = new Map<string, string[]>();
  for (const file of readdirSync(dataDir).filter((f) => /^paths-.*\.txt(\.br)?$/.test(f)).sort()) {
    const name = file.replace(/^paths-/, '').replace(/\.txt(\.br)?$/, '');
    const bytes = readFileSync(join(dataDir, file));
    const text = (file.endsWith('.br') ? brotliDecompressSync(bytes) : bytes).toString('utf8');
    lists.set(name, text.split('\n').filter(Boolean));
  }
  const only = process.env.RAWP_BENCH_ONLY?.split(',');
  for (const [name, paths] of lists) if (!only || only.includes(name)) report(name, paths);
  const linux = [...lists.entries()].find(([n]) => n.startsWith('linux'))?.[1];
  const biome = lists.get('biome');
  if (linux && biome && (!only || only.includes('union'))) report('union', [...linux.map((p) => `linux/${p}`), ...biome.map((p) => `biome/${p}`)]);
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
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(JSON.stringify(r) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:search: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
