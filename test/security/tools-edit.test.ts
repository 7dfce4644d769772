// Issue 12 finding 2 (edits): `replace all` spliced once per match and the diff was Myers' O(N·D):
// 400 KB with 36k matches took 6.3 s of frozen event loop, 20 MB never finished. Edits and their
// diffs are now linear in the file size. Against a real `rawp serve` over loopback.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch, formatPatch } from 'diff';
import { diffOutput } from '../../src/tools/diff';
import { linearPatch, MAX_SHOWN_LINES } from '../../src/tools/lineDiff';
import { promptTurn, serve, worstHealthLatency, type Served } from './serveChild';

describe('security/tools: edits linear in the file size (issue 12 finding 2)', function () {
  this.timeout(240_000);
  let served: Served | undefined;
  afterEach(() => {
    served?.close();
    served = undefined;
  });

  it('rawp serve: `replace all` of 40,000 matches in 400 KB keeps /v1/health under 200 ms and writes exactly the replaced text', async () => {
    const text = 'a foo b;\n'.repeat(40_000) + 'end\n';
    served = await serve({ 'big.txt': text });
    const m = await served.master();
    let done = false;
    const turn = promptTurn(m, 'replace all `foo` with `quux` in big.txt', 'allow_once').finally(() => (done = true));
    const worst = await worstHealthLatency(served.url, () => done);
    const t = await turn;
    const edit = t.results.filter((r) => r.payload.tool_name === 'Edit').at(-1);
    assert.equal(edit?.payload.status, 'success', JSON.stringify(edit?.payload.output).slice(0, 300));
    assert.equal((edit?.payload.output as { replacements: number }).replacements, 40_000);
    assert.equal(readFileSync(join(served.dir, 'big.txt'), 'utf8'), text.replaceAll('foo', 'quux'));
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`replace all 400 KB: worst /v1/health ${worst.toFixed(0)} ms`);
    assert.ok(worst < 200, `/v1/health took ${worst.toFixed(0)} ms`);
  });

  it('rawp serve: `replace all` in a 20 MB file finishes (bounded) with exact content and a capped, flagged diff, /v1/health under 200 ms throughout', async () => {
    const text = 'const v = foo(bar) + foo(baz); // padding padding\n'.repeat(400_000);
    served = await serve({ 'huge.txt': text });
    const m = await served.master();
    let done = false;
    const started = Date.now();
    const turn = promptTurn(m, 'replace all `foo` with `qux` in huge.txt', 'allow_once', 180_000).finally(() => (done = true));
    const worst = await worstHealthLatency(served.url, () => done, 180_000);
    const t = await turn;
    const edit = t.results.filter((r) => r.payload.tool_name === 'Edit').at(-1);
    assert.equal(edit?.payload.status, 'success');
    const out = edit?.payload.output as { replacements: number; additions: number; hunks_truncated?: boolean; unified_diff: string };
    assert.equal(out.replacements, 800_000);
    assert.equal(out.additions, 400_000, 'counts are exact even when the hunks are cut');
    assert.equal(out.hunks_truncated, true);
    assert.ok(out.unified_diff.length < 2_000_000, 'the result frame stays small');
    assert.ok(readFileSync(join(served.dir, 'huge.txt')).equals(Buffer.from(text.replaceAll('foo', 'qux'))));
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`replace all 20 MB: ${Date.now() - started} ms, worst /v1/health ${worst.toFixed(0)} ms`);
    assert.ok(worst < 200, `/v1/health took ${worst.toFixed(0)} ms (the edit and its diff run in the worker)`);
  });

  it('the linear diff applies: patching `before` with it gives `after` (500 random cases), and small edits keep the minimal Myers diff', () => {
    let seed = 12;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = (n: number) => Array.from({ length: n }, () => ['a', 'b', 'c', ''][Math.floor(rnd() * 4)]).join('\n') + (rnd() < 0.5 ? '\n' : '');
    for (let i = 0; i < 500; i++) {
      const a = text(Math.floor(rnd() * 40));
      const b = rnd() < 0.5 ? a.replace(/a/g, 'x') : text(Math.floor(rnd() * 40));
      const p = linearPatch('a/f', 'b/f', a, b);
      assert.equal(applyPatch(a, formatPatch(p.patch)), b, `case ${i}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
      assert.equal(p.truncated, false);
    }
    const small = diffOutput('f.ts', 'a\nb\nc\n', 'a\nB\nc\n', false);
    assert.deepEqual(small.hunks, [{ old_start: 1, old_lines: 3, new_start: 1, new_lines: 3, lines: [' a', '-b', '+B', ' c'] }]);
    const big = linearPatch('a/f', 'b/f', 'x\n'.repeat(100_000), 'y\n'.repeat(100_000));
    assert.equal(big.truncated, true);
    assert.ok(big.patch.hunks.reduce((n, h) => n + h.lines.length, 0) <= MAX_SHOWN_LINES);
  });
});
