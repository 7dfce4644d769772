// Small read helpers for renderers, so each does not re-implement them.
import type { ToolBlock, ToolStreamType } from './types';

/** The streamed output of an invocation in `sequence` order, optionally of one stream type. */
export function streamText(tool: ToolBlock, streamType?: ToolStreamType): string {
  let out = '';
  for (const c of tool.chunks) if (streamType === undefined || c.streamType === streamType) out += c.chunk;
  return out;
}
