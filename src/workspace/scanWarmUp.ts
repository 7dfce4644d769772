// A scan worker's warm-up (issue 18, decision 509). V8 optimizes the scan's hot loop from the type
// feedback of the code it has already run. A branch that never ran (the first query with a digit,
// the first narrowed scan with its first pass, the first deleted path or filter) has none, so
// reaching it throws the optimized loop away in the middle of a 230k-path part: the part finishes
// in unoptimized code, and the loop is compiled again (40–75 ms of a background thread each time,
// on a 2-core machine beside two busy workers). Measured at 460k paths, with no warm-up: the first
// `css3` took 44 ms (6 ms when typed again), the four keystrokes after it two to three times their
// later cost, and the first pass over the benchmark's queries had a p95 of 16.7 ms against 9–11 ms
// for the same queries typed again.
//
// So a fresh worker types a fixed set of queries over a small generated workspace through the very
// code a real keystroke runs, in its idle time (a step is one keystroke or one build step: a real
// scan waits for the step under way).
import { PathSnapshot } from './pathSnapshot';
import { NO_BAR } from './scanBars';
import { mulberry32 } from './seededRandom';
import type { WorkerScans } from './workerScans';

/** The words the generated workspace's names are made of: mixed case, digits, separators. */
const WORDS = ['src', 'lib', 'core', 'Widget', 'chat', 'test', 'util', 'parser', 'Buffer', 'circ', 'index', 'main', 'spec', 'config', 'driver', 'amdgpu', 'net', 'css3', 'v2', 'make', 'html5', 'README'];
const SEPARATORS = ['', '_', '-', '.', ''];
const EXTENSIONS = ['.ts', '.c', '.h', '.md', '.json', '', '.test.ts', '.rs'];

/**
 * `n` paths shaped like a real tree's: nested folders of mixed-case words with digits and
 * separators, several files a folder (sorted neighbours share prefixes), some beyond Latin-1.
 */
export function warmUpPaths(n: number, seed = 0x5ca7): string[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const name = (): string => (rnd() < 0.5 ? pick(WORDS) : `${pick(WORDS)}${pick(SEPARATORS)}${pick(WORDS)}`);
  const out: string[] = [];
  while (out.length < n) {
    const dir = Array.from({ length: 1 + Math.floor(rnd() * 5) }, name).join('/');
    const files = 1 + Math.floor(rnd() * 12);
    for (let f = 0; f < files && out.length < n; f++) out.push(`${dir}/${name()}${f % 3 === 0 ? f : ''}${pick(EXTENSIONS)}`);
    if (rnd() < 0.05 && out.length < n) out.push(`${dir}/문서_${Math.floor(rnd() * 1000)}.md`);
  }
  return out;
}

/**
 * The queries, each typed keystroke by keystroke: one letter (proved by the mask), fresh and
 * narrowed scans, basename prefixes (the first pass, the name boosts), initials and skeletons
 * (matches that do not start a basename), digits, separators, a character beyond Latin-1, and
 * queries that match nothing.
 */
export const WARM_UP_QUERIES = ['circbuf', 'widget', 'chtwdg', 'css3', 'amdgpu_d', 'make', 'cwt', 'src/core', 'v2p', 'html5', 'spec.ts', 'readme', '문서', 'zzq', 'lbc'];

/** One keystroke of the warm-up, and whether its scan sees a filter's pass mask or deleted paths. */
export interface WarmUpKeystroke {
  q: string;
  filtered: boolean;
  deleted: boolean;
}

/** Every keystroke of every query, plain, and (with `variants`) again with a pass mask and with deleted paths. */
export function warmUpKeystrokes(queries: readonly string[] = WARM_UP_QUERIES, variants = true): WarmUpKeystroke[] {
  const out: WarmUpKeystroke[] = [];
  const kinds = variants
    ? [
        [false, false],
        [true, false],
        [false, true],
      ]
    : [[false, false]];
  for (const [filtered, deleted] of kinds) {
    for (const q of queries) for (let k = 1; k <= q.length; k++) out.push({ q: q.slice(0, k), filtered, deleted });
  }
  return out;
}

/** The generated workspaces, in order: paths, how often the queries are typed, and with variants or not. */
export const WARM_UP_WORKSPACES = [
  { size: 20_000, rounds: 1, variants: false },
  { size: 400, rounds: 6, variants: true },
] as const;

/**
 * The warm-up as small steps. First a workspace big enough that the hot loops run long and each
 * part is scanned in several slices (a slice that resumes where the last one stopped takes a branch
 * the first slice never does: with one slice a part, V8 threw the loop away at the first real
 * folder of 20,000 paths). Then a small one typed again and again, with filters and deleted paths,
 * so the code that runs once per keystroke (the scan's set-up, the bars, the top list) is
 * optimized too.
 */
export function* warmUpSteps(scans: WorkerScans): Generator<void, void, void> {
  let generation = 0;
  for (const { size, rounds, variants } of WARM_UP_WORKSPACES) {
    const built = yield* PathSnapshot.buildSteps(warmUpPaths(size));
    // Under a generation of its own (negative): the host numbers its snapshots from 1, and the
    // worker holds them beside this one.
    const snap = PathSnapshot.fromShared({ ...built.toShared(), generation: --generation });
    scans.add(snap);
    const keystrokes = warmUpKeystrokes(WARM_UP_QUERIES, variants);
    try {
      for (let round = 0; round < rounds; round++) yield* typeKeystrokes(scans, snap, keystrokes);
    } finally {
      scans.forget(snap.generation);
    }
  }
}

/**
 * Scans `snap` (which `scans` holds) for each keystroke, one step each, as the pool asks for it:
 * every part in turn with the bars they share; the answers are dropped. Some keystrokes see a
 * filter's pass mask (every fifth path filtered out) or deleted paths.
 */
export function* typeKeystrokes(scans: WorkerScans, snap: PathSnapshot, keystrokes: readonly WarmUpKeystroke[], parts = 2, cap = 20): Generator<void, void, void> {
  const ignore = (): void => undefined;
  const pass = new Uint8Array(new SharedArrayBuffer(snap.size));
  for (let i = 0; i < snap.size; i++) pass[i] = i % 5 === 0 ? 0 : 1;
  const dead = { ids: Int32Array.of(3, 40, 41), ranges: Int32Array.of(100, 140) };
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  for (const k of keystrokes) {
    const bars = new Int32Array(new SharedArrayBuffer(4 * parts * cap)).fill(NO_BAR);
    for (let w = 0; w < parts; w++) {
      const range = { lo: 0, hi: snap.size, stride: parts, phase: w };
      // Through the structured clone a real message comes through (shared memory stays shared), so
      // WorkerScans.scan sees the objects it will see, not object literals of other shapes.
      scans.scan(structuredClone({ kind: 'scan', id: 0, generation: snap.generation, range, bars, barSlot: w, q: k.q, cap, pass: k.filtered ? pass : undefined, dead: k.deleted ? dead : undefined, cancel } as const), ignore);
    }
    yield;
  }
}
