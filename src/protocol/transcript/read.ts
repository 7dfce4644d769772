// Small read helpers for renderers, so each does not re-implement them.
import type { Transcript } from './state';
import type { Block, InteractionBlock, TimelineEntry, ToolBlock, ToolStreamType } from './types';

/** The streamed output of an invocation in `sequence` order, optionally of one stream type. */
export function streamText(tool: ToolBlock, streamType?: ToolStreamType): string {
  let out = '';
  for (const c of tool.chunks) if (streamType === undefined || c.streamType === streamType) out += c.chunk;
  return out;
}

/** Questions still waiting for the user (§4.3), oldest first: what a UI must offer to answer. */
export function pendingInteractions(t: Transcript): InteractionBlock[] {
  return [...t.idx.pendingInteractions];
}

/** An invocation by id, wherever it sits in the tree. */
export function findTool(t: Transcript, invocationId: string): ToolBlock | undefined {
  return t.idx.tools.get(invocationId);
}

/** An interaction by id, wherever it sits in the tree. */
export function findInteraction(t: Transcript, interactionId: string): InteractionBlock | undefined {
  return t.idx.interactions.get(interactionId);
}

/** Tool calls still waiting for a result (§5.3). */
export function openTools(t: Transcript): ToolBlock[] {
  return [...t.idx.openTools];
}

/** False for a block another block renders: a plan's approval question is shown inside the plan (§9.2). */
export function shownAsBlock(entry: TimelineEntry | Block): boolean {
  return !(entry.kind === 'interaction' && entry.planKey !== undefined);
}
