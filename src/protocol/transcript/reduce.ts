// applyFrame: one parsed frame -> the transcript, in place. Never throws for a frame that
// parseFrame accepted. §2.1 idempotency: a message_id seen before changes nothing.
import type { Frame, VendorFrame } from '../frameTypes';
import type { ParseOutcome } from '../parse';
import { isCheckpointFrameType, onCheckpointFrame } from './checkpoints';
import { onTextDelta, onTextDone, onThinkingDelta, onThinkingDone } from './content';
import { onHistory } from './history';
import { onInteractionAnswer, onInteractionRequest } from './interactions';
import {
  onAgentError,
  onCapabilities,
  onCompacted,
  onDeleted,
  onFileTransfer,
  onPrompt,
  onPromptCancel,
  onRenamed,
  onSessionError,
  onStateChanged,
  onTurnEnd,
  onTurnStart,
} from './session';
import type { Transcript } from './state';
import { onSubagentEnded, onSubagentStarted, onToolRequest, onToolResult, onToolStream } from './tools';
import { onUsage } from './usage';

/**
 * Applies one frame. Returns true when the transcript changed (and `version` grew); false for a
 * duplicate, a vendor frame, another session's frame, or a type the transcript does not show.
 */
export function applyFrame(t: Transcript, frame: Frame | VendorFrame): boolean {
  if (t.options.sessionId !== undefined && frame.session_id !== t.options.sessionId) {
    t.stats.otherSession++;
    return false;
  }
  if (t.idx.seen.has(frame.message_id)) {
    t.stats.duplicates++;
    return false;
  }
  const applied = isCheckpointFrameType(frame.type) ? onCheckpointFrame(t, frame as VendorFrame) : dispatch(t, frame as Frame);
  if (!applied) {
    t.stats.ignored++;
    return false;
  }
  t.idx.seen.add(frame.message_id);
  t.sessionId ??= frame.session_id;
  t.stats.applied++;
  t.version++;
  return true;
}

/** Applies frames in order; returns how many changed the transcript. */
export function applyFrames(t: Transcript, frames: Iterable<Frame | VendorFrame>): number {
  let n = 0;
  for (const f of frames) if (applyFrame(t, f)) n++;
  return n;
}

/** Applies the frame of an accepted parse outcome; ignored and error outcomes change nothing. */
export function applyParsed(t: Transcript, outcome: ParseOutcome): boolean {
  return outcome.kind === 'accepted' ? applyFrame(t, outcome.frame) : false;
}

/** Routes a frame to its handler; false for types the transcript does not show. */
function dispatch(t: Transcript, frame: Frame): boolean {
  switch (frame.type) {
    case 'agent.text.delta':
      onTextDelta(t, frame);
      return true;
    case 'agent.text.done':
      onTextDone(t, frame);
      return true;
    case 'agent.thinking.delta':
      onThinkingDelta(t, frame);
      return true;
    case 'agent.thinking.done':
      onThinkingDone(t, frame);
      return true;
    case 'agent.interaction.request':
      onInteractionRequest(t, frame);
      return true;
    case 'control.interaction.response':
    case 'control.interaction.timeout':
      onInteractionAnswer(t, frame);
      return true;
    case 'agent.error':
      onAgentError(t, frame);
      return true;
    case 'session.error':
      onSessionError(t, frame);
      return true;
    case 'agent.file.transfer':
      onFileTransfer(t, frame);
      return true;
    case 'agent.state.changed':
      onStateChanged(t, frame);
      return true;
    case 'agent.commands.publish':
      t.commands = frame.payload.commands;
      t.unloadedCommands = frame.payload.unloaded;
      return true;
    case 'tool.catalog.publish':
      t.toolCatalog = frame.payload;
      return true;
    case 'agent.subagent.started':
      onSubagentStarted(t, frame);
      return true;
    case 'agent.subagent.ended':
      onSubagentEnded(t, frame);
      return true;
    case 'tool.invoke.request':
      onToolRequest(t, frame);
      return true;
    case 'tool.invoke.stream':
      onToolStream(t, frame);
      return true;
    case 'tool.invoke.result':
      onToolResult(t, frame);
      return true;
    case 'control.prompt.request':
      onPrompt(t, frame);
      return true;
    case 'control.prompt.cancel':
      onPromptCancel(t, frame);
      return true;
    case 'control.mode.switch':
      t.mode = frame.payload.mode;
      return true;
    case 'session.history':
      onHistory(t, frame, applyFrame);
      return true;
    case 'session.compacted':
      onCompacted(t, frame);
      return true;
    case 'session.usage':
      onUsage(t, frame);
      return true;
    case 'session.turn.start':
      onTurnStart(t, frame);
      return true;
    case 'session.turn.end':
      onTurnEnd(t, frame);
      return true;
    case 'session.capabilities':
      onCapabilities(t, frame);
      return true;
    case 'session.renamed':
      onRenamed(t, frame);
      return true;
    case 'session.deleted':
      onDeleted(t, frame);
      return true;
    // Requests the hub answers elsewhere, and file candidates: not part of the transcript.
    case 'control.session.compact':
    case 'control.file.search':
    case 'control.file.search.cancel':
    case 'session.file.candidates':
      return false;
    default:
      // Vendor frames (§3.1.1) and anything a newer map adds: ignored (§14.2).
      return false;
  }
}
