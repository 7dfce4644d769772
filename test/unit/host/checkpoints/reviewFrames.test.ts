// Issue 17 items 2–3 for masters without a diff editor (decision 401), over a real WebSocket: a
// master asks x-rawp.checkpoint.diff and only it gets x-rawp.checkpoint.diff.result — each file
// before the turn against now as a unified diff; "revert this file" is x-rawp.checkpoint.restore
// with `paths`, which restores that file alone.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { HostSharing } from '../../../../src/host/sharing';
import { buildFrame } from '../../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../../src/protocol/capabilities';
import { buildCheckpointFrame, checkpointPayloadOf, CHECKPOINT_CREATED_TYPE, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_DIFF_TYPE, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../../../src/protocol/checkpointFrames';
import type { WireFrame } from '../../../../src/protocol/frameTypes';
import { parseFrame } from '../../../../src/protocol/parse';
import { generateToken } from '../../../../src/remote/auth';
import { waitFor } from '../../remote/harness';
import { harness, type Harness } from '../harness';

async function master(url: string, token: string, session_id: string) {
  const frames: WireFrame[] = [];
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sessions/${session_id}/stream`, ['rawp-dps-1.0', `bearer.${token}`]);
  ws.on('message', (d) => {
    const o = parseFrame(d.toString());
    if (o.kind !== 'accepted') return;
    frames.push(o.frame);
    if (o.frame.type === 'agent.interaction.request') ws.send(JSON.stringify(buildFrame('control.interaction.response', { interaction_id: o.frame.payload.interaction_id, selected_value: 'allow_once' }, { session_id })));
  });
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
  });
  const send = (f: unknown) => ws.send(JSON.stringify(f));
  send(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id }));
  await waitFor(() => frames.some((f) => f.type === 'agent.state.changed'), 'attached');
  return { frames, send, close: () => ws.close() };
}

describe('checkpoint review frames from a real WebSocket master (issue 17, decision 401)', function () {
  this.timeout(60_000);
  let h: Harness;
  let sharing: HostSharing | undefined;
  afterEach(async () => {
    await h.cleanup();
    await sharing?.close();
  });

  it('§3.1.1 x-rawp.checkpoint.diff is answered to its asker only with unified diffs; a restore with paths reverts that file alone', async () => {
    h = harness();
    writeFileSync(join(h.workspace, 'notes.md'), 'first\nkeep\n');
    const host = h.makeHost({ defaultAgent: 'builtin' });
    const id = await host.create({ agent: 'builtin' });
    const token = generateToken();
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const server = await sharing.share(id);
    const a = await master(server.url, token, id);
    const b = await master(server.url, token, id);
    a.send(buildFrame('control.prompt.request', { prompt_text: "run `printf 'second\\nkeep\\n' > notes.md && printf 'new\\n' > made.txt`" }, { session_id: id }));
    await waitFor(() => b.frames.some((f) => f.type === 'session.turn.end'), 'turn end', 30_000);
    const created = a.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, f) ?? [])[0];
    assert.ok(created, 'a checkpoint was created');

    const ask = buildCheckpointFrame(CHECKPOINT_DIFF_TYPE, { checkpoint_id: created.checkpoint_id }, id);
    a.send(ask);
    await waitFor(() => a.frames.some((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE), 'diff answer');
    const answer = a.frames.find((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE)!;
    assert.equal(answer.parent_id, ask.message_id);
    const diff = checkpointPayloadOf(CHECKPOINT_DIFF_RESULT_TYPE, answer)!;
    const byPath = new Map(diff.files.map((f) => [f.path, f]));
    assert.deepEqual([...byPath.keys()].sort(), ['made.txt', 'notes.md']);
    assert.match(byPath.get('notes.md')!.unified_diff!, /^-first$/m);
    assert.match(byPath.get('notes.md')!.unified_diff!, /^\+second$/m);
    assert.doesNotMatch(byPath.get('notes.md')!.unified_diff!, /^[-+]keep$/m, 'an unchanged line is context, not a change');
    assert.match(byPath.get('made.txt')!.unified_diff!, /--- \/dev\/null/);
    assert.match(byPath.get('made.txt')!.unified_diff!, /^\+new$/m);

    // An unknown checkpoint is answered with an error, not a crash.
    a.send(buildCheckpointFrame(CHECKPOINT_DIFF_TYPE, { checkpoint_id: 'no-such' }, id));
    await waitFor(() => a.frames.filter((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE).length === 2, 'second diff answer');
    assert.equal(checkpointPayloadOf(CHECKPOINT_DIFF_RESULT_TYPE, a.frames.filter((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE)[1])?.error?.code, 'CHECKPOINT_NOT_FOUND');

    // "Revert file": only made.txt goes; notes.md keeps the turn's text.
    a.send(buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: created.checkpoint_id, paths: ['made.txt'] }, id));
    await waitFor(() => b.frames.some((f) => f.type === CHECKPOINT_RESTORED_TYPE), 'restored at b');
    assert.deepEqual(checkpointPayloadOf(CHECKPOINT_RESTORED_TYPE, b.frames.find((f) => f.type === CHECKPOINT_RESTORED_TYPE)!)?.restored, ['made.txt']);
    assert.ok(!existsSync(join(h.workspace, 'made.txt')));
    assert.equal(readFileSync(join(h.workspace, 'notes.md'), 'utf8'), 'second\nkeep\n');
    assert.ok(!b.frames.some((f) => f.type === CHECKPOINT_DIFF_RESULT_TYPE), 'the diff answers went to the asker only');
    a.close();
    b.close();
  });
});
