// Security property "a Codex file change shows only workspace files, and never stops the turn"
// (decision 714). Codex's `file_change` items name paths and carry no diff; the adapter reads the
// files for one. The path is the agent's word: before this decision `/…/outside/secret.txt`,
// `../outside/secret.txt` or a symlink put the outside file into the tool.invoke.result that every
// master and the journal get, /dev/zero read for 28 s into 647 MB, and a FIFO hung the turn for
// good. A real child process stands in for `codex exec --json` (it makes the FIFO, writes the
// files and prints the lines); real files, symlinks and FIFO; the adapter as the host runs it.
import { strict as assert } from 'node:assert';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodexAdapter } from '../../src/agents/codex/adapter';
import type { Frame } from '../../src/protocol/frameTypes';
import { RecordingHost } from '../support/recordingHost';

// `node codex.js <script.json> exec --json … -`: for each entry of the script, prints it as a line,
// or does what it says ({ mkfifo }, { write: [path, text] }, { sleep: ms }); then exits 0.
const CODEX = `
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const script = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdin.resume();
process.stdin.on('end', () => {
  for (const e of script) {
    if (e.mkfifo) execFileSync('mkfifo', [e.mkfifo]);
    else if (e.write) fs.writeFileSync(e.write[0], e.write[1]);
    else if (e.sleep) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, e.sleep);
    else process.stdout.write(JSON.stringify(e) + '\\n');
  }
});`;

const SECRET = 'PRIVATE KEY 7c1f-outside-the-workspace';

describe('security/codex: file-change diffs read only regular workspace files, bounded, and the turn ends (decision 714)', function () {
  this.timeout(60_000);
  let dir: string;
  let ws: string;
  let adapter: CodexAdapter | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-fc-'));
    ws = join(dir, 'ws');
    mkdirSync(ws);
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'secret.txt'), SECRET + '\n');
    writeFileSync(join(dir, 'codex.js'), CODEX);
  });
  afterEach(async () => {
    // A reader still blocked on the FIFO (the unfixed adapter) gets its end of file here.
    try {
      closeSync(openSync(join(ws, 'pipe'), constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* no FIFO, or nobody reading it */
    }
    await adapter?.dispose();
    adapter = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** One turn: `before` entries, then a completed file_change of `paths` (kind update), a message, the end. */
  async function fileChange(paths: string[], before: object[] = [], opts: { started?: boolean } = {}) {
    const item = (status: string) => ({ id: 'fc1', type: 'file_change', status, changes: paths.map((path) => ({ path, kind: 'update' })) });
    const script = [
      { type: 'thread.started', thread_id: 'thread-fc' },
      { type: 'turn.started' },
      ...(opts.started ? [{ type: 'item.started', item: item('in_progress') }] : []),
      ...before,
      { type: 'item.completed', item: item('completed') },
      { type: 'item.completed', item: { id: 'm1', type: 'agent_message', text: 'done' } },
      { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
    ];
    writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
    adapter = new CodexAdapter({ command: process.execPath, prefixArgs: [join(dir, 'codex.js'), join(dir, 'script.json')], env: { CODEX_HOME: join(dir, 'codex-home') }, killGraceMs: 500 });
    const host = new RecordingHost(ws);
    await host.open(adapter);
    const started = Date.now();
    const t = await host.turn(adapter, 'change files');
    const results = host.ofType('tool.invoke.result', t.frames).filter((r) => r.payload.tool_name === 'apply_patch');
    assert.equal(results.length, 1);
    assert.deepEqual(host.invalid, []);
    assert.equal(host.validate().errors, 0, host.problems());
    assert.equal(t.outcome.stop_reason, 'end_turn');
    assert.ok(texts(t.frames).includes('done'), 'the turn went on after the file change');
    return { output: String(results[0].payload.output), status: results[0].payload.status, ms: Date.now() - started };
  }

  function noSecret(output: string, path: string) {
    assert.ok(!output.includes(SECRET), `the outside file's content is not in the result: ${output}`);
    assert.match(output, new RegExp(`^update ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: no diff shown, `, 'm'));
  }

  it('a file outside the workspace named by its absolute path: no diff, a note, none of its content', async () => {
    const outside = join(dir, 'outside', 'secret.txt');
    const { output, status } = await fileChange([outside]);
    noSecret(output, outside);
    assert.match(output, /it is outside the workspace/);
    assert.equal(status, 'success');
  });

  it('a file outside named with `..` (also after an item.started snapshot): no diff, none of its content', async () => {
    noSecret((await fileChange(['../outside/secret.txt'])).output, '../outside/secret.txt');
    await adapter?.dispose();
    noSecret((await fileChange(['../outside/secret.txt'], [], { started: true })).output, '../outside/secret.txt');
  });

  it('a symlink in the workspace to the outside file, and a file under a symlinked folder: refused, none of its content', async () => {
    symlinkSync(join(dir, 'outside', 'secret.txt'), join(ws, 'link.txt'));
    symlinkSync(join(dir, 'outside'), join(ws, 'linkdir'));
    const { output } = await fileChange(['link.txt', 'linkdir/secret.txt']);
    noSecret(output, 'link.txt');
    noSecret(output, 'linkdir/secret.txt');
    // Through the backend's bounded read (NodeFsBackend.readTextPrefix, decision 720) the refusal of the link is the open's.
    assert.match(output, /^update link\.txt: no diff shown, it is (a symlink|outside the workspace or reached through a symlink)/m);
    assert.match(output, /^update linkdir\/secret\.txt: no diff shown, it is outside the workspace or reached through a symlink/m);
  });

  it('a FIFO the agent made in the workspace: refused at once, never opened blocking; the turn ends', async () => {
    const { output, ms } = await fileChange(['pipe'], [{ mkfifo: join(ws, 'pipe') }]);
    assert.match(output, /^update pipe: no diff shown, it is not a regular file/m);
    assert.ok(ms < 5_000, `the turn ended in ${ms} ms`);
  }).timeout(15_000);

  it('/dev/zero: refused as outside the workspace, nothing read', async () => {
    const { output, ms } = await fileChange(['/dev/zero']);
    assert.match(output, /^update \/dev\/zero: no diff shown, it is outside the workspace$/m);
    assert.ok(output.length < 200);
    assert.ok(ms < 5_000, `the turn ended in ${ms} ms`);
  }).timeout(15_000);

  it('a workspace file and an outside one in the same change: the workspace file is diffed, the outside one noted', async () => {
    writeFileSync(join(ws, 'a.txt'), 'one\ntwo\n');
    const { output } = await fileChange(['a.txt', '../outside/secret.txt'], [{ sleep: 500 }, { write: [join(ws, 'a.txt'), 'one\nTWO\n'] }], { started: true });
    noSecret(output, '../outside/secret.txt');
    assert.match(output, /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,2 \+1,2 @@\n one\n-two\n\+TWO\n/);
  });
});

function texts(frames: Frame[]): string[] {
  return frames.flatMap((f) => (f.type === 'agent.text.done' && f.payload.full_text !== undefined ? [f.payload.full_text] : []));
}
