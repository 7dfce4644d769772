// The engine side of §16.1 (control.file.search → session.file.candidates), with a real index on a
// real directory whose files appear and disappear while searches run.
import { strict as assert } from 'node:assert';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame, newId, parseFrame, type FrameOf } from '../../../src/protocol';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher, type CancelToken } from '../../../src/workspace/fileSearch';
import { FileSearchResponder, fileSearchAllowed, type CandidateSource } from '../../../src/workspace/fileSearchResponder';
import { watchTree } from '../../../src/workspace/nodeWatcher';
import { WorkspaceSearch, type CandidatesBody, type SearchInput } from '../../../src/workspace/workspaceSearch';
import { makeTmp, removeTmp, until, writeTree } from './tmpWorkspace';

const SESSION = newId();
const search = (query: string, extra: Partial<FrameOf<'control.file.search'>['payload']> = {}) =>
  buildFrame('control.file.search', { query_id: newId(), query, ...extra }, { session_id: SESSION });
const cancel = (query_id: string) => buildFrame('control.file.search.cancel', { query_id }, { session_id: SESSION });

/** A source whose answers the test releases by hand, to order completions at will. */
class ManualSource implements CandidateSource {
  readonly calls: { request: SearchInput; token: CancelToken; resolve: (b: CandidatesBody) => void }[] = [];
  run(request: SearchInput, token: CancelToken): Promise<CandidatesBody | undefined> {
    return new Promise((resolve) => this.calls.push({ request, token, resolve }));
  }
}
const body = (path: string): CandidatesBody => ({ candidates: [{ path, name: path, directory: '' }], total_count: 1, truncated: false });
const tick = () => new Promise((r) => setImmediate(r));

describe('workspace/fileSearchResponder: §16.1 engine side', () => {
  const announced = () => ({ file_search_fuzzy: true });

  it('§16.1.2 answers with parent_id = the search message_id and the query_id echoed; the frame is valid', async () => {
    const root = makeTmp();
    writeTree(root, { 'src/auth.ts': 'x', 'README.md': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    const out: FrameOf<'session.file.candidates'>[] = [];
    const responder = new FileSearchResponder({ session_id: SESSION, search: new WorkspaceSearch(index), emit: (f) => out.push(f), announced });
    try {
      const frame = search('aut');
      assert.deepEqual(responder.handle(frame), { accepted: true });
      await until(() => out.length === 1);
      const [reply] = out;
      assert.equal(reply.type, 'session.file.candidates');
      assert.equal(reply.parent_id, frame.message_id);
      assert.equal(reply.payload.query_id, frame.payload.query_id);
      assert.equal(reply.payload.candidates[0].path, 'src/auth.ts');
      assert.deepEqual(reply.payload.candidates[0].match_ranges, [{ start: 4, end: 7 }]);
      assert.equal(reply.payload.candidates[0].size_bytes, 1);
      assert.equal(parseFrame(JSON.stringify(reply)).kind, 'accepted');
    } finally {
      responder.dispose();
      index.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.1 a newer query supersedes older ones: a stale result is never delivered, even when it finishes last', async () => {
    const source = new ManualSource();
    const out: FrameOf<'session.file.candidates'>[] = [];
    const responder = new FileSearchResponder({ session_id: SESSION, search: source, emit: (f) => out.push(f), announced });
    const q1 = search('s');
    const q2 = search('sr');
    responder.handle(q1);
    responder.handle(q2);
    assert.equal(source.calls[0].token.cancelled, true, 'the older search is told to stop');
    assert.equal(source.calls[1].token.cancelled, false);
    source.calls[1].resolve(body('new.ts'));
    await tick();
    source.calls[0].resolve(body('old.ts')); // the stale one finishes last
    await tick();
    assert.deepEqual(out.map((f) => f.payload.query_id), [q2.payload.query_id]);
    // And when the stale one finishes first it is not delivered either.
    const q3 = search('a');
    const q4 = search('ab');
    responder.handle(q3);
    responder.handle(q4);
    source.calls[2].resolve(body('old.ts'));
    await tick();
    source.calls[3].resolve(body('new.ts'));
    await tick();
    assert.deepEqual(out.map((f) => f.payload.query_id), [q2.payload.query_id, q4.payload.query_id]);
    assert.equal(responder.inFlight, 0);
  });

  it('§16.1.3 control.file.search.cancel stops the search and nothing is emitted for it', async () => {
    const source = new ManualSource();
    const out: FrameOf<'session.file.candidates'>[] = [];
    const responder = new FileSearchResponder({ session_id: SESSION, search: source, emit: (f) => out.push(f), announced });
    const q = search('x');
    responder.handle(q);
    assert.equal(responder.inFlight, 1);
    responder.handle(cancel(q.payload.query_id));
    assert.equal(source.calls[0].token.cancelled, true);
    assert.equal(responder.inFlight, 0);
    source.calls[0].resolve(body('x.ts'));
    await tick();
    assert.deepEqual(out, []);
    // A cancel for an unknown query is harmless.
    assert.deepEqual(responder.handle(cancel(newId())), { accepted: true });
  });

  it('§16.1.3 cancel stops a real scan between slices (the search resolves without a result)', async () => {
    const paths = Array.from({ length: 60_000 }, (_, i) => `dir${i % 97}/sub${i % 13}/file_${i}.ts`);
    const index = FileIndex.fromPaths([{ name: 'big', paths }]);
    // Scanned in this thread (the scan workers' cancel is tested in parallelSearch.test.ts).
    const searcher = new FileSearcher(index, undefined, { pool: null });
    const token = { cancelled: false };
    let slices = 0;
    const counting = { get cancelled() { slices++; return token.cancelled; } };
    // budget 0: yield to the event loop after every slice, so the cancel lands mid-scan
    const running = searcher.search({ query: 'fil' }, counting, 0);
    await tick();
    token.cancelled = true;
    assert.equal(await running, undefined);
    assert.ok(slices >= 2 && slices < 60_000 / 16384 + 2, `stopped after ${slices} checks`);
    const ws = new WorkspaceSearch(index, { statResults: false });
    assert.equal((await ws.run({ query: 'fil' }))?.total_count, 60_000);
    const pre = { cancelled: true };
    assert.equal(await ws.run({ query: 'fil' }, pre), undefined, 'a search cancelled before it starts does nothing');
  });

  it('§12.2.1 without file_search_fuzzy announced, searches are refused and nothing is emitted', async () => {
    const source = new ManualSource();
    const out: unknown[] = [];
    const responder = new FileSearchResponder({ session_id: SESSION, search: source, emit: (f) => out.push(f), announced: () => ({ file_reference: true }) });
    const outcome = responder.handle(search('a'));
    assert.equal(outcome.accepted, false);
    assert.match((outcome as { reason: string }).reason, /file_search_fuzzy/);
    assert.equal(source.calls.length, 0);
    assert.equal(fileSearchAllowed(undefined).accepted, false);
    assert.equal(fileSearchAllowed({ file_search_fuzzy: false }).accepted, false);
    assert.equal(fileSearchAllowed({ file_search_fuzzy: true }).accepted, true);
  });

  it('§16.1 a failing search never throws across the boundary: onError gets it, or an empty answer is sent', async () => {
    const failing: CandidateSource = { run: () => Promise.reject(new Error('disk on fire')) };
    const errors: string[] = [];
    const r1 = new FileSearchResponder({ session_id: SESSION, search: failing, emit: () => assert.fail('no frame'), announced, onError: (m) => errors.push(m) });
    r1.handle(search('a'));
    await until(() => errors.length === 1);
    assert.match(errors[0], /disk on fire/);
    const out: FrameOf<'session.file.candidates'>[] = [];
    const throwing: CandidateSource = {
      run: () => {
        throw new Error('sync failure');
      },
    };
    const r2 = new FileSearchResponder({ session_id: SESSION, search: throwing, emit: (f) => out.push(f), announced });
    assert.doesNotThrow(() => r2.handle(search('a')));
    await until(() => out.length === 1);
    assert.deepEqual(out[0].payload.candidates, []);
    assert.equal(out[0].payload.truncated, false);
  });

  it('§16.1.1 files that appear and disappear during a search are seen by the next keystroke', async () => {
    const root = makeTmp();
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`pkg${i % 10}/module${i}.ts`] = '';
    writeTree(root, files);
    const index = await FileIndex.open({ roots: [root], noGit: true });
    index.attach((listener) => watchTree([root], listener, { batchMs: 5 }));
    const out: FrameOf<'session.file.candidates'>[] = [];
    const responder = new FileSearchResponder({ session_id: SESSION, search: new WorkspaceSearch(index), emit: (f) => out.push(f), announced });
    const answer = async (query: string) => {
      const frame = search(query);
      responder.handle(frame);
      await until(() => out.some((f) => f.payload.query_id === frame.payload.query_id));
      return (out.find((f) => f.payload.query_id === frame.payload.query_id) as FrameOf<'session.file.candidates'>).payload;
    };
    try {
      // Type "wid…" while widget files are created and old modules deleted underneath.
      const first = await answer('w');
      assert.ok(!first.candidates.some((c) => c.path.includes('widget')));
      writeTree(root, { 'ui/widget.ts': '', 'ui/widgetHost.ts': '' });
      for (let i = 0; i < 10; i++) unlinkSync(join(root, `pkg${i}/module${i}.ts`));
      await until(() => index.folders[0].index.has('ui/widgetHost.ts') && !index.folders[0].index.has('pkg9/module9.ts'));
      const second = await answer('wi');
      assert.deepEqual(second.candidates.slice(0, 2).map((c) => c.path), ['ui/widget.ts', 'ui/widgetHost.ts']);
      const mod = await answer('module9');
      assert.ok(!mod.candidates.some((c) => c.path === 'pkg9/module9.ts'), 'a deleted file is gone');
      assert.ok(mod.candidates.some((c) => c.path === 'pkg9/module99.ts'));
      // Searches keep running while files churn; every answer lists only files that exist then or
      // were just deleted (never a path that was never there).
      const churn = (async () => {
        for (let i = 0; i < 20; i++) {
          writeTree(root, { [`tmp/churn${i}.ts`]: '' });
          if (i > 0) unlinkSync(join(root, `tmp/churn${i - 1}.ts`));
          await new Promise((r) => setTimeout(r, 3));
        }
      })();
      const seen = new Set<string>();
      for (const q of ['c', 'ch', 'chu', 'chur', 'churn']) for (const c of (await answer(q)).candidates) seen.add(c.path);
      await churn;
      for (const p of seen) assert.match(p, /^(tmp\/churn\d+\.ts|pkg\d\/module\d+\.ts|ui\/widget(Host)?\.ts)$/);
      let last = '';
      await until(async () => (last = (await answer('churn')).candidates.map((c) => c.path).join()) === 'tmp/churn19.ts', 20, {
        ms: 15_000,
        what: 'the picker to list only tmp/churn19.ts',
        detail: () => `${last}; the index holds ${index.folders[0].index.allPaths().filter((p) => p.startsWith('tmp/')).join()}`,
      });
    } finally {
      responder.dispose();
      index.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.1 an empty query returns recently modified files, newest first', async () => {
    const root = makeTmp();
    writeTree(root, { 'old.ts': '', 'mid.ts': '', 'new.ts': '' });
    const { utimesSync } = await import('node:fs');
    utimesSync(join(root, 'old.ts'), new Date(1_000_000), new Date(1_000_000));
    utimesSync(join(root, 'mid.ts'), new Date(2_000_000_000), new Date(2_000_000_000));
    utimesSync(join(root, 'new.ts'), new Date(3_000_000_000), new Date(3_000_000_000));
    const index = await FileIndex.open({ roots: [root], noGit: true });
    try {
      const res = await new WorkspaceSearch(index).run({ query: '' });
      assert.ok(res);
      assert.deepEqual(res.candidates.map((c) => c.path), ['new.ts', 'mid.ts', 'old.ts']);
      assert.equal(res.candidates[0].modified_at, new Date(3_000_000_000).toISOString());
    } finally {
      index.dispose();
      removeTmp(root);
    }
  });

  it('§16.1.1 scope global also lists ignored files; workspace does not', async () => {
    const root = makeTmp();
    writeTree(root, { '.gitignore': 'dist/\n', 'src/app.ts': '', 'dist/app.js': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    const ws = new WorkspaceSearch(index);
    try {
      assert.deepEqual((await ws.run({ query: 'app' }))?.candidates.map((c) => c.path), ['src/app.ts']);
      assert.deepEqual((await ws.run({ query: 'app', scope: 'global' }))?.candidates.map((c) => c.path).sort(), ['dist/app.js', 'src/app.ts']);
    } finally {
      ws.dispose();
      index.dispose();
      removeTmp(root);
    }
  });
});
