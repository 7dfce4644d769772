// Decision 557 over real sockets: the RemoteServer, two masters that are real WebSocket clients,
// and the real fuzzy search (WorkspaceSearch over a 720,000-path in-memory workspace, scanned in
// slices in this thread). Master A starts a search that takes a few hundred milliseconds and closes
// its socket; its search must stop at the scan's next check and nothing may be sent for it, while
// master B, still attached, searches on. The port below is `rawp serve`'s LazyFileSearch.run
// (signal → cancel token → WorkspaceSearch.run) with the token counting how often the scan asks.
import { strict as assert } from 'node:assert';
import type { FrameOf, PayloadOf } from '../../../src/protocol/frameTypes';
import type { FileSearch } from '../../../src/session/fileSearches';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { PARALLEL_MIN_PATHS } from '../../../src/workspace/fileSearch';
import { WorkspaceSearch, type CandidatesBody } from '../../../src/workspace/workspaceSearch';
import { rig, TestMaster, waitFor, type Rig } from './harness';

const FOLDERS = 16;
const PER_FOLDER = 45_000;
// Every path matches this query, so the scan has to score all of them.
const SLOW_QUERY = 'pkmdsubf';

function bigIndex(): FileIndex {
  const names = ['chatWidget.ts', 'main.c', 'index.tsx', 'netdev.c', 'README.md', 'circBuffer.ts'];
  return FileIndex.fromPaths(
    Array.from({ length: FOLDERS }, (_, k) => ({ name: `w${k}`, paths: Array.from({ length: PER_FOLDER }, (_, i) => `pkg${i % 150}/mod${i % 7}/sub${i % 13}/f${i}_${names[i % names.length]}`) })),
  );
}

interface Run {
  query: PayloadOf<'control.file.search'>;
  signal: AbortSignal;
  /** How often the scan checked whether to stop; and how often it did after the signal fired. */
  checks: number;
  checksAfterAbort: number;
  done?: { body: CandidatesBody | undefined };
}

/** A cancel token over `signal` that counts the scan's checks. */
function countingToken(run: Pick<Run, 'signal' | 'checks' | 'checksAfterAbort'>): { readonly cancelled: boolean } {
  return {
    get cancelled() {
      run.checks++;
      if (run.signal.aborted) run.checksAfterAbort++;
      return run.signal.aborted;
    },
  };
}

describe('remote: a master\'s file searches stop when its socket closes (decision 557)', function () {
  this.timeout(60_000);
  let r: Rig | undefined;
  const masters: TestMaster[] = [];
  afterEach(async () => {
    for (const m of masters.splice(0)) m.client.stop();
    await r?.close();
    r = undefined;
  });

  it('§16.1.3 §2.4 closing a master\'s WebSocket aborts its running search (the scan stops at its next check, no answer is sent); another master\'s search is answered', async () => {
    assert.ok(PER_FOLDER < PARALLEL_MIN_PATHS, 'each folder is scanned in slices here, so the scan\'s checks can be counted');
    const index = bigIndex();
    // How many checks the scan makes when nobody stops it.
    const whole = { signal: new AbortController().signal, checks: 0, checksAfterAbort: 0 };
    const full = await new WorkspaceSearch(index, { statResults: false }).run({ query: SLOW_QUERY }, countingToken(whole));
    assert.equal(full?.total_count, FOLDERS * PER_FOLDER);

    const search = new WorkspaceSearch(index, { statResults: false });
    const runs: Run[] = [];
    const fileSearch: FileSearch = async (query, signal) => {
      const run: Run = { query, signal, checks: 0, checksAfterAbort: 0 };
      runs.push(run);
      const body = await search.run(query, countingToken(run));
      run.done = { body };
      return { query_id: query.query_id, candidates: body?.candidates ?? [], total_count: body?.total_count ?? 0, truncated: body?.truncated ?? false };
    };
    r = await rig({ engine: { fileSearch } });
    const a = new TestMaster(r);
    const b = new TestMaster(r);
    masters.push(a, b);
    await a.open();
    await b.open();

    const fromA = a.client.send('control.file.search', { query_id: '00000000-0000-4000-8000-00000000a001', query: SLOW_QUERY });
    assert.ok(fromA);
    await waitFor(() => runs.length === 1 && runs[0].checks > 1, 'A\'s scan under way');
    a.client.stop(); // a close handshake, as a master leaving does
    await waitFor(() => runs[0].done !== undefined, 'A\'s search to end');
    const [ran] = runs;
    assert.equal(ran.signal.aborted, true, 'the search\'s signal fired when its master left');
    assert.equal(ran.done?.body, undefined, 'the scan gave up without a result');
    assert.equal(ran.checksAfterAbort, 1, 'it stopped at the first check after the signal fired');
    assert.ok(ran.checks < whole.checks, `it stopped early: ${ran.checks} of ${whole.checks} checks`);

    const fromB = b.client.send('control.file.search', { query_id: '00000000-0000-4000-8000-00000000b001', query: 'circb' });
    assert.ok(fromB);
    await waitFor(() => b.frames.some((f) => f.parent_id === fromB.message_id), 'B\'s answer');
    const answer = b.frames.find((f) => f.parent_id === fromB.message_id) as FrameOf<'session.file.candidates'>;
    assert.equal(answer.type, 'session.file.candidates');
    assert.ok(answer.payload.candidates.length > 0);
    assert.deepEqual(b.frames.filter((f) => f.parent_id === fromA.message_id), [], 'nothing was sent for A\'s search');
  });
});
