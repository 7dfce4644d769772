// One person's rewind is one message (decision 673). A rewind that held files back is finished by
// a second restore forcing the ones the person chose to overwrite ("Apply choices"), and "Undo
// rewind" restores every undo checkpoint of the turn, newest first: the host answers each restore
// with its own `x-rawp.checkpoint.restored`, and the footer showed only the latest answer —
// "Rewound 1 file. fourth.txt" after both files had gone back. The answers that finish one action
// are summed into the turn's one `restore`, from the frames alone, so every master shows the same.
import type { CheckpointRestoredPayload } from '../checkpointFrames';
import type { CheckpointRestoreView } from './types';

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/**
 * Does `next` finish the action `previous` began? A rewind's follow-up touches only files the rewind
 * held back (the forced ones, or a kept file asked again); an undo answer is for an undo checkpoint
 * the same "Undo rewind" sent (still `undoPending` of the undo before it).
 */
function continues(previous: CheckpointRestoreView | undefined, next: CheckpointRestoredPayload, undo: boolean): previous is CheckpointRestoreView {
  if (!previous || previous.error || next.error || previous.undo !== undo) return false;
  if (undo) return previous.undoPending?.includes(next.checkpoint_id) === true;
  if (previous.checkpointId !== next.checkpoint_id || previous.conflicts.length === 0) return false;
  const held = new Set(previous.conflicts);
  return [...next.restored, ...next.conflicts, ...(next.failed ?? []).map((f) => f.path)].every((p) => held.has(p));
}

/**
 * The turn's restore view after `next`. `undoable`: the undo checkpoints not yet undone before this
 * answer (an undo answer's own id among them), what one "Undo rewind" sends.
 */
export function restoreAfter(previous: CheckpointRestoreView | undefined, next: CheckpointRestoredPayload, undo: boolean, undoable: readonly string[]): CheckpointRestoreView {
  const failed = next.failed ?? [];
  const own: CheckpointRestoreView = {
    checkpointId: next.checkpoint_id,
    undo,
    restored: next.restored,
    unchanged: next.unchanged ?? [],
    conflicts: next.conflicts,
    failed,
    ...(next.undo_checkpoint_id ? { undoCheckpointId: next.undo_checkpoint_id } : {}),
    ...(next.error ? { error: next.error } : {}),
    ...(undo ? { undoPending: undoable.filter((id) => id !== next.checkpoint_id) } : {}),
  };
  if (!continues(previous, next, undo)) return own;
  const restored = union(previous.restored, next.restored);
  // A file written now was not "already as it was". What a follow-up still holds back is the latest
  // word (the files the person chose to keep were not asked again, and wait for nobody now).
  const written = new Set(next.restored.filter((p) => !(next.unchanged ?? []).includes(p)));
  return {
    ...own,
    restored,
    unchanged: union(previous.unchanged, next.unchanged ?? []).filter((p) => !written.has(p)),
    conflicts: undo ? union(previous.conflicts, next.conflicts) : next.conflicts,
    failed: [...previous.failed.filter((f) => !next.restored.includes(f.path)), ...failed],
    ...(undo ? { undoPending: (previous.undoPending ?? []).filter((id) => id !== next.checkpoint_id) } : {}),
  };
}
