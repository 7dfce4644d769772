// npm run bench:checkpoint — what a checkpoint costs a turn (issue 17 item 1: "no noticeable
// delay for a workspace of 10,000 files"). For workspaces of 1,000 and 10,000 files (100 folders,
// ~300-byte text files) it measures, with the real git binary and the product's CheckpointService:
//   first:  the very first snapshot (the shadow repository is created and every file hashed);
//   turn:   before-snapshot + after-snapshot + change list of a turn that edits 5 files, creates
//           one and deletes one (what the engine awaits around every turn), median and p95 of
//           BENCH_TURNS turns;
//   idle:   the same for a turn that changed nothing;
//   rewind: restoring one such turn (7 files through the FsBackend).
// Ends with one JSON line.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckpointService } from '../../src/host/checkpoints/checkpointService';
import { NodeFsBackend } from '../../src/workspace/nodeFsBackend';

const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
}

function makeWorkspace(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const folder = join(dir, `pkg${i % 100}`, `mod${Math.floor(i / 1000)}`);
    if (i < 100 || i % 100 === i % 100) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file${i}.ts`), `// file ${i}\nexport const value${i} = ${i};\n${'export function f() { return 42; }\n'.repeat(8)}`);
  }
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
}

async function measure(files: number) {
  const base = mkdtempSync(join(tmpdir(), 'rawp-bench-cp-'));
  const ws = join(base, 'ws');
  makeWorkspace(ws, files);
  const svc = new CheckpointService({ dir: join(base, 'state'), workspace: ws, fs: () => new NodeFsBackend([ws]), logger: silent });
  let t = performance.now();
  await svc.beforeTurn('bench', 'first');
  const first = performance.now() - t;
  await svc.afterTurn('bench', 'first');
  const turn: number[] = [];
  const idle: number[] = [];
  let last: string | undefined;
  for (let n = 0; n < TURNS; n++) {
    t = performance.now();
    await svc.beforeTurn('bench', `t${n}`);
    const beforeMs = performance.now() - t;
    for (let k = 0; k < 5; k++) {
      const i = (n * 37 + k * 101) % files;
      writeFileSync(join(ws, `pkg${i % 100}`, `mod${Math.floor(i / 1000)}`, `file${i}.ts`), `// edited in turn ${n}\nexport const value${i} = ${n};\n`);
    }
    writeFileSync(join(ws, `pkg0`, `new${n}.ts`), `export const created = ${n};\n`);
    const gone = (n * 53 + 7) % files;
    try {
      unlinkSync(join(ws, `pkg${gone % 100}`, `mod${Math.floor(gone / 1000)}`, `file${gone}.ts`));
    } catch {
      // deleted by an earlier turn already
    }
    t = performance.now();
    const rec = await svc.afterTurn('bench', `t${n}`);
    turn.push(beforeMs + (performance.now() - t));
    last = rec?.checkpoint_id ?? last;
    t = performance.now();
    await svc.beforeTurn('bench', `idle${n}`);
    await svc.afterTurn('bench', `idle${n}`);
    idle.push(performance.now() - t);
  }
  t = performance.now();
  const r = last ? await svc.restore(last) : undefined;
  const rewind = performance.now() - t;
  rmSync(base, { recursive: true, force: true });
  return { files, first_ms: Math.round(first), turn_median_ms: pct(turn, 50), turn_p95_ms: pct(turn, 95), idle_median_ms: pct(idle, 50), rewind_ms: Math.round(rewind), rewound_files: r?.restored.length ?? 0 };
}

void (async () => {
  const results: Record<string, unknown> = {};
  for (const n of SIZES) {
    const r = await measure(n);
    console.log(`${n} files: first snapshot ${r.first_ms} ms; a turn (5 edits, 1 create, 1 delete) ${r.turn_median_ms} ms median, ${r.turn_p95_ms} ms p95; an idle turn ${r.idle_median_ms} ms; rewind of ${r.rewound_files} files ${r.rewind_ms} ms`);
    results[`files_${n}`] = r;
  }
  console.log(JSON.stringify({ bench: 'checkpoint', turns: TURNS, ...results }));
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
