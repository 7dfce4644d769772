// Issue 17 with the built-in agent: a turn that edits, creates and deletes files yields a
// checkpoint listing exactly those files; rewind restores the bytes and removes created files; a
// person's edit after the turn blocks that file until forced; rewinding twice and undoing the
// rewind leave the workspace as expected; the user's own .git is untouched.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../../src/protocol/build';
import { buildCheckpointFrame, CHECKPOINT_RESTORE_TYPE } from '../../../../src/protocol/checkpointFrames';
import { waitFor } from '../../remote/harness';
import { harness, type Harness } from '../harness';
import { AllowingView, byPath, fileHash, initUserRepo, userRepoFingerprint } from './support';

describe('checkpoints with the built-in agent (issue 17)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => h && (await h.cleanup()));

  it('§3.1.1 x-rawp.checkpoint.created lists exactly the edited, created and deleted files; rewind, conflicts, force, undo; the user .git untouched', async () => {
    h = harness();
    const ws = h.workspace;
    writeFileSync(join(ws, 'del.txt'), 'to be deleted\r\nwith CRLF\r\n');
    writeFileSync(join(ws, 'untouched.txt'), 'nobody changes me\n');
    mkdirSync(join(ws, 'docs'));
    writeFileSync(join(ws, 'docs', 'notes.md'), '# notes\n');
    initUserRepo(ws);
    const repoBefore = userRepoFingerprint(ws);
    const original = { greeting: fileHash(join(ws, 'src', 'greeting.ts')), del: fileHash(join(ws, 'del.txt')) };

    const host = h.makeHost({ defaultAgent: 'builtin' });
    const id = await host.create({ agent: 'builtin' });
    const view = new AllowingView('view', host.hub);
    host.hub.attach(id, view);
    const prompt = ['replace `Hello` with `Bye` in src/greeting.ts', 'run `rm del.txt`', "run `mkdir -p src/made && printf 'export const n = 1;\\n' > src/made/new.ts`"].join('\n');
    host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: prompt }, { session_id: id }));
    await waitFor(() => view.turnEnds() === 1, 'the turn ends', 30_000);

    const created = view.created();
    assert.equal(created.length, 1, 'one checkpoint for the turn');
    assert.deepEqual(byPath(created[0].files), ['created src/made/new.ts', 'deleted del.txt', 'modified src/greeting.ts']);
    const turnEnd = view.frames.find((f) => f.type === 'session.turn.end');
    assert.equal(created[0].turn_id, turnEnd && 'payload' in turnEnd ? (turnEnd.payload as { turn_id: string }).turn_id : undefined);
    assert.ok(existsSync(join(ws, 'src', 'made', 'new.ts')) && !existsSync(join(ws, 'del.txt')));

    // A person edits the greeting after the turn: its rewind is blocked, the rest goes back.
    writeFileSync(join(ws, 'src', 'greeting.ts'), 'export const greeting = "Bye, said the person";\n');
    const personal = fileHash(join(ws, 'src', 'greeting.ts'));
    const checkpoint_id = created[0].checkpoint_id;
    host.hub.receive('view', buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id }, id));
    await waitFor(() => view.restored().length === 1, 'restored frame');
    const first = view.restored()[0];
    assert.deepEqual(first.conflicts, ['src/greeting.ts']);
    assert.deepEqual(first.restored, ['del.txt', 'src/made/new.ts']);
    assert.equal(fileHash(join(ws, 'del.txt')), original.del, 'the deleted file has its bytes back (CRLF kept)');
    assert.ok(!existsSync(join(ws, 'src', 'made', 'new.ts')), 'the created file is gone');
    assert.ok(!existsSync(join(ws, 'src', 'made')), 'and the folder the turn created');
    assert.equal(fileHash(join(ws, 'src', 'greeting.ts')), personal, "the person's edit is untouched");
    assert.ok(first.undo_checkpoint_id, 'the rewind recorded a checkpoint first');

    // The person confirms: forced, the greeting goes back as well.
    const forced = await host.checkpoints!.restore(id, checkpoint_id, { force: ['src/greeting.ts'] });
    assert.deepEqual(forced.conflicts, []);
    assert.ok(forced.restored.includes('src/greeting.ts'));
    assert.equal(fileHash(join(ws, 'src', 'greeting.ts')), original.greeting, 'forced: the bytes from before the turn');

    // Rewinding again changes nothing.
    const again = await host.checkpoints!.restore(id, checkpoint_id);
    assert.deepEqual(again.conflicts, []);
    assert.equal(again.undo_checkpoint_id, undefined, 'nothing to undo: nothing changed');
    assert.equal(fileHash(join(ws, 'src', 'greeting.ts')), original.greeting);

    // Undo both rewinds, newest first: back to the person's edit, then to after the turn.
    const undoForced = await host.checkpoints!.restore(id, forced.undo_checkpoint_id!);
    assert.deepEqual(undoForced.conflicts, []);
    assert.equal(fileHash(join(ws, 'src', 'greeting.ts')), personal, 'undoing the forced rewind brings the person back');
    const undoFirst = await host.checkpoints!.restore(id, first.undo_checkpoint_id!);
    assert.deepEqual(undoFirst.conflicts, []);
    assert.equal(readFileSync(join(ws, 'src', 'made', 'new.ts'), 'utf8'), 'export const n = 1;\n');
    assert.ok(!existsSync(join(ws, 'del.txt')));
    assert.equal(fileHash(join(ws, 'src', 'greeting.ts')), personal);
    assert.equal(readFileSync(join(ws, 'untouched.txt'), 'utf8'), 'nobody changes me\n');

    assert.deepEqual(userRepoFingerprint(ws), repoBefore, 'HEAD^{tree}, index and refs of the user repository are unchanged');

    // read-before-write: the agent edited src/greeting.ts in its turn, and the rewinds rewrote it;
    // the ledger forgot it, so the next edit reads first (a fresh version) instead of using the old one.
    host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: 'replace `person` with `agent` in src/greeting.ts' }, { session_id: id }));
    await waitFor(() => view.turnEnds() === 2, 'the second turn ends', 30_000);
    const second = view.frames.slice(view.frames.findIndex((f) => f.type === 'session.turn.end') + 1);
    const tools = second.filter((f) => f.type === 'tool.invoke.request').map((f) => ('payload' in f ? (f.payload as { tool_name: string }).tool_name : ''));
    const firstEdit = second.find((f) => f.type === 'tool.invoke.result');
    // Unobserved (not merely stale): the restore made the ledger forget the file entirely.
    assert.equal(firstEdit && 'payload' in firstEdit ? (firstEdit.payload as { error_code?: string }).error_code : undefined, 'FS_NOT_OBSERVED');
    assert.deepEqual(tools, ['Edit', 'Read', 'Edit'], 'refused unread, then a fresh read, then the edit');
    assert.equal(readFileSync(join(ws, 'src', 'greeting.ts'), 'utf8'), 'export const greeting = "Bye, said the agent";\n');
  });

  it('§7.8.2 checkpoints survive a restart: the restored session rewinds a turn from before the restart', async () => {
    h = harness();
    const ws = h.workspace;
    const first = h.makeHost({ defaultAgent: 'builtin' });
    const id = await first.create({ agent: 'builtin' });
    const view = new AllowingView('view', first.hub);
    first.hub.attach(id, view);
    first.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: "run `printf 'made before the restart\\n' > made.txt`" }, { session_id: id }));
    await waitFor(() => view.turnEnds() === 1, 'the turn ends', 30_000);
    const [created] = view.created();
    assert.deepEqual(byPath(created.files), ['created made.txt']);
    await first.dispose();

    const second = h.makeHost({ defaultAgent: 'builtin' });
    assert.deepEqual(await second.restoreAll(), [id]);
    assert.deepEqual(second.checkpoints!.service.list(id).map((c) => c.checkpoint_id), [created.checkpoint_id]);
    const r = await second.checkpoints!.restore(id, created.checkpoint_id);
    assert.deepEqual(r.restored, ['made.txt']);
    assert.ok(!existsSync(join(ws, 'made.txt')));
  });

  it('§17.3.2 a rewind while a turn of the session runs is refused (TURN_IN_PROGRESS) and changes nothing', async () => {
    h = harness();
    const ws = h.workspace;
    const host = h.makeHost({ defaultAgent: 'builtin' });
    const id = await host.create({ agent: 'builtin' });
    const view = new AllowingView('view', host.hub);
    host.hub.attach(id, view);
    host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: 'run `touch one.txt`' }, { session_id: id }));
    await waitFor(() => view.turnEnds() === 1, 'the first turn ends', 30_000);
    const [created] = view.created();
    view.answering = false;
    host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: 'run `touch two.txt`' }, { session_id: id }));
    await waitFor(() => view.asks() === 2, 'the second turn waits for a permission answer', 30_000);
    const refused = await host.checkpoints!.restore(id, created.checkpoint_id);
    assert.equal(refused.error?.code, 'TURN_IN_PROGRESS');
    assert.ok(existsSync(join(ws, 'one.txt')), 'nothing was restored');
    assert.equal(view.restored().at(-1)?.error?.code, 'TURN_IN_PROGRESS', 'every connection is told');
    view.release();
    await waitFor(() => view.turnEnds() === 2, 'the second turn ends', 30_000);
    const r = await host.checkpoints!.restore(id, created.checkpoint_id);
    assert.deepEqual(r.restored, ['one.txt', 'two.txt']);
  });

  it('without a git binary the turns go on: no checkpoint, one error logged, nothing thrown', async () => {
    h = harness();
    const path = process.env.PATH;
    process.env.PATH = join(h.dir, 'no-git-here');
    try {
      const host = h.makeHost({ defaultAgent: 'builtin' });
      const id = await host.create({ agent: 'builtin' });
      const view = new AllowingView('view', host.hub);
      host.hub.attach(id, view);
      for (const n of [1, 2]) {
        host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: 'read src/greeting.ts' }, { session_id: id }));
        await waitFor(() => view.turnEnds() === n, `turn ${n} ends`, 30_000);
      }
      assert.equal(view.created().length, 0);
      assert.equal(h.logs.filter((l) => l.level === 'error' && l.message.startsWith('checkpoints: a snapshot failed')).length, 1, 'said once');
      const end = view.frames.filter((f) => f.type === 'session.turn.end').map((f) => ('payload' in f ? (f.payload as { stop_reason: string }).stop_reason : ''));
      assert.deepEqual(end, ['end_turn', 'end_turn']);
    } finally {
      process.env.PATH = path;
    }
  });
});
