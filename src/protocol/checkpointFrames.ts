// Checkpoint vendor frames (issue 17 item 5, §3.1.1: `x-{vendor}` types; a master that does not
// know them ignores them and is unaffected). One zod schema per frame is its type:
//   x-rawp.checkpoint.created  client -> masters, after a turn that changed files (just before its
//                              session.turn.end): which workspace files the turn changed.
//   x-rawp.checkpoint.restore  a master -> client: rewind to before that checkpoint's turn.
//   x-rawp.checkpoint.restored client -> masters: what was restored, what was left (conflicts).
//   x-rawp.checkpoint.none     client -> masters, at the end of a turn that got no checkpoint
//                              because none could be taken (off, too slow, failed): a rewind
//                              of an earlier turn does not reach what it changed (decision 645).
// Paths are workspace-relative with `/` separators (the first workspace folder).
import { z } from 'zod';
import { ENVELOPE_VERSION } from './envelope';
import { newId, systemClock, type Clock } from './build';
import type { VendorFrame } from './frameTypes';

export const CHECKPOINT_CREATED_TYPE = 'x-rawp.checkpoint.created';
export const CHECKPOINT_RESTORE_TYPE = 'x-rawp.checkpoint.restore';
export const CHECKPOINT_RESTORED_TYPE = 'x-rawp.checkpoint.restored';
export const CHECKPOINT_NONE_TYPE = 'x-rawp.checkpoint.none';
export const CHECKPOINT_DIFF_TYPE = 'x-rawp.checkpoint.diff';
export const CHECKPOINT_DIFF_RESULT_TYPE = 'x-rawp.checkpoint.diff.result';

/** Bounds on what a master may send (every list from outside is data with limits). */
const MAX_PATH = 4096;
const MAX_FORCE = 10_000;

const RelPath = z.string().min(1).max(MAX_PATH);

export const CheckpointChange = z.enum(['created', 'modified', 'deleted', 'renamed']);
export type CheckpointChange = z.infer<typeof CheckpointChange>;

export const CheckpointFile = z.looseObject({
  path: RelPath,
  change: CheckpointChange,
  /** For `renamed`: where the file was before the turn. */
  from: RelPath.optional(),
  /**
   * Changed while another session's turn (or rewind) ran in the same workspace: it may be that
   * session's change, not this turn's (decision 339). A rewind treats it as a conflict.
   */
  concurrent: z.boolean().optional(),
});
export type CheckpointFile = z.infer<typeof CheckpointFile>;

/** A file the checkpoint does not keep, and why (decision 332). */
export const CheckpointSkipped = z.looseObject({
  path: RelPath,
  reason: z.enum(['large', 'binary', 'symlink', 'unreadable']),
  /** More on why, in words (e.g. a file name that is not UTF-8, decision 338). */
  note: z.string().max(500).optional(),
  /**
   * A file not kept before the turn that the turn deleted, or replaced with one it keeps: its old
   * bytes are nowhere, so no rewind brings them back, and the view says so (decision 612).
   */
  change: z.enum(['deleted', 'modified']).optional(),
});
export type CheckpointSkipped = z.infer<typeof CheckpointSkipped>;

export const CheckpointCreatedPayload = z.looseObject({
  checkpoint_id: z.string().min(1).max(200),
  turn_id: z.string().min(1).max(200),
  files: z.array(CheckpointFile),
  /** Files the turn touched that the checkpoint could not keep (restoring cannot bring them back). */
  skipped: z.array(CheckpointSkipped).optional(),
});
export type CheckpointCreatedPayload = z.infer<typeof CheckpointCreatedPayload>;

/**
 * A turn without a checkpoint, not because it changed nothing but because none was taken:
 * `off` (switched off for it, decision 635), `late` (the snapshot before it took too long,
 * decision 626), `failed` (a snapshot failed). What it changed is nobody's to rewind.
 */
export const CheckpointNonePayload = z.looseObject({
  turn_id: z.string().min(1).max(200),
  reason: z.enum(['off', 'late', 'failed']),
});
export type CheckpointNonePayload = z.infer<typeof CheckpointNonePayload>;

export const CheckpointRestorePayload = z.looseObject({
  checkpoint_id: z.string().min(1).max(200),
  /** Files to restore although someone else changed them after the turn (the person confirmed). */
  force: z.array(RelPath).max(MAX_FORCE).optional(),
  /** Only these of the checkpoint's files ("revert this file" in a review); absent: all of them. */
  paths: z.array(RelPath).min(1).max(MAX_FORCE).optional(),
});
export type CheckpointRestorePayload = z.infer<typeof CheckpointRestorePayload>;

export const CheckpointRestoredPayload = z.looseObject({
  checkpoint_id: z.string().min(1).max(200),
  /** Files now as they were before the checkpoint's turn (deleted, when the turns created them). */
  restored: z.array(RelPath),
  /** Of `restored`, those that already were as they were (nothing written): all of them when the rewind changed nothing. */
  unchanged: z.array(RelPath).optional(),
  /** Files someone other than the agent changed after the turn: left untouched until forced. */
  conflicts: z.array(RelPath),
  /** Files that could not be written or deleted (permissions, I/O), with why. */
  failed: z.array(z.looseObject({ path: RelPath, message: z.string() })).optional(),
  /** The checkpoint this rewind recorded first: restoring it undoes the rewind. */
  undo_checkpoint_id: z.string().min(1).max(200).optional(),
  /** Why nothing was restored (unknown checkpoint, a turn running, …); absent on success. */
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});
export type CheckpointRestoredPayload = z.infer<typeof CheckpointRestoredPayload>;

/** A master asks for a checkpoint's unified diffs (before its turn -> the files now); decision 401. */
export const CheckpointDiffPayload = z.looseObject({
  checkpoint_id: z.string().min(1).max(200),
});
export type CheckpointDiffPayload = z.infer<typeof CheckpointDiffPayload>;

export const CheckpointFileDiff = z.looseObject({
  path: RelPath,
  change: CheckpointChange,
  from: RelPath.optional(),
  /** The unified diff (`diff -u` style, a/ b/ headers) of the file before the turn against now. */
  unified_diff: z.string().optional(),
  /** Why there is no diff text: binary or too large a file, or the diff budget was spent. */
  omitted: z.enum(['binary', 'large', 'budget', 'unavailable']).optional(),
});
export type CheckpointFileDiff = z.infer<typeof CheckpointFileDiff>;

/** The answer, to the asking connection only (it is not part of the session's history). */
export const CheckpointDiffResultPayload = z.looseObject({
  checkpoint_id: z.string().min(1).max(200),
  files: z.array(CheckpointFileDiff),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});
export type CheckpointDiffResultPayload = z.infer<typeof CheckpointDiffResultPayload>;

/** The registry of these vendor frames: schema, direction and where they are described. */
export const CHECKPOINT_FRAME_TYPES = {
  [CHECKPOINT_CREATED_TYPE]: { payload: CheckpointCreatedPayload, direction: 'C2M', section: 'docs/remote.md#checkpoints' },
  [CHECKPOINT_RESTORE_TYPE]: { payload: CheckpointRestorePayload, direction: 'M2C', section: 'docs/remote.md#checkpoints' },
  [CHECKPOINT_RESTORED_TYPE]: { payload: CheckpointRestoredPayload, direction: 'C2M', section: 'docs/remote.md#checkpoints' },
  [CHECKPOINT_NONE_TYPE]: { payload: CheckpointNonePayload, direction: 'C2M', section: 'docs/remote.md#checkpoints' },
  [CHECKPOINT_DIFF_TYPE]: { payload: CheckpointDiffPayload, direction: 'M2C', section: 'docs/remote.md#checkpoints' },
  [CHECKPOINT_DIFF_RESULT_TYPE]: { payload: CheckpointDiffResultPayload, direction: 'C2M', section: 'docs/remote.md#checkpoints' },
} as const;

type CheckpointFrameDefs = typeof CHECKPOINT_FRAME_TYPES;
export type CheckpointFrameType = keyof CheckpointFrameDefs;
export type CheckpointPayloadOf<T extends CheckpointFrameType> = z.infer<CheckpointFrameDefs[T]['payload']>;

/** A checkpoint frame for one session (a vendor frame: the hub relays it as such). */
export function buildCheckpointFrame<T extends CheckpointFrameType>(type: T, payload: CheckpointPayloadOf<T>, session_id: string, opts: { parent_id?: string; clock?: Clock } = {}): VendorFrame {
  return {
    v: ENVELOPE_VERSION,
    type,
    message_id: newId(),
    timestamp: (opts.clock ?? systemClock).now().toISOString(),
    session_id,
    ...(opts.parent_id ? { parent_id: opts.parent_id } : {}),
    payload,
  } as VendorFrame;
}

/** The payload of a checkpoint frame of this type, or undefined when it is not one (or malformed). */
export function checkpointPayloadOf<T extends CheckpointFrameType>(type: T, frame: { type: string; payload?: unknown }): CheckpointPayloadOf<T> | undefined {
  if (frame.type !== type) return undefined;
  const parsed = CHECKPOINT_FRAME_TYPES[type].payload.safeParse(frame.payload);
  return parsed.success ? (parsed.data as CheckpointPayloadOf<T>) : undefined;
}
