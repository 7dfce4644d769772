// Turns (§7.5), errors (§4.4, §7.4), agent state (§4.6), announcements (§5.4, §12), compaction
// (§7.2), rename/delete (§7.6, §7.7), prompts and their cancellation (§6.1) and file transfers (§4.5).
import { AgentMode } from '../common';
import type { FrameOf } from '../frameTypes';
import { append, closeTurn, containerOf, contextOf, currentTurn, ensureRun, ensureTurn, newKey, openTurn, scopeOf, touch, type Transcript } from './state';
import { onRefusedAnswer, retireTurnInteractions } from './interactions';
import type { CompactionBlock, ErrorEntry, FileTransferBlock, PromptBlock } from './types';

/**
 * §10.2 a subagent's own turn frames carry its context: they mark its run, never open or close a
 * turn of the session (which would capture the main agent's frames).
 */
function subagentTurnFrame(t: Transcript, frame: FrameOf<'session.turn.start'> | FrameOf<'session.turn.end'>): boolean {
  const ctx = contextOf(t, frame);
  if (!ctx) return false;
  touch(t, ensureRun(t, ctx.parentInvocationId, ctx.depth, frame).key);
  return true;
}

export function onTurnStart(t: Transcript, frame: FrameOf<'session.turn.start'>): void {
  if (subagentTurnFrame(t, frame)) return;
  const p = frame.payload;
  const turn = ensureTurn(t, p.turn_id, frame.timestamp);
  turn.implicit = false;
  turn.index = p.turn_index;
  if (p.mode !== undefined) {
    turn.mode = p.mode;
    t.mode = p.mode;
  }
  turn.startedAt = frame.timestamp;
  // Starting a turn that is open (e.g. created implicitly) makes it the current one; an ended
  // turn stays ended.
  if (turn.open) openTurn(t, turn);
  touch(t, turn.key);
}

export function onTurnEnd(t: Transcript, frame: FrameOf<'session.turn.end'>): void {
  if (subagentTurnFrame(t, frame)) return;
  const p = frame.payload;
  const turn = ensureTurn(t, p.turn_id, frame.timestamp);
  // The first real end wins; a synthetic "disconnected" end (§7.8.1) gives way to the real one.
  if (!turn.open && !turn.synthetic) return;
  turn.open = false;
  turn.synthetic = false;
  turn.stopReason = p.stop_reason;
  turn.endedAt = frame.timestamp;
  if (p.structured_output !== undefined) turn.structuredOutput = p.structured_output;
  if (p.tool_invocation_count !== undefined) turn.toolInvocationCount = p.tool_invocation_count;
  retireTurnInteractions(t, turn.turnId, p.stop_reason === 'cancelled' ? 'cancelled' : 'turn_ended');
  closeTurn(t, turn);
  touch(t, turn.key);
}

function recordError(t: Transcript, frame: FrameOf<'agent.error'> | FrameOf<'session.error'>, entry: ErrorEntry): void {
  t.errors.push(entry);
  t.errorCounts[entry.severity]++;
  append(t, containerOf(t, frame), { kind: 'error', key: newKey(t, 'error'), rev: 0, error: entry, ...scopeOf(t, frame) });
}

export function onAgentError(t: Transcript, frame: FrameOf<'agent.error'>): void {
  const p = frame.payload;
  const entry: ErrorEntry = {
    source: 'agent',
    severity: p.severity,
    code: p.error_code,
    message: p.message,
    recoverable: p.recoverable,
    turnId: frame.turn_id ?? currentTurn(t)?.turnId,
    messageId: frame.message_id,
    timestamp: frame.timestamp,
  };
  if (p.details !== undefined) entry.details = p.details;
  recordError(t, frame, entry);
}

export function onSessionError(t: Transcript, frame: FrameOf<'session.error'>): void {
  const p = frame.payload;
  const entry: ErrorEntry = {
    source: 'session',
    severity: p.fatal ? 'fatal' : 'error',
    code: p.error_code,
    message: p.message,
    turnId: frame.turn_id ?? currentTurn(t)?.turnId,
    messageId: frame.message_id,
    timestamp: frame.timestamp,
  };
  // A refused answer to a question the client no longer had is told by its card (issue 15 Why 3):
  // kept in the error list for logs, but no red block in the transcript.
  if (onRefusedAnswer(t, frame)) {
    t.errors.push(entry);
    t.errorCounts[entry.severity]++;
    return;
  }
  recordError(t, frame, entry);
}

export function onStateChanged(t: Transcript, frame: FrameOf<'agent.state.changed'>): void {
  const p = frame.payload;
  const ctx = contextOf(t, frame);
  if (ctx) {
    // A subagent's state is its run's, not the session's.
    const run = ensureRun(t, ctx.parentInvocationId, ctx.depth, frame);
    run.agentState = p.current_state;
    touch(t, run.key);
    return;
  }
  t.agentState = { current: p.current_state, previous: p.previous_state, synthetic: false };
  if (p.reason !== undefined) t.agentState.reason = p.reason;
  // The engine confirms every switch (requested, `/mode review`, or the agent's own) to every
  // connection with reason "mode_switch" and the new `mode` (§6.3.2): the view shows it at once,
  // not only at the next turn.start (issue 15 Why 5).
  if (p.reason === 'mode_switch') {
    const mode = AgentMode.safeParse(p.mode);
    if (mode.success) t.mode = mode.data;
  }
}

export function onCapabilities(t: Transcript, frame: FrameOf<'session.capabilities'>): void {
  t.capabilities.push(frame.payload);
  // §10.6: the latest announcement that mentions subagent_context decides; none means flat.
  const announced = frame.payload.features?.subagent_context;
  if (announced !== undefined) t.subagentGrouping = announced;
}

export function onCompacted(t: Transcript, frame: FrameOf<'session.compacted'>): void {
  const block = append(t, containerOf(t, frame), {
    kind: 'compaction',
    key: newKey(t, 'compaction'),
    rev: 0,
    compaction: frame.payload,
    timestamp: frame.timestamp,
    ...scopeOf(t, frame),
  } satisfies CompactionBlock);
  t.compactions.push(block);
}

export function onRenamed(t: Transcript, frame: FrameOf<'session.renamed'>): void {
  t.previousName = frame.payload.previous_name ?? t.name;
  t.name = frame.payload.name;
}

export function onDeleted(t: Transcript, frame: FrameOf<'session.deleted'>): void {
  t.deleted = { reason: frame.payload.reason, deletedBy: frame.payload.deleted_by, timestamp: frame.timestamp };
}

export function onPrompt(t: Transcript, frame: FrameOf<'control.prompt.request'>): void {
  // The user's message opens the exchange, so it sits on the timeline before the turn it starts.
  append(t, t.idx.root, {
    kind: 'prompt',
    key: newKey(t, 'prompt'),
    rev: 0,
    messageId: frame.message_id,
    prompt: frame.payload,
    timestamp: frame.timestamp,
  } satisfies PromptBlock);
}

export function onPromptCancel(t: Transcript, frame: FrameOf<'control.prompt.cancel'>): void {
  const turn = t.idx.turns.get(frame.payload.target_turn_id);
  if (!turn) return;
  turn.cancelRequested = true;
  // §6.1.2: the client discards the turn's open questions on a cancel; retire them at once.
  if (turn.open) retireTurnInteractions(t, turn.turnId, 'cancelled');
  touch(t, turn.key);
}

export function onFileTransfer(t: Transcript, frame: FrameOf<'agent.file.transfer'>): void {
  append(t, containerOf(t, frame), {
    kind: 'file_transfer',
    key: newKey(t, 'transfer'),
    rev: 0,
    transfer: frame.payload,
    ...scopeOf(t, frame),
  } satisfies FileTransferBlock);
}
