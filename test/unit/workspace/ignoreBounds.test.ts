// Decision 711: what a repository's ignore files may cost. readIgnoreFile reads a regular file only,
// never through a link, never waiting on a FIFO, at most its first MiB (whole lines); a matcher keeps
// at most MAX_IGNORE_RULES rules, MAX_IGNORE_RULES_SIZE characters and MAX_IGNORE_WILDCARDS loops
// for one path (with the folders above), each rule at most MAX_IGNORE_RULE_LENGTH long, and says what
// it left out. Its rules are compiled in chunks (ruleChunks.ts): the answers stay those of `ignore`.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ignore from 'ignore';
import { GitignoreMatcher } from '../../../src/workspace/gitignoreMatcher';
import { readIgnoreFile } from '../../../src/workspace/ignoreFileRead';
import { MAX_IGNORE_FILE_BYTES, MAX_IGNORE_RULE_LENGTH, MAX_IGNORE_RULES, MAX_IGNORE_WILDCARDS, setIgnoreWarningSink } from '../../../src/workspace/ignoreLimits';
import { dotIgnoreFilter, IgnoreRules, MAX_DOT_IGNORE_FILES } from '../../../src/workspace/ignoreRules';
import { makeTmp, removeTmp, writeTree } from './tmpWorkspace';

const UNBOUNDED = { rules: 1e9, size: 1e12, wildcards: 1e9 };

describe('workspace/ignore files: read and compiled within bounds (decision 711)', () => {
  let root: string;
  let warnings: string[];
  let previous: ReturnType<typeof setIgnoreWarningSink>;
  beforeEach(() => {
    root = makeTmp('rawp-ignore-bounds-');
    warnings = [];
    previous = setIgnoreWarningSink((m) => warnings.push(m));
  });
  afterEach(() => {
    setIgnoreWarningSink(previous);
    removeTmp(root);
  });

  describe('readIgnoreFile: a regular file, never through a link, at most its first MiB', () => {
    it('reads a regular file; an absent one is undefined with no notice', () => {
      writeFileSync(join(root, '.gitignore'), 'a\n!b\n');
      assert.equal(readIgnoreFile(join(root, '.gitignore')), 'a\n!b\n');
      assert.equal(readIgnoreFile(join(root, 'none', '.gitignore')), undefined);
      assert.deepEqual(warnings, []);
    });

    it('a link (even to a regular file inside), a FIFO and a directory are not read, each with a notice, at once', () => {
      writeFileSync(join(root, 'real'), 'a\n');
      symlinkSync(join(root, 'real'), join(root, 'link'));
      symlinkSync('/dev/zero', join(root, 'zero'));
      execFileSync('mkfifo', [join(root, 'fifo')]);
      mkdirSync(join(root, 'dir'));
      const t = performance.now();
      for (const name of ['link', 'zero', 'fifo', 'dir']) assert.equal(readIgnoreFile(join(root, name)), undefined, name);
      assert.ok(performance.now() - t < 1000);
      assert.equal(warnings.length, 4, warnings.join('\n'));
      assert.match(warnings[0], /link not read: it is a symbolic link, not followed$/);
      assert.match(warnings[2], /fifo not read: it is not a regular file/);
    });

    it('past MAX_IGNORE_FILE_BYTES only the whole lines before the bound are kept, and the notice names the file', () => {
      const line = `${'x'.repeat(99)}\n`;
      const lines = Math.ceil((MAX_IGNORE_FILE_BYTES * 1.5) / line.length);
      writeFileSync(join(root, 'big'), line.repeat(lines));
      const text = readIgnoreFile(join(root, 'big')) ?? '';
      assert.equal(text.length, Math.floor(MAX_IGNORE_FILE_BYTES / line.length) * line.length - 1);
      assert.ok(text.split('\n').every((l) => l === 'x'.repeat(99)));
      assert.deepEqual(warnings, [`ignore file ${join(root, 'big')} is longer than ${MAX_IGNORE_FILE_BYTES} bytes: only the lines of its first ${MAX_IGNORE_FILE_BYTES} are used`]);
      writeFileSync(join(root, 'exact'), 'y'.repeat(MAX_IGNORE_FILE_BYTES));
      assert.equal(readIgnoreFile(join(root, 'exact'))?.length, MAX_IGNORE_FILE_BYTES, 'a file of exactly the bound is read whole');
    });
  });

  describe('GitignoreMatcher: rules within the budget, the rest left out with a notice', () => {
    it('a rule longer than MAX_IGNORE_RULE_LENGTH is left out alone; the rules after it apply', () => {
      const said: string[] = [];
      const m = new GitignoreMatcher({ ignoreCase: false, warn: (w) => said.push(w) }).add(`a\n${'l'.repeat(MAX_IGNORE_RULE_LENGTH + 1)}\nb\n`, 'x/.gitignore');
      assert.deepEqual([m.ignores('a'), m.ignores('l'.repeat(MAX_IGNORE_RULE_LENGTH + 1)), m.ignores('b')], [true, false, true]);
      assert.deepEqual(said, [`x/.gitignore: 1 rule(s) longer than ${MAX_IGNORE_RULE_LENGTH} characters left out`]);
    });

    it('past MAX_IGNORE_RULES the later rules are left out: the first ones apply, the notice says how many', () => {
      const said: string[] = [];
      const m = new GitignoreMatcher({ ignoreCase: false, warn: (w) => said.push(w) }).add(Array.from({ length: MAX_IGNORE_RULES + 100 }, (_, i) => `n${i}`).join('\n'));
      assert.deepEqual([m.ignores('n0'), m.ignores(`n${MAX_IGNORE_RULES - 1}`), m.ignores(`n${MAX_IGNORE_RULES}`)], [true, true, false]);
      assert.equal(said.length, 1);
      assert.match(said[0], new RegExp(`only its first ${MAX_IGNORE_RULES} rule\\(s\\) are used`));
    });

    it('wildcards: a leading `*` is shared and free (500 `*.ext` rules kept), other loops count up to MAX_IGNORE_WILDCARDS', () => {
      const exts = new GitignoreMatcher({ ignoreCase: false, warn: () => assert.fail('nothing left out') }).add(Array.from({ length: 500 }, (_, i) => `*.e${i}`).join('\n'));
      assert.ok(exts.ignores('dir/x.e0') && exts.ignores('x.e499') && !exts.ignores('x.e500'));
      const said: string[] = [];
      const loops = new GitignoreMatcher({ ignoreCase: false, warn: (w) => said.push(w) }).add(Array.from({ length: MAX_IGNORE_WILDCARDS + 10 }, (_, i) => `a*b${i}`).join('\n'));
      assert.ok(loops.ignores('axxb0') && loops.ignores(`ab${MAX_IGNORE_WILDCARDS - 1}`) && !loops.ignores(`ab${MAX_IGNORE_WILDCARDS}`));
      assert.equal(loops.spent.wildcards, MAX_IGNORE_WILDCARDS);
      assert.equal(said.length, 1);
    });

    it('F3: the review’s 1,600 rules of `*a…*a b` (640 KB) compile and answer 2,000 paths at once (before: 19 s to compile, 1 GB)', () => {
      const evil = Array.from({ length: 1600 }, () => '*a'.repeat(200) + 'b').join('\n');
      const t = performance.now();
      const m = new GitignoreMatcher({ ignoreCase: false, warn: () => {} }).add(`keep-me\n*a*a*a*b\n${evil}`);
      for (let i = 0; i < 2000; i++) m.test(`file${i}`);
      const ms = performance.now() - t;
      assert.ok(m.ignores('keep-me') && m.ignores('xaaayb'), 'the rules before the bound apply');
      assert.ok(ms < 1000, `${Math.round(ms)} ms`);
    });

    it('a budget’s worth of distinct rules compiles and answers 2,000 paths in bounded time', () => {
      const rnd = (i: number) => ((i * 2654435761) >>> 0).toString(36);
      const kinds = [(i: number) => `/src/gen/d${rnd(i)}/f${i}.xml`, (i: number) => `*.x${rnd(i)}`, (i: number) => `[Dd]ebug${rnd(i)}/`, (i: number) => `!k${rnd(i)}`];
      const text = Array.from({ length: 4000 }, (_, i) => kinds[i % 4](i)).join('\n');
      const t = performance.now();
      const m = new GitignoreMatcher({ ignoreCase: false, warn: () => {} }).add(text);
      for (let i = 0; i < 2000; i++) m.test(`src/module${i % 50}/file${i}.ts`);
      const ms = performance.now() - t;
      assert.ok(ms < 2000, `${Math.round(ms)} ms`);
    });

    it('rules across many chunks, negations among them, answer as `ignore` (the last matching rule wins across chunk bounds; fast-check)', () => {
      // The alphabet of gitignoreMatcher.test.ts, with `!` in front often: hundreds of rules, so
      // the winner is looked for in the chunks of 128 and 16 that ruleChunks.ts builds.
      const pattern = fc.tuple(fc.boolean(), fc.array(fc.constantFrom('a', 'B', '*', '**', '?', '/', '/', '[', ']', '\\', ' ', '-', '[:alpha:]', '.'), { minLength: 1, maxLength: 6 })).map(([neg, a]) => (neg ? '!' : '') + a.join(''));
      const segment = fc.array(fc.constantFrom('a', 'b', 'B', '*', '-', '[', ']', ' ', '.'), { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
      const path = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([p, dir]) => p.join('/') + (dir ? '/' : ''));
      fc.assert(
        fc.property(fc.array(pattern, { minLength: 150, maxLength: 400 }), fc.array(path, { minLength: 10, maxLength: 30 }), fc.boolean(), (patterns, paths, ignoreCase) => {
          const text = patterns.join('\n');
          const ref = ignore({ ignorecase: ignoreCase, allowRelativePaths: true }).add(text);
          const ours = new GitignoreMatcher({ ignoreCase, budget: UNBOUNDED }).add(text);
          for (const p of paths) {
            const a = ref.test(p);
            const b = ours.test(p);
            assert.deepEqual([b.ignored, b.unignored], [a.ignored, a.unignored], `${JSON.stringify(p)} against ${patterns.length} rules`);
          }
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('ignoreRules.ts: one budget for the rules that apply to a path', () => {
    it('a folder’s .gitignore gets what its parents’ rules left: the first rules within it apply, the later ones not', () => {
      const top = Array.from({ length: MAX_IGNORE_RULES - 10 }, (_, i) => `t${i}`).join('\n');
      const sub = Array.from({ length: 20 }, (_, i) => `s${i}`).join('\n');
      writeTree(root, { '.gitignore': `${top}\n`, 'sub/.gitignore': `${sub}\n` });
      const rules = new IgnoreRules(root, { caseSensitive: true });
      assert.deepEqual([rules.fileIgnored('t0'), rules.fileIgnored('sub/t5'), rules.fileIgnored('sub/s9'), rules.fileIgnored('sub/s10')], [true, true, true, false]);
      assert.ok(!rules.fileIgnored('s0'), 'a sibling folder has its own budget from the root');
      assert.ok(warnings.some((w) => w.startsWith(`${join(root, 'sub', '.gitignore')}: only its first 10 rule(s)`)), warnings.join('\n'));
    });

    it('dotIgnoreFilter: the .ignore files of one git listing share one budget, nearest the root first, and at most MAX_DOT_IGNORE_FILES are read', () => {
      const paths: string[] = [];
      for (let i = 0; i < MAX_DOT_IGNORE_FILES + 5; i++) {
        writeTree(root, { [`d${i}/.ignore`]: `x${i}\n` });
        paths.push(`d${i}/.ignore`, `d${i}/x${i}`);
      }
      writeTree(root, { '.ignore': Array.from({ length: MAX_IGNORE_RULES - 3 }, (_, i) => `r${i}`).join('\n') });
      paths.push('.ignore', 'r0');
      const hidden = dotIgnoreFilter(root, paths, true);
      assert.ok(hidden);
      assert.ok(hidden('r0') && hidden('d0/x0') && hidden('d1/x1') && hidden('d2/x2'), 'the root file and the first three folders');
      assert.ok(!hidden('d3/x3'), 'past the budget');
      assert.ok(warnings.some((w) => w.includes(`${MAX_DOT_IGNORE_FILES + 6} .ignore files, only the ${MAX_DOT_IGNORE_FILES}`)), warnings.join('\n'));
    });
  });
});
