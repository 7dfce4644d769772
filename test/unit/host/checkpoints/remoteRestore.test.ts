// Issue 17 item 5 over a real WebSocket: the editor's host shared by its real server (HostSharing),
// two masters attached. A master's x-rawp.checkpoint.restore is accepted (§3.1.1: a vendor frame of
// ours the hub handles) and answered by x-rawp.checkpoint.restored to every master; a master that
// ignores x- frames keeps working; a malformed or unknown restore gets an error in the answer, never
// a crash; a fresh attach finds the checkpoint frames in its history.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostSharing } from '../../../../src/host/sharing';
import { buildFrame } from '../../../../src/protocol/build';
import { buildCheckpointFrame, checkpointPayloadOf, CHECKPOINT_CREATED_TYPE, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../../../src/protocol/checkpointFrames';
import { generateToken } from '../../../../src/remote/auth';
import { waitFor } from '../../remote/harness';
import { serve, stopAll } from '../../../security/serveProcess';
import { harness, type Harness } from '../harness';
import { WsMaster } from './wsMaster';

describe('checkpoint restore from a real WebSocket master (issue 17 item 5)', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let sharing: HostSharing | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    await sharing?.close();
    sharing = undefined;
    await stopAll();
  });

  it('§3.1.1 a master restores by x-rawp.checkpoint.restore; every master gets x-rawp.checkpoint.restored; bad requests are answered, not fatal', async () => {
    h = harness();
    writeFileSync(join(h.workspace, 'notes.md'), 'first\n');
    const host = h.makeHost({ defaultAgent: 'builtin' });
    const id = await host.create({ agent: 'builtin' });
    const token = generateToken();
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const server = await sharing.share(id);
    const a = await new WsMaster(server.url, token, id).open();
    const b = await new WsMaster(server.url, token, id).open();
    a.allowAsks();
    a.sendRaw(buildFrame('control.prompt.request', { prompt_text: "run `printf 'second\\n' > notes.md && touch made.txt`" }, { session_id: id }));
    await waitFor(() => b.frames.some((f) => f.type === 'session.turn.end'), 'turn end at master b', 30_000);
    const created = b.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, f) ?? []);
    assert.equal(created.length, 1, 'master b saw the checkpoint');
    assert.deepEqual(created[0].files.map((f) => `${f.change} ${f.path}`).sort(), ['created made.txt', 'modified notes.md']);

    const restore = buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: created[0].checkpoint_id }, id);
    a.sendRaw(restore);
    await waitFor(() => a.restored().length === 1 && b.restored().length === 1, 'both masters told');
    assert.deepEqual(b.restored()[0].restored, ['made.txt', 'notes.md']);
    assert.equal(b.frames.find((f) => f.type === CHECKPOINT_RESTORED_TYPE)?.parent_id, restore.message_id, 'the answer points at the request');
    assert.equal(readFileSync(join(h.workspace, 'notes.md'), 'utf8'), 'first\n');
    assert.ok(!existsSync(join(h.workspace, 'made.txt')));
    assert.ok(!b.frames.some((f) => f.message_id === restore.message_id), 'the restore itself is not relayed');

    // The same message_id again is dropped; a malformed and an unknown restore are answered.
    a.sendRaw(restore);
    a.sendRaw({ ...buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: 'x' }, id), payload: { force: 'not a list' } });
    a.sendRaw(buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: 'no-such-checkpoint' }, id));
    await waitFor(() => a.restored().length === 3, 'two error answers');
    assert.deepEqual(a.restored().slice(1).map((r) => r.error?.code), ['INVALID_PAYLOAD', 'CHECKPOINT_NOT_FOUND']);
    assert.ok(a.frames.some((f) => f.type === 'session.error' && f.payload.error_code === 'DUPLICATE_MESSAGE_ID'));

    // Master b ignores vendor frames and goes on as before: its prompt runs.
    b.sendRaw(buildFrame('control.prompt.request', { prompt_text: 'read notes.md' }, { session_id: id }));
    await waitFor(() => b.frames.filter((f) => f.type === 'session.turn.end').length === 2, 'second turn at master b', 30_000);

    // A fresh attach finds both checkpoint frames in its session.history.
    const c = await new WsMaster(server.url, token, id).open();
    const history = c.frames.find((f) => f.type === 'session.history');
    const kept = history?.type === 'session.history' ? history.payload.frames.map((f) => String(f.type)) : [];
    assert.ok(kept.includes(CHECKPOINT_CREATED_TYPE) && kept.includes(CHECKPOINT_RESTORED_TYPE), `history has them: ${kept.join(', ')}`);
    for (const m of [a, b, c]) m.close();
  });

  it('§3.1.1 a real `rawp serve` child process: its turns are checkpointed and a WebSocket master rewinds one', async () => {
    const served = await serve({ files: { 'notes.md': 'first\n' }, isolatedHome: true });
    const ws = served.workspace;
    const m = await new WsMaster(served.url, served.token, served.session_id).open();
    m.allowAsks();
    m.sendRaw(buildFrame('control.prompt.request', { prompt_text: "run `printf 'second\\n' > notes.md && mkdir -p out && touch out/made.txt`" }, { session_id: served.session_id }));
    await waitFor(() => m.frames.some((f) => f.type === 'session.turn.end'), 'turn end', 30_000);
    const created = m.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, f) ?? []);
    assert.deepEqual(created.map((c) => c.files.map((f) => `${f.change} ${f.path}`).sort()), [['created out/made.txt', 'modified notes.md']]);
    m.sendRaw(buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: created[0].checkpoint_id }, served.session_id));
    await waitFor(() => m.restored().length === 1, 'restored');
    assert.deepEqual(m.restored()[0].restored, ['notes.md', 'out/made.txt']);
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'first\n');
    assert.ok(!existsSync(join(ws, 'out')), 'the created file and its folder are gone');
    m.close();
  });
});
