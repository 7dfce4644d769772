// Decision 540: .gitignore rules (and the exclude settings of the @ picker) matched in linear time.
// The `ignore` package stays the reference for the answers: a table of patterns × paths and random
// patterns from a small alphabet must give the same verdicts (negation, directory-only, anchoring,
// `**`, escapes, brackets, comments, trailing spaces). Hostile rules over deep paths answer at once.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import ignore from 'ignore';
import { GitignoreMatcher } from '../../../src/workspace/gitignoreMatcher';
import { IgnoreRules, dotIgnoreFilter } from '../../../src/workspace/ignoreRules';

const PATTERNS = [
  'a', '/a', 'a/', '/a/', 'a/b', 'a/b/', '*.js', '/*.js', '!a', '!*.js', '#a', '\\#a', '\\!a', 'a   ', 'a\\ ', 'a\\  ', 'a\\',
  '**/a', '**/a/b', 'a/**', 'a/**/b', 'a/**/', '**', '**/', '/**', '***/a', 'a/***', 'a/**/**/**/b', '**/**/a', 'a**b', '**a',
  'a/*', 'a/*/', '*/', '*/b', 'a?', '?', '[ab]', '[!a]*', '[^a]', '[a-c].js', '[c-a]', '[]a]', '[a', '[[:alpha:]]x', '[[:nope:]]',
  '[[:digit:]-z]', '[/]', '[.-0]x', 'a\\*', 'a\\**', 'a\\[b]', '\\/a', 'a\\/', 'a\\/b', 'x/**/**/**/z', '*a*a*a*b', 'A', 'a b',
  '\uFEFFa', 'a\r', 'node_modules/', 'build/**/*.map', '!build/keep.map', 'doc/*.txt', '/dist', '.env*', '!.env.example',
];
const PATHS = [
  'a', 'a/', 'b', 'b/', 'a/b', 'a/b/', 'a/b/c', 'a/b/c/', 'x/a', 'x/a/', 'x/a/b', 'a/x/b', 'a/x/y/b', 'a/x/y/b/', 'ab', 'aab', 'acb',
  'x.js', 'a/x.js', 'x.js/', '#a', '!a', 'a ', 'a  ', 'a\\', 'A', 'A/b', 'c', 'c.js', '-', ']', 'ax', 'a*', 'a*x', 'a[b]', 'ab]',
  'x/y/z', 'x/z', 'x/1/2/3/z/', 'aaab', 'a b', 'node_modules/x', 'build/m/x.map', 'build/keep.map', 'doc/x.txt', 'doc/s/x.txt',
  'dist', 'dist/', 'src/dist', '.env', '.env.local', '.env.example', '9x', '/x', 'a/-', '.x', 'x', 'x/', 'a/b/b', 'b/a', 'b/a/',
];

function diffs(text: string, paths: readonly string[], ignoreCase: boolean): string[] {
  const ref = ignore({ ignorecase: ignoreCase, allowRelativePaths: true }).add(text);
  const ours = new GitignoreMatcher({ ignoreCase }).add(text);
  const out: string[] = [];
  for (const p of paths) {
    const a = ref.test(p);
    const b = ours.test(p);
    if (a.ignored !== b.ignored || a.unignored !== b.unignored) out.push(`${JSON.stringify(text)} ~ ${JSON.stringify(p)}: ignore ${a.ignored}/${a.unignored}, ours ${b.ignored}/${b.unignored}`);
  }
  return out;
}

function timed(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

describe('workspace/gitignoreMatcher: gitignore rules in linear time, the same answers as `ignore` (decision 540)', () => {
  it('each pattern of the table, alone and as a negation after a broader rule, answers as `ignore` on every path (both cases)', () => {
    const out: string[] = [];
    let hits = 0;
    for (const p of PATTERNS) for (const q of PATHS) if (ignore({ allowRelativePaths: true }).add(p).ignores(q)) hits++;
    assert.ok(hits > 300, `the table exercises matches too (${hits})`);
    for (const ignoreCase of [false, true]) {
      for (const p of PATTERNS) {
        out.push(...diffs(p, PATHS, ignoreCase));
        out.push(...diffs(`a*\n*/\n!${p}`, PATHS, ignoreCase));
      }
    }
    assert.deepEqual(out, []);
  });

  it('a whole .gitignore of the table (the last matching rule wins, an ignored parent settles its content) answers as `ignore`', () => {
    assert.deepEqual(diffs(PATTERNS.join('\n'), PATHS, false), []);
    assert.deepEqual(diffs(`${PATTERNS.join('\r\n')}\r`, PATHS, true), []);
    // The semantics the callers rely on, spelled out.
    const m = new GitignoreMatcher({ ignoreCase: false }).add('build/\n!build/keep\n*.log\n!important.log\n/root-only\ndocs/**/*.tmp\n');
    assert.deepEqual(['build/', 'build/keep', 'x.log', 'important.log', 'a/important.log', 'root-only', 'a/root-only', 'docs/x.tmp', 'docs/a/b/x.tmp', 'x.tmp'].map((p) => m.ignores(p)), [true, true, true, false, false, true, false, true, true, false]);
  });

  it('random patterns and paths from a small alphabet: the same verdicts as `ignore` (fast-check)', () => {
    const pattern = fc.array(fc.constantFrom('a', 'B', '*', '**', '?', '/', '/', '[', ']', '!', '\\', ' ', '-', '#', '[:alpha:]', '.'), { minLength: 1, maxLength: 10 }).map((a) => a.join(''));
    const segment = fc.array(fc.constantFrom('a', 'b', '*', '!', '-', '[', ']', ' ', '\\', '#', '.'), { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
    const path = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([s, dir]) => s.join('/') + (dir ? '/' : ''));
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), fc.array(path, { minLength: 1, maxLength: 6 }), fc.boolean(), (patterns, paths, ignoreCase) => {
        assert.deepEqual(diffs(patterns.join('\n'), paths, ignoreCase), []);
      }),
      { numRuns: 3000 },
    );
  });

  it('hostile rules answer at once: `x/**/**/…/z` on a 400-segment path, `*a*a…*b` on a 4,000-character name (`ignore`: 17 s on 40 segments)', () => {
    const m = new GitignoreMatcher().add(`x/${'**/'.repeat(30)}z\n${'*a'.repeat(14)}*b\n!${'*a'.repeat(14)}*c\n`);
    const deep = `x/${Array(400).fill('a').join('/')}`;
    const ms = [timed(() => assert.equal(m.ignores(`${deep}/`), false)), timed(() => assert.equal(m.ignores(`${deep}/z`), true)), timed(() => assert.equal(m.ignores('a'.repeat(4000)), false))];
    // Each is a few ms; the bound is generous for a slow shared machine.
    assert.ok(Math.max(...ms) < 1000, `${ms.map((n) => n.toFixed(1)).join(', ')} ms`);
  });

  describe('ignoreRules.ts (the @ picker index): ignore files and files.exclude / search.exclude', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'rawp-gi540-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('nested .gitignore and .ignore files keep their meaning (a deeper file re-includes, .ignore overrides .gitignore)', () => {
      mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
      writeFileSync(join(root, '.gitignore'), '*.log\nout/\n');
      writeFileSync(join(root, 'sub', '.gitignore'), '!keep.log\n/local\n');
      writeFileSync(join(root, 'sub', '.ignore'), 'secret*\n');
      const r = new IgnoreRules(root, { caseSensitive: true });
      const hidden = ['a.log', 'sub/keep.log', 'sub/deep/keep.log', 'sub/x.log', 'out/x', 'sub/local', 'sub/deep/local', 'sub/secret.txt', 'secret.txt', 'A.LOG'].filter((p) => r.fileIgnored(p));
      assert.deepEqual(hidden, ['a.log', 'sub/x.log', 'out/x', 'sub/local', 'sub/secret.txt']);
      assert.equal(r.dirIgnored('out'), true);
      assert.equal(new IgnoreRules(root, { caseSensitive: false }).fileIgnored('A.LOG'), true);
      const dot = dotIgnoreFilter(root, ['sub/.ignore', 'sub/secret.txt', 'secret.txt'], true);
      assert.deepEqual(['sub/secret.txt', 'secret.txt'].map((p) => dot?.(p)), [true, false]);
    });

    it('hostile rules in a repository’s .gitignore and exclude settings answer at once on deep paths and long names', () => {
      const evil = `${'*a'.repeat(14)}*b`;
      writeFileSync(join(root, '.gitignore'), `x/${'**/'.repeat(30)}z\n${evil}\n`);
      const r = new IgnoreRules(root, { caseSensitive: true, extraExcludes: [evil, `y/${'**/'.repeat(30)}z`, 'dist/**'] });
      const deep = Array(300).fill('a').join('/');
      const ms = [
        timed(() => assert.equal(r.fileIgnored(`x/${deep}/f.txt`), false)),
        timed(() => assert.equal(r.fileIgnored(`y/${deep}/f.txt`), false)),
        timed(() => assert.equal(r.fileIgnored(`q/${'a'.repeat(4000)}`), false)),
        timed(() => assert.equal(r.extraExcluded(`y/${'a'.repeat(40)}`), false)),
      ];
      assert.ok(Math.max(...ms) < 1000, `${ms.map((n) => n.toFixed(1)).join(', ')} ms`);
      // The rules still hide what they name.
      assert.deepEqual(['dist/a.js', `x/a/z`, `y/a/b/z`, 'x', `q/${'a'.repeat(14)}b`].map((p) => r.fileIgnored(p)), [true, true, true, false, true]);
    });

    it('exclude globs this syntax cannot read (`!x`, extglobs, over-long) are left out: their files are shown, the others still hidden', () => {
      // picomatch read `!neg` in the list as "everything but neg" and hid the whole folder.
      const r = new IgnoreRules(root, { caseSensitive: false, extraExcludes: ['!neg', '+(x)', 'a'.repeat(600), '', '*.TMP'] });
      assert.deepEqual(['neg', 'x', 'src/a.ts', 'b.tmp'].map((p) => r.fileIgnored(p)), [false, false, false, true]);
      assert.equal(new IgnoreRules(root, { caseSensitive: true, extraExcludes: ['!neg', '+(x)'] }).extraExcluded('anything'), false);
    });
  });
});
