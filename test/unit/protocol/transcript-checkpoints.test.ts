// Issue 17 items 2–3: the checkpoint vendor frames (docs/remote.md#checkpoints, §3.1.1 x- frames)
// reduced into the turn they belong to, so every view (VS Code's, the browser master) shows the
// turn's "N files changed" footer and the result of a rewind.
import { strict as assert } from 'node:assert';
import { buildCheckpointFrame, CHECKPOINT_CREATED_TYPE, CHECKPOINT_NONE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../../src/protocol/checkpointFrames';
import { applyFrame, createTranscript } from '../../../src/protocol/transcript';
import { streamBuilder, TEST_SESSION } from '../../fixtures/frames/streamBuilder';

const T0 = 'turn-0';

function turnWithCheckpoint() {
  const b = streamBuilder();
  const t = createTranscript({ sessionId: TEST_SESSION });
  applyFrame(t, b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }));
  const created = buildCheckpointFrame(
    CHECKPOINT_CREATED_TYPE,
    { checkpoint_id: 'cp-1', turn_id: T0, files: [{ path: 'a.txt', change: 'modified' }, { path: 'b.txt', change: 'modified' }, { path: 'new.txt', change: 'created' }], skipped: [{ path: 'big.bin', reason: 'large' }] },
    TEST_SESSION,
  );
  assert.equal(applyFrame(t, created), true);
  applyFrame(t, b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn', tool_invocation_count: 2 }, { turn_id: T0 }));
  return { t, turn: t.turns[0]!, created };
}

describe('transcript reducer: checkpoints (issue 17, docs/remote.md#checkpoints)', () => {
  it('§3.1.1 x-rawp.checkpoint.created puts the changed files on its turn; a repeat changes nothing', () => {
    const { t, turn, created } = turnWithCheckpoint();
    assert.equal(t.turns.length, 1);
    assert.equal(turn.checkpoint?.checkpointId, 'cp-1');
    assert.deepEqual(turn.checkpoint?.files.map((f) => `${f.change}:${f.path}`), ['modified:a.txt', 'modified:b.txt', 'created:new.txt']);
    assert.deepEqual(turn.checkpoint?.skipped, [{ path: 'big.bin', reason: 'large' }]);
    const rev = turn.rev;
    assert.equal(applyFrame(t, created), false, '§2.1 the same message_id is applied once');
    assert.equal(turn.rev, rev);
  });

  it('§3.1.1 x-rawp.checkpoint.restored with conflicts, then forced, then undone: the turn footer follows each answer', () => {
    const { t, turn } = turnWithCheckpoint();
    const rev = turn.rev;
    applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-1', restored: ['b.txt', 'new.txt'], conflicts: ['a.txt'], undo_checkpoint_id: 'cp-undo-1' }, TEST_SESSION));
    assert.ok(turn.rev > rev, 'the turn re-renders');
    assert.deepEqual(turn.checkpoint?.restore, { checkpointId: 'cp-1', undo: false, restored: ['b.txt', 'new.txt'], unchanged: [], conflicts: ['a.txt'], failed: [], undoCheckpointId: 'cp-undo-1' });
    assert.deepEqual(turn.checkpoint?.undoable, ['cp-undo-1']);
    applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-1', restored: ['a.txt', 'b.txt', 'new.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-2' }, TEST_SESSION));
    assert.deepEqual(turn.checkpoint?.restore?.conflicts, []);
    assert.equal(turn.checkpoint?.restore?.undoCheckpointId, 'cp-undo-2');
    assert.deepEqual(turn.checkpoint?.undoable, ['cp-undo-1', 'cp-undo-2'], 'a forced follow-up keeps the first rewind undoable (decision 612)');
    // A rewind that found nothing to do (another tab did it first) answers without an undo: both stay.
    applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-1', restored: ['a.txt', 'b.txt', 'new.txt'], unchanged: ['a.txt', 'b.txt', 'new.txt'], conflicts: [] }, TEST_SESSION));
    assert.deepEqual(turn.checkpoint?.undoable, ['cp-undo-1', 'cp-undo-2']);
    assert.deepEqual(turn.checkpoint?.restore?.unchanged, ['a.txt', 'b.txt', 'new.txt']);
    // Undo: the restore of the rewind's own checkpoint is shown on the same turn.
    applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-undo-2', restored: ['a.txt', 'b.txt', 'new.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-3' }, TEST_SESSION));
    assert.equal(turn.checkpoint?.restore?.undo, true);
    assert.deepEqual(turn.checkpoint?.undoable, ['cp-undo-1'], 'the undone one leaves the list');
    assert.equal(turn.checkpoint?.checkpointId, 'cp-1', 'the turn keeps its own checkpoint');
  });

  it('decision 673 a rewind and its "Apply choices" are one message, and so is one "Undo rewind" of both: every file each restored is counted', () => {
    const { t, turn } = turnWithCheckpoint();
    const restored = (payload: Parameters<typeof buildCheckpointFrame<typeof CHECKPOINT_RESTORED_TYPE>>[1]) => applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, payload, TEST_SESSION));
    // The trial: new.txt rewound, a.txt and b.txt held back; a.txt overwritten, b.txt kept.
    restored({ checkpoint_id: 'cp-1', restored: ['new.txt'], conflicts: ['a.txt', 'b.txt'], undo_checkpoint_id: 'cp-undo-1' });
    restored({ checkpoint_id: 'cp-1', restored: ['a.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-2' });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['new.txt', 'a.txt']);
    assert.deepEqual(turn.checkpoint?.restore?.conflicts, [], 'the kept file waits for nobody');
    assert.equal(turn.checkpoint?.restore?.undo, false);
    assert.equal(turn.checkpoint?.restore?.undoCheckpointId, 'cp-undo-2');
    // One "Undo rewind": both undo checkpoints, newest first, answered one by one.
    restored({ checkpoint_id: 'cp-undo-2', restored: ['a.txt'], conflicts: [] });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['a.txt']);
    assert.deepEqual(turn.checkpoint?.restore?.undoPending, ['cp-undo-1']);
    restored({ checkpoint_id: 'cp-undo-1', restored: ['new.txt'], conflicts: [] });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['a.txt', 'new.txt']);
    assert.equal(turn.checkpoint?.restore?.undo, true);
    assert.deepEqual(turn.checkpoint?.undoable, []);
    // The next rewind is a new action: its message starts from nothing.
    restored({ checkpoint_id: 'cp-1', restored: ['a.txt', 'new.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-3' });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['a.txt', 'new.txt']);
    assert.equal(turn.checkpoint?.restore?.undo, false);
    // "Revert file" after a rewind that held nothing back is its own action too.
    restored({ checkpoint_id: 'cp-1', restored: ['b.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-4' });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['b.txt']);
  });

  it('decision 673 an overwrite that fails is part of the rewind\'s message; an error answer is a message of its own', () => {
    const { t, turn } = turnWithCheckpoint();
    const restored = (payload: Parameters<typeof buildCheckpointFrame<typeof CHECKPOINT_RESTORED_TYPE>>[1]) => applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, payload, TEST_SESSION));
    restored({ checkpoint_id: 'cp-1', restored: ['new.txt'], conflicts: ['a.txt'], undo_checkpoint_id: 'cp-undo-1' });
    restored({ checkpoint_id: 'cp-1', restored: [], conflicts: [], failed: [{ path: 'a.txt', message: 'EACCES' }] });
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['new.txt'], 'a failed overwrite is part of the rewind');
    assert.deepEqual(turn.checkpoint?.restore?.failed, [{ path: 'a.txt', message: 'EACCES' }]);
    restored({ checkpoint_id: 'cp-1', restored: [], conflicts: [], error: { code: 'TURN_IN_PROGRESS', message: 'a turn is running' } });
    assert.deepEqual(turn.checkpoint?.restore?.restored, []);
    assert.equal(turn.checkpoint?.restore?.error?.code, 'TURN_IN_PROGRESS');
  });

  it('§3.1.1 an error answer is kept with its code; malformed or unknown checkpoint frames are ignored', () => {
    const { t, turn } = turnWithCheckpoint();
    applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-1', restored: [], conflicts: [], error: { code: 'TURN_IN_PROGRESS', message: 'a turn is running' } }, TEST_SESSION));
    assert.equal(turn.checkpoint?.restore?.error?.code, 'TURN_IN_PROGRESS');
    const before = t.version;
    assert.equal(applyFrame(t, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-unknown', restored: ['x'], conflicts: [] }, TEST_SESSION)), false);
    const bad = { ...buildCheckpointFrame(CHECKPOINT_CREATED_TYPE, { checkpoint_id: 'cp-2', turn_id: T0, files: [] }, TEST_SESSION), payload: { checkpoint_id: 'cp-2', files: 'nope' } };
    assert.equal(applyFrame(t, bad), false);
    assert.equal(t.version, before);
    assert.equal(turn.checkpoint?.checkpointId, 'cp-1');
  });

  it('§3.1.1 x-rawp.checkpoint.none marks its turn unrecorded, with why (decision 645); one naming no turn here, or a reason not known, is ignored', () => {
    const { t } = turnWithCheckpoint();
    const b = streamBuilder();
    applyFrame(t, b.make('session.turn.start', { turn_id: 'turn-1', turn_index: 1 }, { turn_id: 'turn-1' }));
    assert.equal(applyFrame(t, buildCheckpointFrame(CHECKPOINT_NONE_TYPE, { turn_id: 'turn-1', reason: 'late' }, TEST_SESSION)), true);
    assert.equal(t.turns[1]?.unrecorded, 'late');
    assert.equal(t.turns[0]?.unrecorded, undefined);
    const before = t.version;
    assert.equal(applyFrame(t, buildCheckpointFrame(CHECKPOINT_NONE_TYPE, { turn_id: 'turn-unknown', reason: 'off' }, TEST_SESSION)), false);
    const odd = { ...buildCheckpointFrame(CHECKPOINT_NONE_TYPE, { turn_id: 'turn-1', reason: 'off' }, TEST_SESSION), payload: { turn_id: 'turn-1', reason: 'bored' } };
    assert.equal(applyFrame(t, odd), false);
    assert.equal(t.version, before);
    assert.equal(t.turns.length, 2, 'no turn made up for an unknown id');
  });

  it('§7.1.1 a session.history replays the checkpoint frames with the rest: a reloaded or reattached view keeps each turn\'s footer, its rewind and its undo (decision 612)', () => {
    const live = turnWithCheckpoint();
    const restored = buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: 'cp-1', restored: ['new.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-1' }, TEST_SESSION);
    applyFrame(live.t, restored);
    const b = streamBuilder();
    const frames = [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, { turn_id: T0 }),
      live.created,
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn', tool_invocation_count: 2 }, { turn_id: T0 }),
      restored,
      // One clock, as the host's: the history is replayed in timestamp order (§2.3).
    ].map((f, i) => ({ ...(JSON.parse(JSON.stringify(f)) as Record<string, unknown>), timestamp: new Date(Date.UTC(2026, 11, 5, 12, 0, 0, i)).toISOString() }));
    const t = createTranscript({ sessionId: TEST_SESSION });
    const history = b.make('session.history', { frames, buffer_status: { policy_applied: 'RING', truncated: false }, last_sync_timestamp: new Date().toISOString(), last_message_id: String((frames.at(-1) as Record<string, unknown>).message_id) });
    assert.equal(applyFrame(t, history), true);
    const turn = t.turns[0]!;
    assert.equal(turn.checkpoint?.checkpointId, 'cp-1');
    assert.deepEqual(turn.checkpoint?.undoable, ['cp-undo-1']);
    assert.deepEqual(turn.checkpoint?.restore?.restored, ['new.txt']);
  });
});
