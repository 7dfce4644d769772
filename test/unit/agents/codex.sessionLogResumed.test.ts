// Decision 718, found after it landed: a rawp process resuming a Codex thread reads a log that holds
// the thread's earlier sessions, and a change is matched by its set of files, the oldest unused
// first — so this turn's first edit of `a.txt` was shown with the diff of an `a.txt` edit made days
// before. Before this process's first turn the log is now followed from its end (`skipBacklog`).
// Real files; LoggedChanges as the differ builds it.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggedChanges } from '../../../src/agents/codex/loggedChanges';

const THREAD = '01a24dfb-b573-7582-9f7d-bb952c4250a8';

function logged(id: string, file: string, diff: string): string {
  const item = { type: 'FileChange', id, changes: { [file]: { type: 'update', unified_diff: diff, move_path: null } }, status: 'completed' };
  return JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', thread_id: THREAD, item } }) + '\n';
}

describe('agents/codex: a resumed thread\'s session log is followed from its end (decision 718)', () => {
  let dir: string;
  let log: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-resumed-'));
    const day = join(dir, 'sessions', '2026', '12', '07');
    mkdirSync(day, { recursive: true });
    log = join(day, `rollout-2026-12-07T00-51-11-${THREAD}.jsonl`);
    // An earlier session's edit of a.txt, and its last line still being written.
    writeFileSync(log, logged('old-1', '/ws/a.txt', '@@ -1 +1 @@\n-days ago\n+old\n') + '{"type":"event_msg","payload":{"type":"item_com');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const changes = () => new LoggedChanges({ codexHome: dir, threadId: () => THREAD });
  const wanted = new Set(['/ws/a.txt']);

  it('this turn\'s edit of a.txt gets its own diff, not the earlier session\'s, and the half-written line is passed over', async () => {
    const log1 = changes();
    await log1.skipBacklog();
    appendFileSync(log, 'pleted"}}\n' + logged('new-1', '/ws/a.txt', '@@ -1 +1 @@\n-old\n+new\n'));
    while (await log1.poll());
    assert.equal(log1.take((p) => p, wanted)?.id, 'new-1');
    assert.equal(log1.take((p) => p, wanted), undefined, 'the old change is never handed out');
  });

  it('without the skip (how it was), the oldest unused change for the same file was taken', async () => {
    const log2 = changes();
    appendFileSync(log, 'pleted"}}\n' + logged('new-1', '/ws/a.txt', '@@ -1 +1 @@\n-old\n+new\n'));
    while (await log2.poll());
    assert.equal(log2.take((p) => p, wanted)?.id, 'old-1');
  });

  it('a log this process already reads is not skipped: a change logged between two turns is still found', async () => {
    const log3 = changes();
    await log3.skipBacklog();
    while (await log3.poll());
    appendFileSync(log, 'pleted"}}\n' + logged('mid-1', '/ws/a.txt', 'd'));
    await log3.skipBacklog(); // the next turn begins
    while (await log3.poll());
    assert.equal(log3.take((p) => p, wanted)?.id, 'mid-1');
  });
});
