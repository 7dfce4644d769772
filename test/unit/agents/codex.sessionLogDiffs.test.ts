// Decision 718: the diffs of Codex's file changes come from its session log, read as it grows.
// Before, every poll (every 25 ms, up to 500 ms, for each file change) read the whole log: 200 MB
// took 3-4 s and 1.7 GB a poll. Now a poll reads what was appended since the last one; each logged
// change is handed out once; a log that shrank or was replaced is read again from its start; a
// line over SESSION_LOG_LINE_BYTES is skipped with one warning and the changes after it still
// come. The differ on real files with its reads counted, and the adapter with a child process
// standing in for `codex exec --json` that writes the log as Codex does.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodexAdapter } from '../../../src/agents/codex/adapter';
import { CodexFileChangeDiffer } from '../../../src/agents/codex/fileChangeDiff';
import type { FileChangeItem } from '../../../src/agents/codex/nativeEvents';
import { WorkspaceTextReader } from '../../../src/agents/codex/workspaceRead';
import { openInsideNoFollow } from '../../../src/workspace/pinnedDir';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { RecordingHost } from '../../support/recordingHost';

const THREAD = '01a24dfb-b573-7582-9f7d-bb952c4250a8';
/** The bound of a session-log line (SESSION_LOG_LINE_BYTES), written out so this file runs against the code before it. */
const LINE_BOUND = 16 << 20;
/** The bytes before the offset a poll reads again (SESSION_LOG_CHECK_BYTES). */
const CHECK = 64;

/** One `item_completed` line of a FileChange, as Codex writes it to its session log. */
function logged(id: string, file: string, diff: string): string {
  const item = { type: 'FileChange', id, changes: { [file]: { type: 'update', unified_diff: diff, move_path: null } }, status: 'completed' };
  return JSON.stringify({ timestamp: '2026-12-07T00:51:12.704Z', ordinal: 11, type: 'event_msg', payload: { type: 'item_completed', thread_id: THREAD, item } }) + '\n';
}

/** A line of another kind, as many as a real log has between two changes. */
const filler = (n: number) => JSON.stringify({ timestamp: '2026-12-07T00:51:12.725Z', type: 'response_item', payload: { type: 'message', content: [{ type: 'output_text', text: 'w'.repeat(n) }] } }) + '\n';

function item(file: string): FileChangeItem {
  return { id: 'item_0', type: 'file_change', status: 'completed', changes: [{ path: file, kind: 'update' }] } as FileChangeItem;
}

describe('agents/codex: file-change diffs from the session log, read as it grows (decision 718)', function () {
  this.timeout(30_000);
  let dir: string;
  let ws: string;
  let home: string;
  let log: string;
  let warnings: string[];
  let read: { bytes: number };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-logdiff-'));
    ws = join(dir, 'ws');
    home = join(dir, 'codex-home');
    mkdirSync(ws);
    const day = join(home, 'sessions', '2026', '12', '07');
    mkdirSync(day, { recursive: true });
    log = join(day, `rollout-2026-12-07T00-51-11-${THREAD}.jsonl`);
    warnings = [];
    read = { bytes: 0 };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The differ as the adapter builds it, the log's reads counted. */
  function differ(logWaitMs = 300): CodexFileChangeDiffer {
    const reader = new WorkspaceTextReader(new NodeFsBackend([ws]), ws);
    const openLog = async (root: string, p: string) => {
      const f = await openInsideNoFollow(root, p);
      return {
        stat: () => f.stat(),
        read: async (b: Buffer, o: number, l: number, pos: number) => {
          const r = await f.read(b, o, l, pos);
          read.bytes += r.bytesRead;
          return r;
        },
        close: () => f.close(),
      };
    };
    return new CodexFileChangeDiffer({ workspacePath: ws, reader, codexHome: home, threadId: () => THREAD, logWaitMs, onWarning: (m) => warnings.push(m), openLog });
  }

  const diffOf = (file: string, text: string) => `--- a/${file}\n+++ b/${file}\n${text}`;

  it('each logged change is handed out once and whole: a line split across two appends, a character split across them, the same file changed twice', async () => {
    writeFileSync(log, filler(100) + filler(200));
    const d = differ(3000);
    const line = Buffer.from(logged('call_1', join(ws, 'a.txt'), '@@ -1 +1 @@\n-hello\n+hello patched é\n'), 'utf8');
    const cut = line.indexOf(Buffer.from('é', 'utf8')) + 1; // between the two bytes of é
    const pending = d.diff(item('a.txt'), 'completed');
    appendFileSync(log, line.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 120)); // a few polls see the half line
    appendFileSync(log, Buffer.concat([line.subarray(cut), Buffer.from(filler(50))]));
    assert.equal(await pending, diffOf('a.txt', '@@ -1 +1 @@\n-hello\n+hello patched é\n'));
    // The same change is not handed out again; a second change to the file is, once.
    assert.equal(await d.diff(item('a.txt'), 'completed'), undefined, 'the entry was used: no diff from the log, none from files (a.txt is not there)');
    appendFileSync(log, logged('call_2', 'a.txt', '@@ -1 +1 @@\n-hello patched é\n+third\n'));
    assert.equal(await d.diff(item('a.txt'), 'completed'), diffOf('a.txt', '@@ -1 +1 @@\n-hello patched é\n+third\n'));
    assert.deepEqual(warnings, []);
  });

  it('a poll reads only what was appended since the last one, not the whole log again', async () => {
    writeFileSync(log, filler(2000).repeat(500) + logged('call_1', 'a.txt', '@@ -1 +1 @@\n-a\n+b\n'));
    const d = differ();
    assert.equal(await d.diff(item('a.txt'), 'completed'), diffOf('a.txt', '@@ -1 +1 @@\n-a\n+b\n'));
    const size = statSync(log).size;
    assert.equal(read.bytes, size, 'the log is read once');
    for (let i = 0; i < 10; i++) {
      const more = filler(1000) + logged(`call_${i + 2}`, `f${i}.txt`, `@@ -1 +1 @@\n-${i}\n+${i + 1}\n`);
      appendFileSync(log, more);
      const before = read.bytes;
      assert.equal(await d.diff(item(`f${i}.txt`), 'completed'), diffOf(`f${i}.txt`, `@@ -1 +1 @@\n-${i}\n+${i + 1}\n`));
      assert.equal(read.bytes - before, Buffer.byteLength(more) + CHECK, `change ${i}: only the appended bytes (and the ${CHECK} before them) were read`);
    }
    assert.equal(d.log.offset, statSync(log).size);
    // Waiting for a change the log does not show yet reads nothing while the log does not grow.
    const idle = read.bytes;
    assert.equal(await d.diff(item('never.txt'), 'completed'), undefined);
    assert.equal(read.bytes, idle);
  });

  it('a log that shrank, or was replaced by another file, is read again from its start', async () => {
    writeFileSync(log, filler(5000) + logged('call_1', 'a.txt', '@@ -1 +1 @@\n-a\n+b\n'));
    const d = differ();
    assert.ok((await d.diff(item('a.txt'), 'completed'))?.includes('+b'));
    writeFileSync(log, logged('call_2', 'b.txt', '@@ -1 +1 @@\n-c\n+d\n')); // shorter than what was read
    assert.equal(await d.diff(item('b.txt'), 'completed'), diffOf('b.txt', '@@ -1 +1 @@\n-c\n+d\n'));
    const fresh = join(dir, 'fresh.jsonl');
    writeFileSync(fresh, filler(9000) + logged('call_1', 'a.txt', '@@ -1 +1 @@\n-a\n+b\n') + logged('call_3', 'c.txt', '@@ -1 +1 @@\n-e\n+f\n'));
    renameSync(fresh, log);
    assert.equal(await d.diff(item('c.txt'), 'completed'), diffOf('c.txt', '@@ -1 +1 @@\n-e\n+f\n'));
    assert.equal(await d.diff(item('a.txt'), 'completed'), undefined, 'a change handed out before is not handed out again from the new file');
  });

  it('a line over the bound is skipped with one warning, unread; the changes after it still come from the log', async () => {
    writeFileSync(log, filler(100));
    appendFileSync(log, logged('call_big', 'x.txt', '@@ -1 +1 @@\n-' + 'x'.repeat(LINE_BOUND) + '\n+y\n'));
    appendFileSync(log, logged('call_2', 'y.txt', '@@ -1 +1 @@\n-y\n+z\n'));
    const d = differ();
    const skipped = await d.diff(item('x.txt'), 'completed');
    assert.ok(skipped === undefined, `no diff from the log, none from the files (x.txt is not there): got ${skipped?.length} characters`);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /^Codex's session log rollout-.*\.jsonl has a line longer than 16 MiB \(from byte \d+\); it was skipped unread/);
    assert.equal(await d.diff(item('y.txt'), 'completed'), diffOf('y.txt', '@@ -1 +1 @@\n-y\n+z\n'));
    assert.equal(warnings.length, 1);
  });

  it('a backlog of many slices (a resumed session\'s long log) is read on past the wait, and the change at its end is found', async () => {
    const block = filler(4000).repeat(1000); // 4 MB
    writeFileSync(log, block.repeat(5) + logged('call_end', 'end.txt', '@@ -1 +1 @@\n-1\n+2\n'));
    assert.equal(await differ(0).diff(item('end.txt'), 'completed'), diffOf('end.txt', '@@ -1 +1 @@\n-1\n+2\n'));
  });

  it('the adapter: a skipped log line is one CODEX_SESSION_LOG warning of the turn; the next change shows its diff from the log', async () => {
    const codex = join(dir, 'codex.js');
    writeFileSync(
      codex,
      `
const fs = require('node:fs');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const change = (id, path) => ({ type: 'item.completed', item: { id, type: 'file_change', status: 'completed', changes: [{ path, kind: 'update' }] } });
process.stdin.resume();
process.stdin.on('end', () => {
  send({ type: 'thread.started', thread_id: ${JSON.stringify(THREAD)} });
  send({ type: 'turn.started' });
  fs.appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(filler(10))});
  fs.appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(logged('call_big', join(ws, 'x.txt'), '@@ -1 +1 @@\n-'))} .replace('"@@', '"' + 'x'.repeat(${LINE_BOUND}) + '@@'));
  fs.appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(logged('call_2', join(ws, 'y.txt'), '@@ -1 +1 @@\n-y\n+z\n'))});
  send(change('item_0', 'x.txt'));
  send(change('item_1', 'y.txt'));
  send({ type: 'turn.completed', usage: { input_tokens: 3, output_tokens: 2 } });
});`,
    );
    const adapter = new CodexAdapter({ command: process.execPath, prefixArgs: [codex], env: { CODEX_HOME: home }, killGraceMs: 500 });
    try {
      const host = new RecordingHost(ws);
      await host.open(adapter);
      const t = await host.turn(adapter, 'hi');
      const logWarnings = host.ofType('agent.error', t.frames).filter((e) => e.payload.error_code === 'CODEX_SESSION_LOG');
      assert.equal(logWarnings.length, 1);
      assert.equal(logWarnings[0].payload.recoverable, true);
      assert.match(logWarnings[0].payload.message, /has a line longer than 16 MiB/);
      const results = host.ofType('tool.invoke.result', t.frames);
      assert.equal(results.length, 2);
      assert.equal(results[0].payload.output, 'update x.txt');
      assert.equal(results[1].payload.output, diffOf('y.txt', '@@ -1 +1 @@\n-y\n+z\n'));
      assert.equal(t.outcome.stop_reason, 'end_turn');
      assert.deepEqual(host.invalid, []);
      assert.equal(host.validate().errors, 0, host.problems());
    } finally {
      await adapter.dispose();
    }
  });
});
