// Decision 714: the diff of a Codex `file_change` item (snapshots of the files it names, when Codex's
// session log has none) reads regular workspace files of at most 1 MiB, and a diff that cannot be
// had never holds the turn. The reader on real files; the translator with a diff that never comes.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodexFileChangeDiffer } from '../../../src/agents/codex/fileChangeDiff';
import { CodexTurnTranslator } from '../../../src/agents/codex/translate';
import { MAX_DIFF_FILE_BYTES, WorkspaceTextReader } from '../../../src/agents/codex/workspaceRead';
import type { FileChangeItem } from '../../../src/agents/codex/nativeEvents';
import type { AgentEvent } from '../../../src/session/agentAdapter';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';

function item(...changes: Array<[string, string]>): FileChangeItem {
  return { id: 'fc1', type: 'file_change', status: 'completed', changes: changes.map(([path, kind]) => ({ path, kind })) } as FileChangeItem;
}

describe('agents/codex: file-change diffs from snapshots (decision 714)', () => {
  let dir: string;
  let ws: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-diff-'));
    ws = join(dir, 'ws');
    mkdirSync(ws);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The differ as the adapter builds it, with no Codex session log (snapshots only). */
  function differ(workspacePath = ws) {
    const reader = new WorkspaceTextReader(new NodeFsBackend([ws]), workspacePath);
    return new CodexFileChangeDiffer({ workspacePath, reader, codexHome: undefined, threadId: () => undefined });
  }

  it('a file over 1 MiB is not read: a note in words instead of its diff', async () => {
    writeFileSync(join(ws, 'big.txt'), 'x'.repeat(MAX_DIFF_FILE_BYTES) + '\n');
    writeFileSync(join(ws, 'small.txt'), 'hi\n');
    const out = await differ().diff(item(['big.txt', 'add'], ['small.txt', 'add']), 'completed');
    assert.ok(out !== undefined && out.length < 500, `a short output: ${out?.length} characters`);
    assert.match(out, /^add big\.txt: no diff shown, it is 1048577 bytes, over the 1 MiB a diff may show\n/);
    assert.match(out, /--- \/dev\/null\n\+\+\+ b\/small\.txt\n@@ -0,0 \+1,1 @@\n\+hi\n/);
  });

  it('a file at exactly 1 MiB is still diffed', async () => {
    writeFileSync(join(ws, 'edge.txt'), 'y'.repeat(MAX_DIFF_FILE_BYTES - 1) + '\n');
    const out = await differ().diff(item(['edge.txt', 'add']), 'completed');
    assert.match(out ?? '', /^--- \/dev\/null\n\+\+\+ b\/edge\.txt\n/);
  });

  it('workspace files diff as before: an update between the snapshots, a deletion, absolute paths under the workspace', async () => {
    writeFileSync(join(ws, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(ws, 'gone.txt'), 'bye\n');
    const d = differ();
    const change = item([join(ws, 'a.txt'), 'update'], ['gone.txt', 'delete']);
    assert.equal(await d.diff(change, 'started'), undefined);
    writeFileSync(join(ws, 'a.txt'), 'one\nTWO\n');
    rmSync(join(ws, 'gone.txt'));
    assert.equal(await d.diff(change, 'completed'), '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' + '--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n');
  });

  it('a workspace reached through a symlinked folder: its files are still read, by relative and absolute path', async () => {
    const alias = join(dir, 'alias');
    symlinkSync(ws, alias);
    writeFileSync(join(ws, 'n.txt'), 'new\n');
    const out = await differ(alias).diff(item(['n.txt', 'add'], [join(alias, 'n.txt'), 'add']), 'completed');
    assert.equal(out, '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+new\n'.repeat(2));
  });

  it('a directory and a binary file are noted, not diffed', async () => {
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'blob.bin'), Buffer.from([0x53, 0, 0x51, 0x4c, 0]));
    const out = await differ().diff(item(['sub', 'add'], ['blob.bin', 'add']), 'completed');
    assert.equal(out, 'add sub: no diff shown, it is a directory\nadd blob.bin: no diff shown, it is not text\n');
  });
});

describe('agents/codex: a diff that does not come never holds the turn (decision 714)', () => {
  const never = () => new Promise<string | undefined>(() => undefined);
  const line = (type: string, it: object) => ({ type, item: it });
  const fc = { id: 'fc1', type: 'file_change', status: 'completed', changes: [{ path: 'pipe', kind: 'update' }] };

  function translator(diffTimeoutMs?: number) {
    const events: AgentEvent[] = [];
    const t = new CodexTurnTranslator({ emit: (e) => events.push(e), fileChangeDiff: never, ...(diffTimeoutMs !== undefined ? { diffTimeoutMs } : {}) });
    return { t, events };
  }

  it('after diffTimeoutMs the summary stands in, the lines after it come out, and finish resolves', async () => {
    const { t, events } = translator(100);
    t.push(line('item.completed', fc));
    t.push(line('item.completed', { id: 'm1', type: 'agent_message', text: 'after' }));
    const started = Date.now();
    await t.finish('ended');
    assert.ok(Date.now() - started < 2_000);
    const result = events.find((e) => e.type === 'tool.invoke.result');
    assert.equal(result?.type === 'tool.invoke.result' && result.payload.output, 'update pipe');
    assert.ok(events.some((e) => e.type === 'agent.text.done' && e.payload.full_text === 'after'));
  });

  it('a cancelled turn does not wait for the diff at all (the default 5 s timeout not reached)', async () => {
    const { t, events } = translator();
    t.push(line('item.started', { ...fc, status: 'in_progress' }));
    t.push(line('item.completed', fc));
    const started = Date.now();
    await t.finish('cancelled');
    assert.ok(Date.now() - started < 1_000, `finish took ${Date.now() - started} ms`);
    assert.equal(events.filter((e) => e.type === 'tool.invoke.result').length, 1);
  });
});
