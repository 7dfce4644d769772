// §7.8 Finalization and Unfinalization. When the connection closes or errors (or the app restarts
// without a live connection) everything still open is closed with what arrived; on a later
// `session.history` that allows it, exactly those changes are undone and the history replayed.
//
// Synthesized tool results are real frames (buildFrame, `metadata.synthetic: true`, §7.8.1) so
// the host may persist or show them like any other; a turn's "disconnected" end is not a wire
// value (§7.5.2 has no such stop_reason), so it is a marked view-model change (`turn.synthetic`).
import { buildFrame, systemClock, type Clock } from '../build';
import type { FrameOf } from '../frameTypes';
import { closeTurn, openTurn, touch, type Transcript } from './state';
import { onToolResult } from './tools';
import type { FinalizationRecord, FinalizeReason } from './types';

export interface FinalizeOptions {
  reason: FinalizeReason;
  clock?: Clock;
}

/** The output a synthesized tool result carries (§7.8.1). */
export const CONNECTION_LOST = 'Connection lost';

/**
 * Closes everything open (§7.8.1) and returns the synthesized `tool.invoke.result` frames, already
 * applied. Safe to call again: only what is still open is touched, and the records merge.
 */
export function finalize(t: Transcript, options: FinalizeOptions): Array<FrameOf<'tool.invoke.result'>> {
  const clock = options.clock ?? systemClock;
  // A finalization a history has made permanent (§7.8.3) is not extended: a new one starts.
  const record: FinalizationRecord = t.finalization && t.finalization.kept === undefined ? t.finalization : {
    reason: options.reason,
    syntheticFrameIds: [],
    tools: [],
    blocks: [],
    turns: [],
    interactions: [],
    runs: [],
  };
  let changed = false;

  for (const block of t.idx.streaming) {
    block.done = true;
    block.finalized = true;
    record.blocks.push(block);
    touch(t, block.key);
    changed = true;
  }
  t.idx.streaming.clear();
  t.idx.redactedTail.clear();

  const frames: Array<FrameOf<'tool.invoke.result'>> = [];
  for (const tool of [...t.idx.openTools]) {
    const metadata: FrameOf<'tool.invoke.result'>['metadata'] = { synthetic: true };
    if (tool.scope !== undefined) metadata.subagent_context = { parent_invocation_id: tool.scope, depth: tool.depth };
    const frame = buildFrame(
      'tool.invoke.result',
      { invocation_id: tool.invocationId, tool_name: tool.toolName, status: 'cancelled', output: CONNECTION_LOST, output_type: 'text' },
      { session_id: t.sessionId ?? 'unknown-session', turn_id: tool.turnId, metadata },
      clock,
    );
    t.idx.seen.add(frame.message_id);
    onToolResult(t, frame);
    record.syntheticFrameIds.push(frame.message_id);
    record.tools.push(tool);
    frames.push(frame);
    changed = true;
  }

  for (const run of t.idx.runningRuns) {
    run.status = 'cancelled';
    run.synthetic = true;
    record.runs.push(run);
    touch(t, run.key);
    changed = true;
  }
  t.idx.runningRuns.clear();

  const endedAt = clock.now().toISOString();
  for (const turn of [...t.idx.openTurns]) {
    closeTurn(t, turn);
    turn.open = false;
    turn.synthetic = true;
    turn.stopReason = 'disconnected';
    turn.endedAt = endedAt;
    record.turns.push(turn);
    touch(t, turn.key);
    changed = true;
  }

  for (const interaction of t.idx.pendingInteractions) {
    interaction.status = 'discarded';
    interaction.synthetic = true;
    record.interactions.push(interaction);
    touch(t, interaction.key);
    changed = true;
  }
  t.idx.pendingInteractions.clear();

  if (t.agentState && t.agentState.current !== 'idle') {
    if (record.agentStateBefore === undefined) record.agentStateBefore = t.agentState;
    t.agentState = { current: 'idle', previous: t.agentState.current, reason: 'disconnected', synthetic: true };
    changed = true;
  }

  t.finalization = record;
  if (changed) t.version++;
  return frames;
}

/** §7.8.3 step 1: removes exactly what finalization synthesized and reopens what it closed. */
export function unfinalize(t: Transcript): void {
  const record = t.finalization;
  if (!record) return;
  t.finalization = undefined;
  const syntheticIds = new Set(record.syntheticFrameIds);
  for (const tool of record.tools) {
    // Only a result that is still the synthesized one is removed; a real one stays.
    if (tool.result && tool.result.synthetic && syntheticIds.has(tool.result.messageId)) {
      tool.result = undefined;
      t.idx.openTools.add(tool);
      touch(t, tool.key);
    }
  }
  for (const id of syntheticIds) t.idx.seen.delete(id);
  for (const block of record.blocks) {
    if (!block.finalized) continue;
    block.done = false;
    block.finalized = false;
    t.idx.streaming.add(block);
    touch(t, block.key);
  }
  for (const run of record.runs) {
    if (!run.synthetic) continue;
    run.status = 'running';
    run.synthetic = false;
    t.idx.runningRuns.add(run);
    touch(t, run.key);
  }
  for (const turn of record.turns) {
    if (!turn.synthetic) continue;
    turn.open = true;
    turn.synthetic = false;
    turn.stopReason = undefined;
    turn.endedAt = undefined;
    openTurn(t, turn);
    touch(t, turn.key);
  }
  for (const interaction of record.interactions) {
    if (!(interaction.synthetic && interaction.status === 'discarded')) continue;
    interaction.status = 'pending';
    interaction.synthetic = false;
    t.idx.pendingInteractions.add(interaction);
    touch(t, interaction.key);
  }
  if (t.agentState?.synthetic && record.agentStateBefore) t.agentState = record.agentStateBefore;
  t.version++;
}
