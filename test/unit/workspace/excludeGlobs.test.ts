// §16.1.1 exclude_patterns compiled once into one linear-time matcher (issue 12 #11): same answers
// as picomatch (dot: true) on a grid of globs × paths, capped count and length, unsupported syntax
// refused by name, and a glob built to backtrack answers at once on a 4,000-character path.
import { strict as assert } from 'node:assert';
import picomatch from 'picomatch';
import { compileExcludes, compileSettingExcludes, ExcludePatternError, MAX_EXCLUDE_PATTERN_LENGTH, MAX_EXCLUDE_PATTERNS } from '../../../src/workspace/excludeGlobs';
import { ExcludeBudget, innerWildcards, MAX_EXCLUDE_TEXT, MAX_EXCLUDE_WILDCARDS } from '../../../src/workspace/excludeBudget';
import { IgnoreRules } from '../../../src/workspace/ignoreRules';
import { setIgnoreWarningSink } from '../../../src/workspace/ignoreLimits';

const GLOBS = ['*.md', '**/*.md', 'src/**', 'src/**/*.ts', '**/node_modules/**', 'dist', 'a?c.txt', '[ab]*.js', '[a-c].js', '{src,test}/**/*.ts', '*.{js,ts}', 'docs/*/x.md', 'a/**/b', '**/.git/**', '.*', 'foo\\*bar', 'src/{a,b{c,d}}/*.ts', '{a}', 'a{b', '[unclosed', 'a**b', '*/*', 'src/**/test/**', './src/*.ts', '**/*'];
const PATHS = ['src', 'docs', 'README.md', 'docs/a.md', 'docs/x/x.md', 'src/a.ts', 'src/deep/er/b.ts', 'node_modules/x/y.js', 'a/node_modules/b', 'dist', 'dist/x', 'abc.txt', 'a/c.txt', 'a.js', 'b.js', 'c.js', 'd.js', 'test/u/a.ts', 'x.ts', 'x.js', '.gitignore', '.git/config', 'a/.git/x', 'a/b', 'a/x/y/b', 'foo*bar', 'foobar', 'src/a/z.ts', 'src/bc/z.ts', 'src/b/z.ts', 'x/y', 'a', '{a}', 'a{b', '[unclosed', 'axxb', 'a/b/c', 'src/test/x', 'src/a/test/b/c'];

describe('workspace/excludeGlobs: §16.1.1 exclude_patterns, linear time, compiled once', () => {
  it('§16.1.1 answers as picomatch (dot: true) does on every glob × path of the grid', () => {
    const diffs: string[] = [];
    for (const g of GLOBS) {
      const pm = picomatch(g, { dot: true });
      const m = compileExcludes([g]);
      assert.ok(m);
      for (const p of PATHS) if (pm(p) !== m.test(p)) diffs.push(`${g} ~ ${p}: picomatch ${pm(p)}`);
    }
    assert.deepEqual(diffs, []);
    // `[!a]` is "one character but a", as in every shell (picomatch reads it otherwise).
    const notA = compileExcludes(['[!a]*.js']);
    assert.deepEqual(['a.js', 'b.js', 'x/b.js'].map((p) => notA?.test(p)), [false, true, false]);
  });

  it('§16.1.1 several patterns are one matcher: a path is excluded when any pattern matches', () => {
    const m = compileExcludes(['dist/**', '*.log', '', '**/fixtures/**']);
    assert.ok(m);
    assert.deepEqual(['dist/a.js', 'x.log', 'test/fixtures/a', 'src/a.ts', 'logs/x.txt'].map((p) => m.test(p)), [true, true, true, false, false]);
    assert.equal(compileExcludes(['', '']), undefined, 'no pattern: no matcher');
    // A name with a newline in it (issue 12 #9) is still under `dist/**` and matched by `*`.
    assert.deepEqual(['dist/a\nb.js', 'a\nb.log'].map((p) => m.test(p)), [true, true]);
  });

  it('refuses more than the cap, over-long patterns, negation and extglobs with a clear error', () => {
    assert.ok(compileExcludes(Array.from({ length: MAX_EXCLUDE_PATTERNS }, (_, i) => `d${i}/**`)));
    assert.throws(() => compileExcludes(Array.from({ length: 20_000 }, (_, i) => `d${i}/**`)), (e: Error) => e instanceof ExcludePatternError && /too many exclude_patterns: 20000 \(at most 256\)/.test(e.message));
    assert.throws(() => compileExcludes(['a'.repeat(MAX_EXCLUDE_PATTERN_LENGTH + 1)]), /at most 512/);
    assert.throws(() => compileExcludes(['!src/**']), /negated exclude pattern/);
    assert.throws(() => compileExcludes(['+(a|b).js']), /extglob/);
    assert.throws(() => compileExcludes(['@(x)']), /extglob/);
  });

  it('a glob that makes a backtracking engine take minutes (*a*a…*b) answers at once on a 4,000-character path; 256 patterns × 20,000 paths stay well under a second', () => {
    const evil = compileExcludes(['*a*a*a*a*a*a*a*a*a*a*a*a*b']);
    assert.ok(evil);
    const t0 = performance.now();
    assert.equal(evil.test('a'.repeat(4000)), false);
    const evilMs = performance.now() - t0;
    assert.ok(evilMs < 1000, `${evilMs} ms`);
    const many = compileExcludes(Array.from({ length: 256 }, (_, i) => `dir${i}/**/*.tmp${i}`));
    assert.ok(many);
    const t1 = performance.now();
    let hits = 0;
    for (let i = 0; i < 20_000; i++) if (many.test(`src/mod${i % 100}/sub/file${i}.ts`)) hits++;
    const manyMs = performance.now() - t1;
    assert.equal(hits, 0);
    assert.ok(manyMs < 5000, `${manyMs} ms for 20,000 paths`);
  });

  it('decision 737: what one compile may cost is bounded — a master\'s exclude_patterns past it are refused in words (1,024 of `*a*a…b` took 1.7 s in one block)', () => {
    assert.deepEqual(['**/node_modules/**', '*.md', 'dist', 'src/**/*.ts', 'a\\*b', '[*]x', 'a*', 'x*a*a*b'].map(innerWildcards), [0, 0, 0, 2, 0, 0, 0, 3]);
    const long = Array.from({ length: 32 }, (_, i) => `${i}${'d'.repeat(MAX_EXCLUDE_PATTERN_LENGTH - 3)}`);
    assert.throws(() => compileExcludes(long), (e: Error) => e instanceof ExcludePatternError && new RegExp(`exclude_patterns are too long together: \\d+ characters counting 24 more a pattern \\(at most ${MAX_EXCLUDE_TEXT}\\)`).test(e.message));
    const loops = Array.from({ length: 5 }, (_, i) => `x${i}${'*a'.repeat(250)}b`);
    assert.throws(() => compileExcludes(loops), new RegExp(`exclude_patterns hold 1250 wildcards inside patterns \\(not leading or trailing; at most ${MAX_EXCLUDE_WILDCARDS}\\)`));
    assert.ok(compileExcludes(loops.slice(0, 4)), 'within the bounds: compiled');
  });

  it('decision 737: a repository\'s files.exclude past those bounds is cut, not refused — the first globs apply, the rest are left out (their files shown) and said once', () => {
    const hostile = Array.from({ length: 1024 }, (_, i) => `g${i}${'*a'.repeat(245)}b`);
    const { matcher, leftOut } = compileSettingExcludes(['dist/**', ...hostile], true);
    assert.ok(matcher);
    assert.ok(leftOut > 1000, `${leftOut} left out`);
    const kept = new ExcludeBudget();
    for (const g of ['dist/**', ...hostile]) if (kept.fits(g)) kept.take(g);
    assert.ok(kept.text <= MAX_EXCLUDE_TEXT && kept.wildcards <= MAX_EXCLUDE_WILDCARDS);
    assert.equal(matcher.test('dist/a.js'), true, 'the first glob applies');
    assert.equal(matcher.test(`g1000${'a'.repeat(10)}b`), false, 'a glob left out excludes nothing');
    const told: string[] = [];
    const previous = setIgnoreWarningSink((m) => told.push(m));
    try {
      const rules = new IgnoreRules('/ws-737', { caseSensitive: true, extraExcludes: ['dist/**', ...hostile] });
      assert.equal(rules.extraExcluded('dist/a.js'), true);
      assert.equal(told.length, 1);
      assert.match(told[0], new RegExp(`^${leftOut} files\\.exclude/search\\.exclude globs were left out in /ws-737: together past ${MAX_EXCLUDE_TEXT} characters or ${MAX_EXCLUDE_WILDCARDS} inner wildcards \\(their files are shown\\)$`));
    } finally {
      setIgnoreWarningSink(previous);
    }
    assert.equal(compileSettingExcludes(['**/.git', '**/node_modules', '**/*.code-search'], false).leftOut, 0, 'VS Code\'s defaults are far within');
  });
});
