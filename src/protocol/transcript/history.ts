// §7.1.1 session.history: validate each buffered frame on its own (one bad frame does not throw
// the history away), order them by timestamp then message_id (§2.3), undo a finalization when
// that is allowed (§7.8.3), and replay. Frames already seen are skipped by idempotency (§2.1).
// Of the vendor frames only the checkpoint frames are replayed (issue 17's turn footers).
import type { Frame, FrameOf, VendorFrame } from '../frameTypes';
import { parseValue } from '../parse';
import { isCheckpointFrameType } from './checkpoints';
import { unfinalize } from './finalize';
import { MAX_HISTORY_ISSUES, type Transcript } from './state';

type Apply = (t: Transcript, frame: Frame | VendorFrame) => boolean;

interface Timed {
  frame: Frame | VendorFrame;
  time: number;
}

export function onHistory(t: Transcript, history: FrameOf<'session.history'>, apply: Apply): void {
  const p = history.payload;
  const frames: Timed[] = [];
  p.frames.forEach((raw, index) => {
    const outcome = parseValue(raw);
    if (outcome.kind === 'error') return note(t, index, outcome.error.message);
    if (outcome.kind === 'ignored') return note(t, index, outcome.reason);
    // Vendor frames are opaque here, except the checkpoint frames the transcript keeps: without them
    // a reloaded or reattached view lost every turn's footer, and with it every rewind and undo.
    if (outcome.vendor && !isCheckpointFrameType(outcome.frame.type)) return;
    // A history inside a history has no meaning for replay; it is reported, not followed.
    if (outcome.frame.type === 'session.history') return note(t, index, 'nested session.history is not replayed');
    const time = Date.parse(outcome.frame.timestamp);
    frames.push({ frame: outcome.frame, time: Number.isNaN(time) ? 0 : time });
  });
  frames.sort((a, b) => a.time - b.time || compare(a.frame.timestamp, b.frame.timestamp) || compare(a.frame.message_id, b.frame.message_id));

  if (p.buffer_status.truncated) {
    // §7.1.1 the master must tell the user that data was lost, and in words that say how: a history
    // that continues a transcript (a reattach) lost what was published while this view was away; a
    // history for an empty transcript (a first attach, a restored session) begins past the start
    // because the host keeps only its history budget of the session.
    const lost = p.buffer_status.lost_frame_count;
    const cause = t.timeline.length > 0 ? 'disconnected' : 'budget';
    const about = lost !== undefined ? ` (about ${lost} frame${lost === 1 ? '' : 's'})` : '';
    t.historyTruncated = {
      policyApplied: p.buffer_status.policy_applied,
      lastMessageId: p.last_message_id,
      cause,
      message:
        cause === 'disconnected'
          ? `Some of this session's history was lost while disconnected${about}.`
          : `Part of this session's history${about} is beyond the history budget the host keeps and is not shown.`,
    };
    if (lost !== undefined) t.historyTruncated.lostFrameCount = lost;
  }

  if (t.finalization && t.finalization.kept === undefined) {
    // §7.8.3: no unfinalization after data loss, or for a session that has already ended; such a
    // finalization is then permanent (a later history does not undo it either).
    if (p.buffer_status.truncated) t.finalization.kept = 'history_truncated';
    else if (frames.some((f) => f.frame.type === 'session.deleted')) t.finalization.kept = 'session_deleted';
    else unfinalize(t);
  }

  for (const { frame } of frames) apply(t, frame);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function note(t: Transcript, index: number, message: string): void {
  if (t.historyIssues.length < MAX_HISTORY_ISSUES) t.historyIssues.push({ index, message });
}
