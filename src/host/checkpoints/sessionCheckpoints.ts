// The host's side of checkpoints (issue 17): a turn hook for every session, whatever its agent
// (the engine awaits it: the snapshot is taken before the agent sees the prompt), the
// `x-rawp.checkpoint.created` frame after a turn that changed files, and `x-rawp.checkpoint.restore`
// accepted from any connection of the session — a remote master or a view of ours — answered by
// `x-rawp.checkpoint.restored` to every connection (docs/remote.md#checkpoints).
//
// The review UI (the chat footer, vscode.changes, the browser master) uses:
//   host.checkpoints.service.list(session_id) / get(id) / textAt(id, path, 'before' | 'after')
//   host.checkpoints.restore(session_id, checkpoint_id, { force?, paths? })  -> RestoreResult,
//     also published as x-rawp.checkpoint.restored; `paths: [p]` reverts one file.
//   or, from a webview or master connection, send the x-rawp.checkpoint.restore frame.
import { buildCheckpointFrame, checkpointPayloadOf, CheckpointRestorePayload, CHECKPOINT_CREATED_TYPE, CHECKPOINT_NONE_TYPE, type CheckpointNonePayload, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_DIFF_TYPE, CHECKPOINT_RESTORE_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../protocol/checkpointFrames';
import { checkpointDiff } from './checkpointDiff';
import type { VendorFrame } from '../../protocol/frameTypes';
import type { Hub } from '../../session/hub';
import type { Logger } from '../../session/ports';
import type { SessionRegistry } from '../../session/registry';
import type { TurnHooks } from '../../session/turnHooks';
import type { CheckpointService, RestoreResult } from './checkpointService';

export class SessionCheckpoints {
  private readonly subscription: { dispose(): void };
  private reported = false;
  private readonly diffSubscription: { dispose(): void };

  constructor(
    readonly service: CheckpointService,
    private readonly hub: Hub,
    private readonly registry: SessionRegistry,
    private readonly logger: Logger,
    /** Checkpoints on for the next turn? (The editor's setting, read live; decision 635.) */
    private readonly enabled: () => boolean = () => true,
  ) {
    this.subscription = hub.onVendorFrame(CHECKPOINT_RESTORE_TYPE, (frame) => this.onRestoreFrame(frame));
    this.diffSubscription = hub.onVendorFrame(CHECKPOINT_DIFF_TYPE, (frame, from) => void this.onDiffFrame(frame, from.connection_id));
  }

  /** The engine's turn hooks for one session (asking for them warms the shadow repository up). */
  hooks(): TurnHooks {
    // Switched off: not even the warm-up, which hashes the whole workspace (a huge repository is
    // why people turn checkpoints off).
    if (this.enabled()) void this.service.warm();
    /** Turns that took their snapshot: only they get a checkpoint at their end. */
    const snapshotted = new Set<string>();
    /** Turns that got none, and why: said at their end (x-rawp.checkpoint.none, decision 645). */
    const none = new Map<string, CheckpointNonePayload['reason']>();
    const sayNone = (t: { session_id: string; turn_id: string }, reason: CheckpointNonePayload['reason']) =>
      this.publish(t.session_id, buildCheckpointFrame(CHECKPOINT_NONE_TYPE, { turn_id: t.turn_id, reason }, t.session_id, this.clockOf(t.session_id)));
    return {
      before: async (t) => {
        if (!this.enabled()) return void none.set(t.turn_id, 'off');
        snapshotted.add(t.turn_id);
        const taken = await this.service.beforeTurn(t.session_id, t.turn_id).catch((e: unknown) => this.failed(e));
        if (taken === 'late') this.logger.warn('checkpoints: the snapshot before this turn took too long (a large workspace?); the turn goes on without a checkpoint, and the snapshot goes on in the background for the next turns');
        if (taken !== 'taken') none.set(t.turn_id, taken ?? 'failed');
      },
      after: async (t) => {
        const why = none.get(t.turn_id);
        none.delete(t.turn_id);
        if (!snapshotted.delete(t.turn_id)) return why && sayNone(t, why);
        const rec = await this.service.afterTurn(t.session_id, t.turn_id).catch((e: unknown) => this.failed(e) ?? null);
        if (why !== undefined || rec === null) return sayNone(t, why ?? 'failed');
        if (!rec) return;
        this.publish(t.session_id, buildCheckpointFrame(CHECKPOINT_CREATED_TYPE, { checkpoint_id: rec.checkpoint_id, turn_id: t.turn_id, files: rec.files, ...(rec.skipped.length > 0 ? { skipped: rec.skipped } : {}) }, t.session_id, this.clockOf(t.session_id)));
      },
    };
  }

  /**
   * A restored session: the turns the previous process was killed in get their checkpoints now,
   * announced like any other (decision 617). Never throws.
   */
  async recoverInterrupted(session_id: string): Promise<void> {
    const recs = (await this.service.recoverInterrupted(session_id).catch((e: unknown) => this.failed(e))) ?? [];
    for (const rec of recs) {
      this.publish(session_id, buildCheckpointFrame(CHECKPOINT_CREATED_TYPE, { checkpoint_id: rec.checkpoint_id, turn_id: rec.turn_id!, files: rec.files, ...(rec.skipped.length > 0 ? { skipped: rec.skipped } : {}) }, session_id, this.clockOf(session_id)));
    }
  }

  /**
   * Rewind the session to before a checkpoint; every connection gets `x-rawp.checkpoint.restored`.
   * Refused while a turn runs (the agent would be writing the same files).
   */
  async restore(session_id: string, checkpoint_id: string, opts: { force?: readonly string[]; paths?: readonly string[]; parent_id?: string } = {}): Promise<RestoreResult> {
    const rec = this.service.get(checkpoint_id);
    let result: RestoreResult;
    if (!rec || rec.session_id !== session_id) result = { checkpoint_id, restored: [], conflicts: [], failed: [], error: { code: 'CHECKPOINT_NOT_FOUND', message: `session ${session_id} has no checkpoint ${checkpoint_id}` } };
    else if (this.registry.get(session_id)?.turnActive) result = { checkpoint_id, restored: [], conflicts: [], failed: [], error: { code: 'TURN_IN_PROGRESS', message: 'a turn is running; rewind once it has ended' } };
    else {
      try {
        result = await this.service.restore(checkpoint_id, { ...(opts.force ? { force: opts.force } : {}), ...(opts.paths ? { paths: opts.paths } : {}) });
      } catch (e) {
        this.logger.error('checkpoints: restore failed', { checkpoint_id, error: String(e) });
        result = { checkpoint_id, restored: [], conflicts: [], failed: [], error: { code: 'RESTORE_FAILED', message: e instanceof Error ? e.message : String(e) } };
      }
    }
    this.publish(
      session_id,
      buildCheckpointFrame(
        CHECKPOINT_RESTORED_TYPE,
        {
          checkpoint_id,
          restored: result.restored,
          ...(result.unchanged?.length ? { unchanged: result.unchanged } : {}),
          conflicts: result.conflicts,
          ...(result.failed.length > 0 ? { failed: result.failed } : {}),
          ...(result.undo_checkpoint_id ? { undo_checkpoint_id: result.undo_checkpoint_id } : {}),
          ...(result.error ? { error: result.error } : {}),
        },
        session_id,
        { ...this.clockOf(session_id), ...(opts.parent_id ? { parent_id: opts.parent_id } : {}) },
      ),
    );
    return result;
  }

  /** A snapshot failed (git missing, disk full): said once as an error, then quietly; the turn goes on. */
  private failed(e: unknown): undefined {
    const message = e instanceof Error ? e.message : String(e);
    // Only a git that cannot be started is asked about; a timeout or a full disk says itself.
    const hint = /could not start/.test(message) ? ' (is git installed?)' : '';
    if (!this.reported) this.logger.error(`checkpoints: a snapshot failed, turns go on without checkpoints until it works again${hint}: ${message}`);
    else this.logger.debug('checkpoints: a snapshot failed', { error: message });
    this.reported = true;
    return undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.service.dispose();
    this.diffSubscription.dispose();
  }

  /** `x-rawp.checkpoint.diff` (decision 401): the unified diffs, to the asking connection only. */
  private async onDiffFrame(frame: VendorFrame, connection_id: string): Promise<void> {
    const payload = checkpointPayloadOf(CHECKPOINT_DIFF_TYPE, frame);
    let answer;
    try {
      answer = payload
        ? await checkpointDiff(this.service, frame.session_id, payload.checkpoint_id)
        : { checkpoint_id: 'invalid', files: [], error: { code: 'INVALID_PAYLOAD', message: 'x-rawp.checkpoint.diff needs { checkpoint_id }' } };
    } catch (e) {
      this.logger.warn('checkpoints: a diff failed', { error: String(e) });
      answer = { checkpoint_id: payload?.checkpoint_id ?? 'invalid', files: [], error: { code: 'DIFF_FAILED', message: e instanceof Error ? e.message : String(e) } };
    }
    this.hub.sendTo(connection_id, buildCheckpointFrame(CHECKPOINT_DIFF_RESULT_TYPE, answer, frame.session_id, { ...this.clockOf(frame.session_id), parent_id: frame.message_id }));
  }

  private onRestoreFrame(frame: VendorFrame): void {
    const payload = checkpointPayloadOf(CHECKPOINT_RESTORE_TYPE, frame);
    if (!payload) {
      // Answered (to every connection, like any restore), never thrown: the id echoes what was sent when it is one.
      const sent = CheckpointRestorePayload.shape.checkpoint_id.safeParse((frame.payload as { checkpoint_id?: unknown } | undefined)?.checkpoint_id);
      const error = { code: 'INVALID_PAYLOAD', message: 'x-rawp.checkpoint.restore needs { checkpoint_id, force?: [paths], paths?: [paths] }' };
      this.publish(frame.session_id, buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, { checkpoint_id: sent.success ? sent.data : 'invalid', restored: [], conflicts: [], error }, frame.session_id, { ...this.clockOf(frame.session_id), parent_id: frame.message_id }));
      return;
    }
    void this.restore(frame.session_id, payload.checkpoint_id, { ...(payload.force ? { force: payload.force } : {}), ...(payload.paths ? { paths: payload.paths } : {}), parent_id: frame.message_id });
  }

  private clockOf(session_id: string): { clock?: { now(): Date } } {
    const clock = this.registry.get(session_id)?.clock;
    return clock ? { clock } : {};
  }

  private publish(session_id: string, frame: VendorFrame): void {
    if (this.hub.hasSession(session_id)) this.hub.publish(session_id, frame);
  }
}
