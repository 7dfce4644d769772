// Decision 733: rules that fill the bounds of decision 711 held the event loop 0.1–0.4 s for a
// listing of 2,000 files, in one synchronous stretch. Now the listing (the walk and git's), and the
// watcher's checks, read and compile ignore rules in small steps and check paths between
// event-loop turns that all of them share (sharedSlices.ts); the groups of rules are cut by length
// too, and ignore files are read a few rules at a time. How long a turn takes is measured in the
// decision, not here: these tests check the structure (with a 0 ms slice every check waits for its
// own turn) and that the answers are those of the synchronous checks and of the `ignore` package.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ignore from 'ignore';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { GitignoreMatcher } from '../../../src/workspace/gitignoreMatcher';
import { gitignoreLines } from '../../../src/workspace/gitignoreLines';
import { MAX_IGNORE_RULES, setIgnoreWarningSink } from '../../../src/workspace/ignoreLimits';
import { IgnoreRules, dotIgnoreFilter } from '../../../src/workspace/ignoreRules';
import { listFiles } from '../../../src/workspace/listFiles';
import { SHARED_SLICE_MS, nextSlice, setSharedSliceMs, sliceSpent } from '../../../src/workspace/sharedSlices';
import { git, gitInit, makeTmp, removeTmp, writeTree } from './tmpWorkspace';

/** Decision 711's worst case: 1,000 rules `*` + six letters (a group per 128 compiled, DFA resets), one file in ten matching one. */
function xRules(): { rules: string; files: string[] } {
  let seed = 733;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % 26);
  const suffixes = Array.from({ length: 1000 }, () => Array.from({ length: 6 }, letter).join(''));
  const files = Array.from({ length: 2000 }, (_, i) => (i % 10 === 0 ? `n${i}${suffixes[((i / 10) * 5) % 1000]}` : `file${i}.txt`));
  return { rules: suffixes.map((s) => `*${s}`).join('\n') + '\n', files };
}

/** While `op` runs: the most calls of `GitignoreMatcher.prototype.test` (one per path here) between two turns of the event loop. */
async function checksPerTurn<T>(op: () => Promise<T>): Promise<{ value: T; most: number; total: number }> {
  const proto = GitignoreMatcher.prototype as unknown as { test: (path: string) => unknown };
  const original = proto.test;
  let since = 0;
  let most = 0;
  let total = 0;
  proto.test = function (this: unknown, path: string) {
    since++;
    total++;
    return original.call(this, path);
  };
  let running = true;
  const tick = (): void => {
    most = Math.max(most, since);
    since = 0;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await op();
    return { value, most: Math.max(most, since), total };
  } finally {
    running = false;
    proto.test = original;
  }
}

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('workspace/ignore rules checked between event-loop turns (decision 733)', function () {
  this.timeout(60_000);
  let root: string;
  let previousSink: ReturnType<typeof setIgnoreWarningSink>;
  let previousSlice: number;
  beforeEach(() => {
    root = makeTmp('rawp-ignore-turns-');
    previousSink = setIgnoreWarningSink(() => {});
    previousSlice = setSharedSliceMs(SHARED_SLICE_MS);
  });
  afterEach(() => {
    setSharedSliceMs(previousSlice);
    setIgnoreWarningSink(previousSink);
    removeTmp(root);
  });

  describe('sharedSlices: one slice per turn for all tasks together', () => {
    it('three tasks of 1 ms units: one turn holds about one slice of units, not one per task, and every task ends', async () => {
      let units = 0;
      let since = 0;
      let most = 0;
      let ticks = 0;
      let running = true;
      const tick = (): void => {
        most = Math.max(most, since);
        since = 0;
        ticks++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const task = async (): Promise<void> => {
        for (let i = 0; i < 30; i++) {
          if (sliceSpent()) await nextSlice();
          busy(1);
          units++;
          since++;
        }
      };
      await Promise.all([task(), task(), task()]);
      running = false;
      assert.equal(units, 90);
      // Each unit takes at least 1 ms, so a slice holds at most SHARED_SLICE_MS of them (+1 for
      // a unit begun just before it was spent, +1 for a turn's order around the counting tick).
      assert.ok(most <= SHARED_SLICE_MS + 2, `${most} units in one turn (a slice per task would allow ${3 * SHARED_SLICE_MS})`);
      assert.ok(ticks >= 90 / (SHARED_SLICE_MS + 2), `${ticks} turns`);
    });

    it('with a 0 ms slice one unit runs per turn, and the first task to resume always goes on (no task waits for good)', async () => {
      setSharedSliceMs(0);
      const r = await checksPerTurn(async () => {
        const m = new GitignoreMatcher().add('*.x\n');
        const task = async (k: number): Promise<void> => {
          for (let i = 0; i < 50; i++) {
            if (sliceSpent()) await nextSlice();
            m.test(`t${k}-${i}.x`);
          }
        };
        await Promise.all([task(0), task(1), task(2)]);
      });
      assert.equal(r.total, 150);
      assert.ok(r.most <= 2, `${r.most} units in one turn`);
    });
  });

  describe('listFiles: a bound-filling rule file beside 2,000 files', () => {
    for (const mode of ['walk', 'git'] as const) {
      it(`${mode}: no two paths are checked in one turn with a 0 ms slice, and the answers are those of the synchronous checks and of \`ignore\``, async () => {
        const { rules, files } = xRules();
        const ruleFile = mode === 'git' ? '.ignore' : '.gitignore';
        writeTree(root, { [ruleFile]: rules });
        for (const f of files) writeFileSync(join(root, f), 'x\n');
        if (mode === 'git') {
          gitInit(root);
          git(root, 'add', '-A');
          git(root, 'commit', '-qm', 'files');
        }
        const all = [ruleFile, ...files];
        const sync = mode === 'walk' ? new IgnoreRules(root, { caseSensitive: true }) : undefined;
        const dot = mode === 'git' ? dotIgnoreFilter(root, all, true) : undefined;
        const expected = all.filter((p) => !(sync ? sync.fileIgnored(p) : (dot?.(p) ?? false))).sort();
        const oracle = ignore({ allowRelativePaths: true, ignorecase: false }).add(rules);
        assert.deepEqual(expected, all.filter((p) => !oracle.ignores(p)).sort(), 'the synchronous checks answer as `ignore`');
        assert.equal(expected.length, 1 + 1800, 'one file in ten is hidden');

        setSharedSliceMs(0);
        const sliced = await checksPerTurn(() => listFiles(root, { caseSensitive: true, noGit: mode === 'walk' }));
        assert.equal(sliced.value.source, mode);
        assert.deepEqual([...sliced.value.paths].sort(), expected);
        assert.ok(sliced.total >= files.length, `${sliced.total} checks`);
        // Before: all 2,000 paths in one synchronous stretch.
        assert.ok(sliced.most <= 2, `${sliced.most} paths checked in one turn`);

        setSharedSliceMs(SHARED_SLICE_MS);
        const usual = await listFiles(root, { caseSensitive: true, noGit: mode === 'walk' });
        assert.deepEqual([...usual.paths].sort(), expected);
      });
    }

    it('walk: a path under four folders that all have rules tries one folder’s rules a turn, and lists as the synchronous checks say', async () => {
      const rules = Array.from({ length: 600 }, (_, i) => `n${i}x`).join('\n');
      const all: string[] = [];
      let dir = '';
      for (let d = 0; d < 4; d++) {
        dir = dir ? `${dir}/d${d}` : `d${d}`;
        mkdirSync(join(root, dir), { recursive: true });
        writeFileSync(join(root, dir, '.gitignore'), `${rules}\n*.d${d}\n!keep${d}.d${d}\n`);
        all.push(`${dir}/.gitignore`);
        for (let i = 0; i < 100; i++) all.push(`${dir}/n${i * 7}x`, `${dir}/f${i}.d${i % 4}`, `${dir}/keep${i % 4}.d${i % 4}`);
      }
      for (const p of all) if (!p.endsWith('.gitignore')) writeFileSync(join(root, p), '');
      const sync = new IgnoreRules(root, { caseSensitive: true });
      const expected = [...new Set(all)].filter((p) => !sync.fileIgnored(p)).sort();
      setSharedSliceMs(0);
      const sliced = await checksPerTurn(() => listFiles(root, { caseSensitive: true, noGit: true }));
      assert.deepEqual([...sliced.value.paths].sort(), expected);
      assert.ok(expected.length > 0 && expected.length < new Set(all).size);
      // Each folder's rules a turn (a rule test and its cached parent), not the four folders' at once.
      assert.ok(sliced.most <= 2, `${sliced.most} rule tests in one turn`);
    });
  });

  describe('IgnoreRules.prepare', () => {
    it('tasks that prepare the same folder at once read its file once; a reset during the read keeps nothing of it', async () => {
      writeTree(root, { '.gitignore': Array.from({ length: 900 }, (_, i) => `r${i}`).join('\n') });
      const proto = GitignoreMatcher.prototype as unknown as { addSteps: (...a: unknown[]) => Generator<void, void, void> };
      const original = proto.addSteps;
      let reads = 0;
      proto.addSteps = function (this: unknown, ...a: unknown[]) {
        reads++;
        return original.apply(this, a);
      };
      try {
        setSharedSliceMs(0);
        const rules = new IgnoreRules(root, { caseSensitive: true });
        await Promise.all(Array.from({ length: 10 }, () => rules.prepare('sub/deeper')));
        assert.equal(reads, 1);
        assert.ok(rules.fileIgnored('r5') && rules.fileIgnored('sub/deeper/r899'));
        const stale = rules.prepare('');
        rules.reset();
        writeTree(root, { '.gitignore': 'other\n' });
        await stale;
        assert.ok(!rules.fileIgnored('r5') && rules.fileIgnored('other'), 'the rules read before the reset are not kept');
      } finally {
        proto.addSteps = original;
      }
    });
  });

  describe('FileIndex: a watcher batch over many folders', () => {
    it('the checks of a batch that reaches 20 new folders, each with bound-filling rules, run one per turn with a 0 ms slice; what the rules hide stays out', async () => {
      const { rules } = xRules();
      const index = await FileIndex.open({ roots: [root], noGit: true });
      try {
        const changes: { kind: 'created'; path: string }[] = [];
        const expected: string[] = [];
        for (let d = 0; d < 20; d++) {
          writeTree(root, { [`f${d}/.gitignore`]: rules + `hide${d}.txt\n` });
          for (let i = 0; i < 20; i++) {
            const name = i % 5 === 0 ? `hide${d}.txt` : `a${i}.txt`;
            writeFileSync(join(root, `f${d}`, name), '');
            changes.push({ kind: 'created', path: join(root, `f${d}`, name) });
            if (i % 5 !== 0) expected.push(`f${d}/${name}`);
          }
        }
        setSharedSliceMs(0);
        const r = await checksPerTurn(() => index.applyChanges(changes));
        assert.deepEqual([...index.folders[0].index.allPaths()].sort(), expected.sort());
        assert.ok(r.most <= 2, `${r.most} paths checked in one turn`);
      } finally {
        index.dispose();
      }
    });
  });

  describe('GitignoreMatcher: groups cut by length, files read a few rules at a time', () => {
    it('long rules across the groups’ length bounds, negations among them, answer as `ignore` (fast-check)', () => {
      const tail = fc.integer({ min: 0, max: 480 }).map((n) => 'q'.repeat(n));
      const pattern = fc
        .tuple(fc.boolean(), fc.array(fc.constantFrom('a', 'B', '*', '**', '?', '/', '[ab]', '.'), { minLength: 1, maxLength: 5 }), tail, fc.boolean())
        .map(([neg, a, t, after]) => (neg ? '!' : '') + (after ? a.join('') + t : t + a.join('')));
      const segment = fc.array(fc.constantFrom('a', 'b', 'B', '.', 'q'.repeat(40)), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
      const path = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([p, dir]) => p.join('/') + (dir ? '/' : ''));
      fc.assert(
        fc.property(fc.array(pattern, { minLength: 20, maxLength: 200 }), fc.array(path, { minLength: 10, maxLength: 30 }), (patterns, paths) => {
          const text = patterns.join('\n');
          const ref = ignore({ ignorecase: false, allowRelativePaths: true }).add(text);
          const ours = new GitignoreMatcher({ ignoreCase: false, budget: { rules: 1e9, size: 1e12, wildcards: 1e9 } }).add(text);
          for (const p of paths) {
            const a = ref.test(p);
            const b = ours.test(p);
            assert.deepEqual([b.ignored, b.unignored], [a.ignored, a.unignored], `${JSON.stringify(p)} against ${patterns.length} rules`);
          }
        }),
        { numRuns: 40 },
      );
    });

    it('1 MiB of one-character rules is read a few rules a step and stops at the budget; 1 MiB of rules that never match is read in thousands of steps', () => {
      const tiny = new GitignoreMatcher({ warn: () => {} });
      const steps = [...tiny.addSteps('a\n'.repeat(512 * 1024))].length;
      assert.ok(steps <= MAX_IGNORE_RULES / 64 + 2, `${steps} steps`);
      assert.equal(tiny.spent.rules, MAX_IGNORE_RULES);
      assert.ok(tiny.ignores('a'));
      const never = new GitignoreMatcher({ warn: () => {} });
      assert.ok([...never.addSteps('[\n'.repeat(512 * 1024))].length >= (512 * 1024) / 64 - 1);
      assert.equal(never.spent.rules, 0);
    });

    it('gitignoreLines reads the lines as the split it replaced did (`\\n`, `\\r\\n`, a final `\\r`, a leading BOM; fast-check)', () => {
      // The previous parser (gitignoreMatcher.ts before decision 733), kept here as the oracle.
      const before = (text: string): { negative: boolean; body: string }[] => {
        const rules: { negative: boolean; body: string }[] = [];
        const lines = (text.endsWith('\r') ? text.slice(0, -1) : text).split(/\r?\n/);
        for (let n = 0; n < lines.length; n++) {
          let body = n === 0 && lines[0].startsWith('\uFEFF') ? lines[0].slice(1) : lines[n];
          if (!body || body[0] === '#') continue;
          const negative = body[0] === '!';
          if (negative) body = body.slice(1);
          let end = body.length;
          while (body[end - 1] === ' ') end--;
          if (end < body.length) {
            let bs = 0;
            while (body[end - bs - 1] === '\\') bs++;
            body = bs % 2 ? body.slice(0, end - 1) + ' ' : body.slice(0, end);
          }
          let bs = 0;
          while (body[body.length - bs - 1] === '\\') bs++;
          if (!body || bs % 2) continue;
          if (body.startsWith('\\!') || body.startsWith('\\#')) body = body.slice(1);
          rules.push({ negative, body });
        }
        return rules;
      };
      fc.assert(
        fc.property(fc.array(fc.constantFrom('a', '\r', '\n', '\r\n', '\uFEFF', '#', '!', ' ', '\\', '*'), { maxLength: 40 }).map((a) => a.join('')), (text) => {
          assert.deepEqual([...gitignoreLines(text)], before(text), JSON.stringify(text));
        }),
        { numRuns: 3000 },
      );
    });
  });
});
