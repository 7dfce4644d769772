// Decision 576: Glob over many files. It statted every match at once for its time (`Promise.all`),
// and each stat of the Node backend pins the file's directory and may read the file: 20,000
// matches ran out of descriptors (EMFILE) after 5 s and ~500 MB, 1,500 under `ulimit -n 1024`.
// Now a few stats are in flight (newestFirst.ts). And a cut list is said to be cut: the built-in
// agent answered "100 files" for 1,500 matches.
// Decision 587: the times come from the backend's `times` (no file read), and a match whose time
// cannot be read is listed last instead of failing the Glob.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, promises as fsp, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { newestFirst } from '../../../src/tools/newestFirst';
import { SearchAbortedError } from '../../../src/tools/search/searchClient';
import { FsError, type FsBackend, type FsStat, type FsTime } from '../../../src/workspace/fsBackend';
import { FakeHost } from '../../support/fakeHost';
import { makeEnv, type Env } from './_env';

const CHILD = join(__dirname, 'globManyFiles.child.ts');

/** A backend whose stats answer after a timer, counting how many are in flight. */
function slowStats(times: Record<string, number>, opts: { onStat?: (n: number) => void; fail?: string; failWith?: Record<string, FsError> } = {}) {
  const seen = { calls: 0, inFlight: 0, most: 0 };
  const fs = {
    async stat(path: string): Promise<FsStat | undefined> {
      seen.calls++;
      opts.onStat?.(seen.calls);
      seen.most = Math.max(seen.most, ++seen.inFlight);
      await new Promise((r) => setTimeout(r, 1));
      seen.inFlight--;
      if (path === opts.fail) throw new Error(`cannot stat ${path}`);
      if (opts.failWith?.[path]) throw opts.failWith[path];
      return path in times ? ({ type: 'file', size: 1, mtimeMs: times[path] } as FsStat) : undefined;
    },
  } as unknown as FsBackend;
  return { fs, seen };
}

describe('tools: Glob over many files (decision 576)', function () {
  this.timeout(120_000);

  it('20,000 files under a real `ulimit -n 256`: Glob answers the 100 newest, truncated: true, with bounded descriptors; the built-in agent says "more than 100 files"', function () {
    if (process.platform === 'win32') this.skip();
    const r = spawnSync('/bin/sh', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, '--require', 'tsx/cjs', CHILD], {
      cwd: join(__dirname, '..', '..', '..'),
      encoding: 'utf8',
      timeout: 110_000,
    });
    assert.equal(r.status, 0, `the child process ended ${r.status ?? r.signal}: ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { status: string; error?: string; count: number; first: string[]; truncated?: boolean; ms: number; before: number; peak: number; reply: string };
    assert.equal(out.status, 'success', `Glob failed: ${out.error}`);
    assert.equal(out.count, 100);
    assert.equal(out.truncated, true);
    assert.deepEqual(out.first, ['many/f00007.txt', 'many/f12345.txt', 'many/f19999.txt'], 'newest first, over all 20,000');
    if (out.before > 0) assert.ok(out.peak - out.before <= 64, `descriptors held while globbing: ${out.before} before, ${out.peak} at most`);
    assert.equal(out.reply, '`**/*.txt`: more than 100 files.');
  });

  describe('in process', () => {
    let env: Env;
    beforeEach(() => {
      env = makeEnv();
      mkdirSync(env.p('d'));
    });
    afterEach(() => {
      env.host.assertAllFramesAccepted();
      env.cleanup();
    });

    it('101 matches: 100 listed and truncated: true; exactly 100: all listed, not truncated', async () => {
      for (let i = 0; i < 101; i++) writeFileSync(env.p(`d/f${String(i).padStart(3, '0')}.txt`), 'x');
      const over = await env.call('Glob', { pattern: 'd/*.txt' });
      assert.equal((over.output as string[]).length, 100);
      assert.equal(over.truncated, true);
      assert.equal(env.host.ofType('tool.invoke.result').at(-1)!.payload.truncated, true);
      const exact = await env.call('Glob', { pattern: 'd/f0*.txt' });
      assert.equal((exact.output as string[]).length, 100);
      assert.equal(exact.truncated, undefined);
    });

    it('decision 587: an unreadable file no longer fails Glob — it is listed by its time, which needs no read', async () => {
      for (let i = 0; i < 5; i++) writeFileSync(env.p(`d/f${i}.txt`), 'x');
      const locked = env.p('d/locked.txt');
      writeFileSync(locked, 'secret');
      const future = Date.now() / 1000 + 3600;
      utimesSync(locked, future, future);
      chmodSync(locked, 0o000);
      // Root reads a mode-000 file all the same: there, opening it is what is refused.
      const open = fsp.open;
      if (process.getuid?.() === 0) {
        fsp.open = ((path: string, ...rest: unknown[]) => {
          if (path.endsWith('/locked.txt')) return Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' }));
          return (open as (...a: unknown[]) => ReturnType<typeof fsp.open>)(path, ...rest);
        }) as typeof fsp.open;
      }
      try {
        await assert.rejects(env.shared.fs.stat(locked), (e: unknown) => e instanceof FsError && e.code === 'FS_PERMISSION', 'stat, which hashes the file, is refused (what failed the Glob before)');
        const r = await env.call('Glob', { pattern: 'd/*.txt' });
        assert.equal(r.status, 'success', String(r.output));
        const out = r.output as string[];
        assert.equal(out[0], 'd/locked.txt', 'the newest, by the time read without reading the file');
        assert.deepEqual(out.slice(1).sort(), ['d/f0.txt', 'd/f1.txt', 'd/f2.txt', 'd/f3.txt', 'd/f4.txt']);
      } finally {
        fsp.open = open;
        chmodSync(locked, 0o644);
      }
    });

    it('the built-in agent\'s reply to `files d/*.txt` with 150 matches says "more than 100 files", with 3 says "3 files"', async () => {
      for (let i = 0; i < 150; i++) writeFileSync(env.p(`d/f${i}.txt`), 'x');
      writeFileSync(env.p('three-a.md'), 'x');
      writeFileSync(env.p('three-b.md'), 'x');
      writeFileSync(env.p('three-c.md'), 'x');
      const host = new FakeHost(env.dir);
      const agent = new BuiltinAgent({ language: 'en' });
      await agent.start(host);
      const ask = (text: string) => agent.prompt({ turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [] }, new AbortController().signal);
      try {
        await ask('files d/*.txt');
        assert.equal(host.ofType('agent.text.done').at(-1)?.payload.full_text, '`d/*.txt`: more than 100 files.');
        await ask('files *.md');
        assert.equal(host.ofType('agent.text.done').at(-1)?.payload.full_text, '`*.md`: 3 files.');
      } finally {
        await agent.dispose();
      }
    });
  });

  describe('newestFirst', () => {
    const names = Array.from({ length: 200 }, (_, i) => `/w/f${String(i).padStart(3, '0')}`);

    it('at most 8 stats in flight; newest first, then by path; a vanished file last', async () => {
      const times = Object.fromEntries(names.map((n, i) => [n, 1 + (i % 7)]));
      delete times['/w/f000'];
      const { fs, seen } = slowStats(times);
      const order = await newestFirst(fs, names);
      assert.equal(seen.calls, 200);
      assert.ok(seen.most <= 8, `stats in flight at once: ${seen.most}`);
      assert.deepEqual(order.slice(0, 3), ['/w/f006', '/w/f013', '/w/f020']);
      assert.equal(order.at(-1), '/w/f000');
      assert.equal(order.length, 200);
    });

    it('decision 587: without `times`, a stat refused for one file (gone, permission denied, a symlink on the way) lists it last; an I/O error is still the error', async () => {
      const times = Object.fromEntries(names.map((n, i) => [n, 1 + (i % 7)]));
      const failWith = {
        '/w/f006': new FsError('permission denied: "/w/f006"', 'FS_PERMISSION'),
        '/w/f013': new FsError('"/w/f013" does not exist', 'FS_NOT_FOUND'),
        '/w/f020': new FsError('"/w/f020" goes through the symlink "/w"', 'FS_OUTSIDE_WORKSPACE'),
      };
      const order = await newestFirst(slowStats(times, { failWith }).fs, names);
      assert.equal(order.length, 200);
      assert.deepEqual(order.slice(0, 2), ['/w/f027', '/w/f034'], 'the newest of the others first');
      assert.deepEqual(order.slice(-3), ['/w/f006', '/w/f013', '/w/f020'], 'the ones with no time last, by path');
      const io = slowStats(times, { failWith: { '/w/f010': new FsError('I/O error on "/w/f010": EIO', 'FS_IO') } });
      await assert.rejects(newestFirst(io.fs, names), (e: unknown) => e instanceof FsError && e.code === 'FS_IO');
    });

    it('decision 587: with `times` the backend is asked once for all, never statted; no time means last; an abort after it is `cancelled`', async () => {
      const asked: (readonly string[])[] = [];
      const fs = {
        async stat(): Promise<FsStat | undefined> {
          throw new Error('stat must not be called when the backend has times');
        },
        async times(paths: readonly string[]): Promise<(FsTime | undefined)[]> {
          asked.push(paths);
          return paths.map((_, i) => (i % 50 === 0 ? undefined : { type: 'file', size: 1, mtimeMs: i % 3 === 0 ? 0 : 1 + (i % 7) }));
        },
      } as unknown as FsBackend;
      const order = await newestFirst(fs, names);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].length, 200);
      assert.deepEqual(order.slice(0, 3), ['/w/f013', '/w/f020', '/w/f034'], 'newest (7), then by path');
      assert.deepEqual(order.slice(-4), ['/w/f000', '/w/f050', '/w/f100', '/w/f150'], 'no time: after even an mtime of 0');
      assert.ok(order.indexOf('/w/f003') < order.indexOf('/w/f000'), 'an mtime of 0 before no time');
      const ac = new AbortController();
      const aborting = { ...fs, times: async (paths: readonly string[]) => (ac.abort(), paths.map(() => undefined)) } as unknown as FsBackend;
      await assert.rejects(newestFirst(aborting, names, ac.signal), (e: Error) => e instanceof SearchAbortedError && e.message === 'cancelled');
    });

    it('an abort stops the stats (cancelled); a failed stat stops the others and is the error', async () => {
      const ac = new AbortController();
      const aborted = slowStats({}, { onStat: (n) => n === 20 && ac.abort() });
      await assert.rejects(newestFirst(aborted.fs, names, ac.signal), (e: Error) => e instanceof SearchAbortedError && e.message === 'cancelled');
      assert.ok(aborted.seen.calls < 30, `stats after the abort: ${aborted.seen.calls}`);
      const failing = slowStats({}, { fail: '/w/f010' });
      await assert.rejects(newestFirst(failing.fs, names), /cannot stat \/w\/f010/);
      await new Promise((r) => setTimeout(r, 20));
      assert.ok(failing.seen.calls < 30, `stats after the failure: ${failing.seen.calls}`);
    });
  });
});
