// A host without checkpoints (`rawp serve --no-checkpoints`, or no state folder) still answers a
// master's `x-rawp.checkpoint.restore` and `x-rawp.checkpoint.diff`: a master waiting for
// `…restored` waited for ever (the review of 2026-12-05). The answer goes to the asking connection
// only — nothing changed, so nothing enters the history — with the error CHECKPOINTS_OFF.
import { buildCheckpointFrame, CheckpointRestorePayload, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_DIFF_TYPE, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../protocol/checkpointFrames';
import type { VendorFrame } from '../../protocol/frameTypes';
import type { Hub } from '../../session/hub';
import type { SessionRegistry } from '../../session/registry';

const OFF = { code: 'CHECKPOINTS_OFF', message: 'this host keeps no checkpoints (started with --no-checkpoints, or without a state folder)' };

/** The id a request named, when it is one (echoed back, as sessionCheckpoints.ts does), else "invalid". */
function idOf(frame: VendorFrame): string {
  const id = CheckpointRestorePayload.shape.checkpoint_id.safeParse((frame.payload as { checkpoint_id?: unknown } | undefined)?.checkpoint_id);
  return id.success ? id.data : 'invalid';
}

export function refuseCheckpointFrames(hub: Hub, registry: SessionRegistry): { dispose(): void } {
  const answer = (type: typeof CHECKPOINT_RESTORED_TYPE | typeof CHECKPOINT_DIFF_RESULT_TYPE, frame: VendorFrame, connection_id: string) => {
    const clock = registry.get(frame.session_id)?.clock;
    const payload = type === CHECKPOINT_RESTORED_TYPE ? { checkpoint_id: idOf(frame), restored: [], conflicts: [], error: OFF } : { checkpoint_id: idOf(frame), files: [], error: OFF };
    hub.sendTo(connection_id, buildCheckpointFrame(type, payload as never, frame.session_id, { ...(clock ? { clock } : {}), parent_id: frame.message_id }));
  };
  const subs = [
    hub.onVendorFrame(CHECKPOINT_RESTORE_TYPE, (frame, from) => answer(CHECKPOINT_RESTORED_TYPE, frame, from.connection_id)),
    hub.onVendorFrame(CHECKPOINT_DIFF_TYPE, (frame, from) => answer(CHECKPOINT_DIFF_RESULT_TYPE, frame, from.connection_id)),
  ];
  return { dispose: () => subs.forEach((s) => s.dispose()) };
}
