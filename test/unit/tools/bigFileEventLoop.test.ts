// A 20 MB file through the real tools (NodeFsBackend on a temp workspace): its read-before-write
// versions are hashed in event-loop turns (src/workspace/bytesInTurns.ts), so no single block of
// the loop is a whole-file hash. Measured with perf_hooks.monitorEventLoopDelay; an operation is
// run again (up to MAX_RUNS times) until one run stays under the bound, so a stall of the shared
// machine in one run is not taken for ours — a block our code causes is in every run.
import { strict as assert } from 'node:assert';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { versionOfBytes } from '../../../src/workspace/fileVersion';
import { makeEnv, type Env } from './_env';
import { worstBlockMs } from '../../support/eventLoopBlock';

const LINE = 'const v = foo(bar) + foo(baz); // padding padding\n';
const TWENTY_MB = LINE.repeat(400_000) + 'MARK-0\n';
const MAX_RUNS = 20;

/** Runs `op` until its worst block is under `boundMs` (at most MAX_RUNS times): the best run, and every run for the figures. */
async function bestRun(boundMs: number, op: (run: number) => Promise<void>): Promise<{ best: number; all: number[]; runs: number }> {
  const all: number[] = [];
  for (let run = 0; run < MAX_RUNS && !(Math.min(...all) < boundMs); run++) all.push(await worstBlockMs(() => op(run)));
  return { best: Math.min(...all), all, runs: all.length };
}

/**
 * This machine's own cost of the blocks the tools may still take, measured in the same run (best
 * of three): one synchronous UTF-8 decode of the 20 MB text, and one synchronous SHA-256 of it. The
 * bounds below are fixed figures from a machine in its normal state, raised only when this machine
 * is slower than that right now (a shared host whose memory ran at 0.3 GB/s decoded 20 MB in 65 ms),
 * so what they test stays the same: a block never holds the hash besides the decode.
 */
function machineCost(): { decodeMs: number; hashMs: number } {
  const bytes = Buffer.from(TWENTY_MB);
  let decodeMs = Infinity;
  let hashMs = Infinity;
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    if (bytes.toString('utf8').length !== TWENTY_MB.length) throw new Error('decode');
    decodeMs = Math.min(decodeMs, performance.now() - t);
    t = performance.now();
    versionOfBytes(bytes);
    hashMs = Math.min(hashMs, performance.now() - t);
  }
  return { decodeMs, hashMs };
}

function figures(label: string, r: { all: number[] }): string {
  const text = `${label}: worst loop block per run ${r.all.map((n) => n.toFixed(1)).join(', ')} ms`;
  if (process.env.RAWP_FIGURES) console.log(text);
  return text;
}

describe('tools: a 20 MB file never holds the event loop for a whole-file hash (read-before-write versions)', function () {
  this.timeout(120_000);
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_session' });
    writeFileSync(env.p('huge.txt'), TWENTY_MB);
  });
  afterEach(() => env.cleanup());

  it('read-before-write: Glob stats a 20 MB file (its version is a SHA-256 of all of it) with no loop block of 8 ms or more', async () => {
    const r = await bestRun(8, async (run) => {
      // A new ctime each run: the version cache misses and the file is hashed again.
      utimesSync(env.p('huge.txt'), new Date(), new Date(Date.now() - run * 1000));
      const g = await env.call('Glob', { pattern: '*.txt' });
      assert.equal(g.status, 'success', String(g.output));
    });
    const version = (await env.shared.fs.stat(env.p('huge.txt')))?.version;
    assert.equal(version, versionOfBytes(Buffer.from(TWENTY_MB)), 'the version is the whole-file hash');
    // One synchronous SHA-256 of 20 MB is ≥ 10 ms here (40-50 ms without SHA CPU extensions); in
    // slices of 512 KB each turn is ~0.3 ms.
    assert.ok(r.best < 8, figures('Glob of 20 MB', r));
  });

  it('read-before-write: Read of a 20 MB file — the hash is not added to the decode’s block (no loop block of 18 ms or more)', async () => {
    // Before: decode (~10 ms for a flat 20 MB string) and hash (~10 ms) in one synchronous run.
    // Under the decode and half a hash (18 ms on a machine in its normal state, or more on a slower one).
    const cost = machineCost();
    const bound = Math.max(18, cost.decodeMs + cost.hashMs / 2);
    const r = await bestRun(bound, async () => {
      const read = await env.call('Read', { file_path: env.p('huge.txt'), limit: 5 });
      assert.equal(read.status, 'success', String(read.output));
    });
    assert.ok(r.best < bound, `${figures('Read of 20 MB', r)} (bound ${bound.toFixed(1)} ms: decode ${cost.decodeMs.toFixed(1)}, hash ${cost.hashMs.toFixed(1)})`);
  });

  it('read-before-write: Edit of one line in a 20 MB file — hashes in turns, the text moved to the edit worker as bytes: no loop block of 25 ms or more; the edit is exact and its version is the new bytes’ hash', async () => {
    // Under one decode, one hash and 5 ms (25 ms on a machine in its normal state, or more on a slower one).
    const cost = machineCost();
    const bound = Math.max(25, cost.decodeMs + cost.hashMs + 5);
    const r = await bestRun(bound, async (run) => {
      const read = await env.call('Read', { file_path: env.p('huge.txt'), limit: 1 });
      assert.equal(read.status, 'success');
      const edit = await env.call('Edit', { file_path: env.p('huge.txt'), old_string: `MARK-${run}`, new_string: `MARK-${run + 1}` });
      assert.equal(edit.status, 'success', String(edit.output));
    });
    const want = TWENTY_MB.replace('MARK-0', `MARK-${r.runs}`);
    assert.equal(readFileSync(env.p('huge.txt'), 'utf8'), want);
    assert.equal((await env.shared.fs.readText(env.p('huge.txt'))).version, versionOfBytes(Buffer.from(want)));
    // Before: two whole-file hashes and 20 MB strings cloned to and from the edit/diff worker
    // (~20 ms each way): 29-40 ms at best. Now the worst is one decode of the text (~10 ms).
    assert.ok(r.best < bound, `${figures('Read + Edit of 20 MB', r)} (bound ${bound.toFixed(1)} ms: decode ${cost.decodeMs.toFixed(1)}, hash ${cost.hashMs.toFixed(1)})`);
  });

  it('read-before-write: Write over a 20 MB file — its old text is never decoded on the loop (the bytes go to the diff worker): no loop block of 8 ms or more (or half a decode on a slower machine); the file and its diff are exact', async () => {
    // Before: the old 20 MB were decoded in one block (~10 ms, 60-150 ms on a slow host), only to
    // be encoded again for the diff worker. The bound is under one decode, so that block fails it.
    const cost = machineCost();
    const bound = Math.max(8, cost.decodeMs / 2);
    // Read once, outside the timing (its decode is Read's own block): each Write's result
    // registers the version it wrote, so the next Write needs no Read.
    assert.equal((await env.call('Read', { file_path: env.p('huge.txt'), limit: 1 })).status, 'success');
    // The test host checks every frame it is given by serializing and parsing it: 20 MB of it is
    // the harness's own work, not the tool's, so the frames are checked after the timing. (The
    // 20 MB tool.invoke.request itself, published by a real host, is not what this test measures.)
    const check = env.host.emit.bind(env.host);
    const emitted: Parameters<typeof check>[0][] = [];
    env.host.emit = (event) => void emitted.push(event);
    let last = TWENTY_MB;
    let lastDiff: Record<string, unknown> | undefined;
    const all: number[] = [];
    for (let run = 0; run < MAX_RUNS && !(Math.min(...all) < bound); run++) {
      // The agent's content arrives as one flat string (JSON.parse makes one), made outside the timing.
      const content = Buffer.from(last.replace(`MARK-${run}`, `MARK-${run + 1}`)).toString('utf8');
      all.push(
        await worstBlockMs(async () => {
          const write = await env.call('Write', { file_path: env.p('huge.txt'), content });
          assert.equal(write.status, 'success', String(write.output));
          assert.equal(write.output_type, 'diff');
          lastDiff = write.output as Record<string, unknown>;
        }),
      );
      last = content;
    }
    const r = { best: Math.min(...all), all, runs: all.length };
    env.host.emit = check;
    for (const event of emitted) check(event);
    assert.deepEqual(env.host.rejected, [], 'every frame the tool emitted is valid');
    assert.equal(readFileSync(env.p('huge.txt'), 'utf8'), last);
    assert.equal((await env.shared.fs.readText(env.p('huge.txt'))).version, versionOfBytes(Buffer.from(last)));
    assert.deepEqual([lastDiff?.additions, lastDiff?.deletions], [1, 1], 'the diff is the one changed line');
    assert.match(String(lastDiff?.unified_diff), new RegExp(`-MARK-${r.runs - 1}\\n\\+MARK-${r.runs}`));
    // The same 20 MB again: nothing changed (compared as bytes), so no diff (§5.3.3).
    const same = await env.call('Write', { file_path: env.p('huge.txt'), content: last });
    assert.equal(same.output_type, 'empty');
    assert.ok(r.best < bound, `${figures('Write over 20 MB', r)} (bound ${bound.toFixed(1)} ms: decode ${cost.decodeMs.toFixed(1)})`);
  });
});
