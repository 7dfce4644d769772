// The editor's older per-session snapshots (sessions/<id>.json) are carried over to the journal
// once, so the first window after the update still restores them (decision 125).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame, newId } from '../../../src/protocol/build';
import { harness, type Harness } from './harness';

describe('host: older session snapshots carried over to the journal', () => {
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.cleanup());

  it('§7.8.2-1 a snapshot becomes a restored session (its interrupted turn closed), is renamed .migrated, and a broken one is reported and left alone', async () => {
    const old = join(h.dir, 'old-sessions');
    mkdirSync(old, { recursive: true });
    const session_id = newId();
    const turn_id = newId();
    const ctx = { session_id, turn_id };
    const frames = [
      buildFrame('session.turn.start', { turn_id, turn_index: 0 }, ctx),
      buildFrame('agent.text.delta', { content_index: 0, text: 'half an answer' }, ctx),
      { not: 'a frame' },
    ];
    writeFileSync(join(old, `${session_id}.json`), JSON.stringify({ version: 1, session_id, name: 'Old work', agent: 'builtin', created_at: '2026-11-30T10:00:00.000Z', frames }));
    writeFileSync(join(old, 'broken.json'), '{ nope');

    const host = h.makeHost({ migrateFrom: old });
    assert.deepEqual(await host.restoreAll(), [session_id]);
    assert.equal(host.list()[0].name, 'Old work');
    assert.equal(host.list()[0].created_at, '2026-11-30T10:00:00.000Z');
    const { restored } = host.replay(session_id)!;
    assert.deepEqual(restored.slice(0, 2).map((f) => f.message_id), frames.slice(0, 2).map((f) => (f as { message_id: string }).message_id), 'its frames, the bad one left out');
    const end = restored.find((f) => f.type === 'session.turn.end');
    assert.ok(end && end.metadata?.synthetic === true, 'the turn it was in is closed (§7.8.2)');
    assert.ok(existsSync(join(old, `${session_id}.json.migrated`)) && !existsSync(join(old, `${session_id}.json`)));
    assert.ok(existsSync(join(old, 'broken.json')), 'a snapshot that cannot be read is left as it is');
    assert.ok(h.logs.some((l) => l.level === 'warn' && l.message.includes('broken.json')));
    await host.dispose();

    const host2 = h.makeHost({ migrateFrom: old });
    assert.deepEqual(await host2.restoreAll(), [session_id], 'carried over once, restored from the journal after');
  });
});
