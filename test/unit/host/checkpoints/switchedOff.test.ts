// Checkpoints switched off (decision 635): the editor's setting `rawp.checkpoints.enabled`, read at
// each turn's start, and `rawp serve --no-checkpoints`. Off, a turn takes no snapshot and gets no
// checkpoint; switched back on, the next turn's checkpoint lists only that turn's files.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../../src/protocol/build';
import { buildCheckpointFrame, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_DIFF_TYPE, CHECKPOINT_NONE_TYPE, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../../../src/protocol/checkpointFrames';
import { waitFor } from '../../remote/harness';
import { harness, type Harness } from '../harness';
import type { HostCheckpointOptions } from '../../../../src/host/checkpoints/hostCheckpoints';
import { AllowingView, byPath } from './support';
import { CLI, serve, stopAll } from '../../../security/serveProcess';
import { WsMaster } from './wsMaster';

/** A host with these checkpoint options, a session of the built-in agent, and a view that allows its asks. */
async function builtinSession(t: Harness, checkpoints: HostCheckpointOptions) {
  const host = t.makeHost({ defaultAgent: 'builtin', checkpoints });
  const id = await host.create({ agent: 'builtin' });
  const view = new AllowingView('view', host.hub);
  host.hub.attach(id, view);
  /** One turn that writes `file`, waited for; the count of turns ended before it is `before`. */
  const writes = async (file: string, before = 0): Promise<void> => {
    host.hub.receive('view', buildFrame('control.prompt.request', { prompt_text: `run \`printf 'x\\n' > ${file}\`` }, { session_id: id }));
    await waitFor(() => view.turnEnds() === before + 1, `the turn writing ${file} ends`, 30_000);
    assert.ok(existsSync(join(t.workspace, file)), 'the turn ran');
  };
  /** The x-rawp.checkpoint.none payloads in the session's history, and the first turn's id. */
  const none = () => host.log(id)!.all().filter((f) => f.type === CHECKPOINT_NONE_TYPE).map((f) => f.payload);
  const firstTurn = () => (host.log(id)!.all().find((f) => f.type === 'session.turn.start')!.payload as { turn_id: string }).turn_id;
  return { host, id, view, writes, none, firstTurn };
}

describe('checkpoints switched off (decision 635)', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await stopAll();
    await h?.cleanup();
    h = undefined;
  });

  it('issue 17: with the switch off a turn that writes gets no checkpoint; switched on, the next turn\'s checkpoint has only its own file', async () => {
    const t = (h = harness());
    let on = false;
    const { host, id, view, writes, none, firstTurn } = await builtinSession(t, { enabled: () => on });
    await writes('one.txt');
    assert.deepEqual(view.created(), [], 'no checkpoint while off');
    assert.deepEqual(host.checkpoints!.service.list(id), []);
    // Decision 645: the turn says it got none, and why, before its end (a rewind of an earlier turn does not reach it).
    assert.deepEqual(none(), [{ turn_id: firstTurn(), reason: 'off' }]);
    const types = host.log(id)!.all().map((f) => f.type);
    assert.ok(types.indexOf(CHECKPOINT_NONE_TYPE) < types.indexOf('session.turn.end'), 'said before the turn ends');

    on = true;
    await writes('two.txt', 1);
    const created = view.created();
    assert.equal(created.length, 1, 'a checkpoint once switched on');
    assert.deepEqual(byPath(created[0].files), ['created two.txt'], 'only the second turn\'s file: one.txt was there before it');
    assert.equal(none().length, 1, 'a recorded turn says nothing of the kind');
  });

  it('decision 645: a turn whose snapshot came too late says so (x-rawp.checkpoint.none "late") and gets no checkpoint — never a wrong one', async () => {
    const t = (h = harness());
    // No wait at all: the snapshot (real git, in the shadow repository) cannot be done in 0 ms.
    const { view, writes, none, firstTurn } = await builtinSession(t, { beforeTurnWaitMs: 0 });
    await writes('late.txt');
    assert.deepEqual(view.created(), [], 'no checkpoint');
    assert.deepEqual(none(), [{ turn_id: firstTurn(), reason: 'late' }]);
  });

  it('decision 645: a turn whose snapshot failed (the checkpoints folder cannot be made) says so — x-rawp.checkpoint.none "failed" — and the turn itself goes on', async () => {
    const t = (h = harness());
    // A folder under a file: git cannot make its shadow repository there.
    const blocker = join(t.workspace, '..', 'not-a-folder');
    writeFileSync(blocker, 'x');
    const { writes, none, firstTurn } = await builtinSession(t, { dir: join(blocker, 'checkpoints') });
    await writes('f.txt');
    assert.deepEqual(none(), [{ turn_id: firstTurn(), reason: 'failed' }]);
  });

  it('rawp serve --no-checkpoints: a turn that writes gets no checkpoint frame and no shadow repository is made in the state folder; a master\'s restore and diff are answered CHECKPOINTS_OFF; --help names the flag', async () => {
    const served = await serve({ isolatedHome: true, args: ['--no-checkpoints'] });
    const m = await new WsMaster(served.url, served.token, served.session_id).open();
    m.allowAsks();
    m.sendRaw(buildFrame('control.prompt.request', { prompt_text: "run `printf 'x\\n' > made.txt`" }, { session_id: served.session_id }));
    await waitFor(() => m.turnEnds() === 1, 'the turn ends', 30_000);
    assert.ok(existsSync(join(served.workspace, 'made.txt')), 'the turn ran');
    assert.deepEqual(m.frames.filter((f) => f.type.startsWith('x-rawp.checkpoint')).map((f) => f.type), [], 'no checkpoint frame at all: with checkpoints off for the whole host, no turn is one a rewind could reach');
    const everything = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name, ...everything(join(d, e.name)).map((n) => `${e.name}/${n}`)] : [e.name]));
    const inState = everything(served.dir).filter((p) => p !== 'ws' && !p.startsWith('ws/'));
    assert.ok(inState.some((p) => p.endsWith('.jsonl') || p.includes('sessions')), `the state folder is used (the journal): ${inState.join(', ')}`);
    assert.ok(!inState.some((p) => /(^|\/)checkpoints(\/|$)/.test(p)), `no checkpoints folder: ${inState.join(', ')}`);
    // A master that asks to rewind or review anyway gets an answer, not silence (it waited for ever).
    const restore = buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: 'cp-1' }, served.session_id);
    m.sendRaw(restore);
    m.sendRaw(buildCheckpointFrame(CHECKPOINT_DIFF_TYPE, { checkpoint_id: 'cp-1' }, served.session_id));
    await waitFor(() => m.frames.some((f) => f.type === CHECKPOINT_RESTORED_TYPE) && m.frames.some((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE), 'both answers');
    const restored = m.frames.find((f) => f.type === CHECKPOINT_RESTORED_TYPE)!;
    assert.equal(restored.parent_id, restore.message_id);
    assert.deepEqual((restored.payload as { error?: { code: string } }).error?.code, 'CHECKPOINTS_OFF');
    assert.deepEqual((m.frames.find((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE)!.payload as { error?: { code: string } }).error?.code, 'CHECKPOINTS_OFF');
    m.close();
    assert.match(execFileSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' }), /--no-checkpoints/);
  });
});
