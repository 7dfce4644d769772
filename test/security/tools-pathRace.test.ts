// Issue 12 finding 3: `workspace/sub` atomically swapped with a symlink to an outside folder while
// the agent reads and writes under it. Against a real `rawp serve` over loopback (the finding's
// setting) and, for many more operations per swap, against the NodeFsBackend directly.
// 0 escapes in ≥ 1,000 swaps: no outside content returned, no file or `.rawp-tmp-*` created outside.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertFileReferences } from '../../src/agents/fileReferences';
import { FsError } from '../../src/workspace/fsBackend';
import { NodeFsBackend } from '../../src/workspace/nodeFsBackend';
import { promptTurn, serve, type Served } from './serveChild';
import { startSwapper } from './swapper';

const SECRET = 'OUTSIDE-SECRET-CONTENT';

function outsideFolder(): string {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rawp-race-out-')));
  writeFileSync(join(outside, 'f.txt'), SECRET);
  return outside;
}

describe('security/tools: path operations under a concurrent directory ↔ symlink swap (issue 12 finding 3)', function () {
  this.timeout(240_000);
  let served: Served | undefined;
  const cleanup: string[] = [];
  afterEach(() => {
    served?.close();
    served = undefined;
    for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('§8 rawp serve: reads, writes and listings under a swapped `sub` never return outside content nor create anything outside, in ≥ 1,000 swaps', async () => {
    const outside = outsideFolder();
    cleanup.push(outside);
    served = await serve({ 'sub/f.txt': 'inside\n' });
    symlinkSync(outside, join(served.dir, 'swap'));
    const m = await served.master();
    const swapper = startSwapper(join(served.dir, 'sub'), join(served.dir, 'swap'), 1_000_000, 60);
    let swapping = true;
    void swapper.done.finally(() => (swapping = false));
    let reads = 0;
    let writes = 0;
    let escapes = 0;
    const started = Date.now();
    // Bounded: at most 400 turns or 40 s, and the swapper must have made ≥ 1,000 swaps by then.
    for (let i = 0; i < 400 && Date.now() - started < 40_000 && swapping; i++) {
      const t =
        i % 2 === 0
          ? await promptTurn(m, Array.from({ length: 8 }, () => 'read sub/f.txt').concat('ls sub', 'find SECRET in sub').join('\n'))
          : await promptTurn(m, `write sub/new-${i}.txt: written ${i}`, 'allow_once');
      for (const r of t.results) if (JSON.stringify(r.payload.output ?? '').includes(SECRET)) escapes++;
      if (i % 2 === 0) reads += 8;
      else writes++;
      if (i > 20 && Date.now() - started > 10_000) break;
    }
    swapper.proc.kill('SIGTERM');
    const swaps = await swapper.done;
    assert.ok(swaps >= 1_000, `swaps: ${swaps}`);
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`serve race: ${swaps} swaps, ${reads} reads, ${writes} writes, ${escapes} escapes`);
    assert.equal(escapes, 0, `outside content returned in ${escapes} results (${reads} reads, ${writes} writes)`);
    assert.deepEqual(readdirSync(outside), ['f.txt'], 'nothing was created outside (no file, no .rawp-tmp-*)');
    assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), SECRET);
    assert.ok(reads >= 100 && writes >= 10, `enough traffic: ${reads} reads, ${writes} writes`);
  });

  it('§8 NodeFsBackend: stat, readText, list, writeText, updateText and delete under ≥ 1,000 swaps: 0 escapes', async () => {
    const outside = outsideFolder();
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'rawp-race-ws-')));
    cleanup.push(outside, ws);
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'f.txt'), 'inside');
    symlinkSync(outside, join(ws, 'swap'));
    const fs = new NodeFsBackend([ws]);
    const swapper = startSwapper(join(ws, 'sub'), join(ws, 'swap'), 2_000, 60);
    let swapping = true;
    void swapper.done.finally(() => (swapping = false));
    let escapes = 0;
    let ops = 0;
    const refusals = new Set<string>();
    const ok = (e: unknown) => {
      if (!(e instanceof FsError)) throw e;
      refusals.add(e.code);
    };
    const started = Date.now();
    for (let i = 0; swapping && i < 200_000 && Date.now() - started < 60_000; i++) {
      ops++;
      const f = join(ws, 'sub', 'f.txt');
      const n = join(ws, 'sub', `n-${i % 50}.txt`);
      try {
        switch (i % 6) {
          case 0:
            if ((await fs.readText(f)).text.includes(SECRET)) escapes++;
            break;
          case 1:
            if ((await fs.list(join(ws, 'sub'))).some((e) => e.name === 'f.txt') && (await fs.stat(join(ws, 'sub', 'f.txt')))?.size === SECRET.length) escapes++;
            break;
          case 2:
            await fs.writeText(n, `x${i}`, { kind: 'unconditional' });
            break;
          case 3:
            await fs.updateText(f, { kind: 'unconditional' }, (cur) => {
              if (cur.includes(SECRET)) escapes++;
              return 'inside';
            });
            break;
          case 4:
            await fs.writeText(join(ws, 'sub', 'deep', `d-${i % 7}`, 'x.txt'), 'deep', { kind: 'unconditional' });
            break;
          default:
            await fs.delete(n);
        }
      } catch (e) {
        ok(e);
      }
    }
    const swaps = await swapper.done;
    assert.ok(swaps >= 1_000, `swaps: ${swaps}`);
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`backend race: ${swaps} swaps, ${ops} operations, ${escapes} escapes, refusals ${[...refusals].join(' ')}`);
    assert.equal(escapes, 0, `${escapes} escapes in ${ops} operations`);
    assert.deepEqual(readdirSync(outside), ['f.txt'], 'nothing was created outside (no file, no directory, no .rawp-tmp-*)');
    assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), SECRET);
    assert.ok([...refusals].every((c) => ['FS_OUTSIDE_WORKSPACE', 'FS_NOT_FOUND', 'FS_STALE_VERSION'].includes(c)), `refusals: ${[...refusals].join(', ')}`);
  });

  it('§16.4 file references inlined into a prompt (checked, then read) under ≥ 1,000 swaps: no outside content', async () => {
    const outside = outsideFolder();
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'rawp-race-ref-')));
    cleanup.push(outside, ws);
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'f.txt'), 'inside');
    symlinkSync(outside, join(ws, 'swap'));
    const swapper = startSwapper(join(ws, 'sub'), join(ws, 'swap'), 2_000, 60);
    let swapping = true;
    void swapper.done.finally(() => (swapping = false));
    let escapes = 0;
    let inlined = 0;
    const ref = { ref_id: 'r', path: join(ws, 'sub', 'f.txt'), name: 'f.txt', workspace_relative_path: 'sub/f.txt' };
    const started = Date.now();
    for (let i = 0; swapping && i < 100_000 && Date.now() - started < 60_000; i++) {
      const c = await convertFileReferences('see <@file:r|f.txt>', [ref], { roots: [ws], strategy: { kind: 'inline' } });
      if (c.text.includes(SECRET)) escapes++;
      if (c.text.includes('inside')) inlined++;
    }
    const swaps = await swapper.done;
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`file-reference race: ${swaps} swaps, ${inlined} inlined, ${escapes} escapes`);
    assert.ok(swaps >= 1_000, `swaps: ${swaps}`);
    assert.equal(escapes, 0, `${escapes} prompts carried the outside file`);
    assert.ok(inlined > 0, 'the inside file was inlined when not swapped');
  });
});
