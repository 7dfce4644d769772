// Issue 12 finding 2 (tools part): Grep and Glob match with a linear-time engine (RE2 semantics,
// re2js) in a worker thread. `find (a+)+$` on a 30-character line took 20 s of frozen event loop;
// now /v1/health answers within 200 ms while any search runs, against a real `rawp serve`.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { globToRegexSource } from '../../src/workspace/globRegex';
import { compileLinear, globFilter, RegexSyntaxError } from '../../src/tools/search/linearRegex';
import { grepPiece } from '../../src/tools/search/grepPiece';
import { makeEnv } from '../unit/tools/_env';
import { promptTurn, serve, worstHealthLatency, type Served } from './serveChild';

describe('security/tools: linear-time search off the event loop (issue 12 finding 2)', function () {
  this.timeout(180_000);
  let served: Served | undefined;
  afterEach(() => {
    served?.close();
    served = undefined;
  });

  it('rawp serve: `find (a+)+$` over a line of 30 a and a `!`, a 2 MB file and a many-star Glob: /v1/health answers within 200 ms throughout and every turn ends', async () => {
    const big = ('a'.repeat(60) + '!\n').repeat(33_000); // ~2 MB of near-matches
    served = await serve({ 'evil.txt': `${'a'.repeat(30)}!\n`, 'big.txt': big, [`${'a'.repeat(200)}.txt`]: 'x\n' });
    const m = await served.master();
    const prompts = ['find (a+)+$', 'find `(a|aa)+$` in big.txt', `files ${'*a'.repeat(40)}*b`, 'find `(x+x+)+y`'];
    for (const p of prompts) {
      let done = false;
      const started = Date.now();
      const turn = promptTurn(m, p).finally(() => (done = true));
      const worst = await worstHealthLatency(served.url, () => done);
      const t = await turn;
      if (process.env.RAWP_SECURITY_FIGURES) console.log(`search ${p}: ${Date.now() - started} ms, worst /v1/health ${worst.toFixed(0)} ms`);
      assert.ok(worst < 200, `${p}: /v1/health took ${worst.toFixed(0)} ms`);
      assert.ok(Date.now() - started < 60_000, `${p} ended`);
      assert.ok(t.results.every((r) => r.payload.status === 'success'), `${p}: ${JSON.stringify(t.results.map((r) => r.payload.output)).slice(0, 300)}`);
    }
  });

  it('rawp serve: a look-ahead or back-reference is refused with a clear INVALID_INPUT, not run', async () => {
    served = await serve({ 'a.txt': 'abab\n' });
    const m = await served.master();
    for (const p of ['find `(?=a)b`', 'find `(a)\\1`']) {
      const t = await promptTurn(m, p);
      assert.equal(t.results[0]?.payload.error_code, 'INVALID_INPUT');
      assert.match(String(t.results[0]?.payload.output), /look-arounds and back-references are not supported/);
    }
  });

  it('the engine: exact answers for content, count and files modes, in linear time on adversarial input', () => {
    const re = compileLinear('^fo+$');
    const lines = (r: ReturnType<typeof grepPiece>) => ({ count: r.count, lines: r.lines });
    assert.deepEqual(lines(grepPiece(re, 'foo\nbar\nfoooo\nfo', 'content', 10)), { count: 3, lines: [0, 2, 3] });
    assert.equal(grepPiece(compileLinear('o'), 'foo\nbar\nfoooo', 'count').count, 6);
    assert.deepEqual(lines(grepPiece(compileLinear('a\\nb', { multiline: true }), 'xa\nby\na\nb', 'content', 10)), { count: 2, lines: [0, 2] });
    assert.equal(grepPiece(compileLinear('X', { ignoreCase: true }), 'x\ny', 'files_with_matches').count, 1);
    assert.deepEqual(lines(grepPiece(compileLinear('(?<word>b)'), 'abc', 'content', 10)), { count: 1, lines: [0] }, 'JS named groups are translated');
    assert.throws(() => compileLinear('(?<=a)b'), RegexSyntaxError);
    const t = process.hrtime.bigint();
    const text = `${'a'.repeat(100_000)}!`;
    assert.deepEqual(lines(grepPiece(compileLinear('(a+)+$'), text, 'content', 10)), { count: 0, lines: [] });
    assert.equal(grepPiece(compileLinear('(a|aa)+b'), text, 'count').count, 0);
    assert.ok(Number(process.hrtime.bigint() - t) / 1e6 < 5_000, 'linear');
  });

  it('globs match what picomatch (dot: true) matches, in linear time', () => {
    const paths = ['a.ts', 'src/a.ts', 'src/deep/b.tsx', '.hidden/x.ts', 'src/.env', 'README.md', 'a/b/c/d.js', 'x{y}.txt', 'lib[1].js', 'src', 'src/a.ts.bak', 'docs/a b.md'];
    const globs = ['*.ts', '**/*.ts', 'src/**/*.{ts,tsx}', 'src/**', '**', '**/.env', '?.ts', 'a/**/d.js', 'a/*/c/*.js', '*.{md,js}', 'lib\\[1\\].js', 'src/*', 'docs/a b.md', '**/*.{ts,{tsx,js}}', '[ab].ts', './src/a.ts'];
    for (const g of globs) {
      const expected = paths.filter((p) => picomatch(g, { dot: true })(p));
      const got = globFilter([g], paths).map((i) => paths[i]);
      assert.deepEqual(got, expected, `${g} → ${globToRegexSource(g)}`);
    }
    // `[!a]` negates, as in bash and git (picomatch reads it as the class "! or a").
    assert.deepEqual(globFilter(['[!a].ts'], ['a.ts', 'b.ts', '!.ts']), [1, 2]);
    const t = process.hrtime.bigint();
    assert.deepEqual(globFilter([`${'*a'.repeat(200)}*b`], ['a'.repeat(4000)]), []);
    assert.ok(Number(process.hrtime.bigint() - t) / 1e6 < 2_000, 'linear');
  });
});

describe('security/tools: cancelling a search', function () {
  this.timeout(60_000);
  it('§4.4 a cancel stops a long Grep at once (the worker is terminated) and the next search works', async () => {
    const env = makeEnv();
    try {
      for (let i = 0; i < 40; i++) writeFileSync(env.p(`f${i}.txt`), `${'ab'.repeat(400_000)}\n`);
      const ac = new AbortController();
      const started = Date.now();
      setTimeout(() => ac.abort(), 300);
      // 400 alternatives: seconds of (linear) work per file, so the cancel lands mid-request.
      const slow = `(?:${Array.from({ length: 400 }, (_, i) => `b${i}a`).join('|')})`;
      const r = await env.runner.invoke('Grep', { pattern: slow, output_mode: 'count' }, ac.signal);
      const took = Date.now() - started;
      assert.equal(r.status, 'cancelled', `${took} ms: ${JSON.stringify(r.output).slice(0, 200)}`);
      assert.ok(took < 10_000, `cancelled after ${took} ms`);
      const again = await env.call('Grep', { pattern: 'ab', path: env.p('f0.txt'), output_mode: 'count' });
      assert.equal(again.status, 'success');
      assert.match(String(again.output), /f0\.txt:400000/);
    } finally {
      env.cleanup();
    }
  });
});
