// Checkpoint vendor frames in the transcript (issue 17, docs/remote.md#checkpoints): the turn's
// footer reads `turn.checkpoint` ("N files changed", rewind results), in VS Code's view and in the
// browser master alike. A vendor frame is shown only when its payload parses (§3.1.1: anything
// else is ignored, as every master may).
import { checkpointPayloadOf, CHECKPOINT_CREATED_TYPE, CHECKPOINT_NONE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../checkpointFrames';
import type { VendorFrame } from '../frameTypes';
import { restoreAfter } from './restoreAction';
import { ensureTurn, touch, type Transcript } from './state';

export function isCheckpointFrameType(type: string): boolean {
  return type === CHECKPOINT_CREATED_TYPE || type === CHECKPOINT_RESTORED_TYPE || type === CHECKPOINT_NONE_TYPE;
}

/** Applies a checkpoint frame; false when it is malformed or names no checkpoint of this transcript. */
export function onCheckpointFrame(t: Transcript, frame: VendorFrame): boolean {
  const created = checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, frame);
  if (created) {
    const turn = t.idx.turns.get(created.turn_id) ?? ensureTurn(t, created.turn_id, frame.timestamp);
    turn.checkpoint = { checkpointId: created.checkpoint_id, files: created.files, skipped: created.skipped ?? [], undoable: turn.checkpoint?.undoable ?? [] };
    t.idx.checkpointTurns.set(created.checkpoint_id, turn);
    touch(t, turn.key);
    return true;
  }
  const none = checkpointPayloadOf(CHECKPOINT_NONE_TYPE, frame);
  if (none) {
    // Only a turn this transcript has: the frame comes at its end, after its start.
    const turn = t.idx.turns.get(none.turn_id);
    if (!turn) return false;
    turn.unrecorded = none.reason;
    touch(t, turn.key);
    return true;
  }
  const restored = checkpointPayloadOf(CHECKPOINT_RESTORED_TYPE, frame);
  if (!restored) return false;
  const turn = t.idx.checkpointTurns.get(restored.checkpoint_id);
  if (!turn?.checkpoint) return false;
  const undo = restored.checkpoint_id !== turn.checkpoint.checkpointId;
  const before = turn.checkpoint.undoable;
  const undoable = before.filter((id) => id !== restored.checkpoint_id);
  if (!undo && restored.undo_checkpoint_id) undoable.push(restored.undo_checkpoint_id);
  turn.checkpoint.undoable = undoable;
  // The answers of one rewind (with its "Apply choices") or one undo make one message (decision 673).
  turn.checkpoint.restore = restoreAfter(turn.checkpoint.restore, restored, undo, before);
  // The rewind's own checkpoint undoes it; its answer belongs to this turn's footer too.
  if (restored.undo_checkpoint_id) t.idx.checkpointTurns.set(restored.undo_checkpoint_id, turn);
  touch(t, turn.key);
  return true;
}
