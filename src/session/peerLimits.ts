// The frame limits a peer announces in its session.capabilities: `max_frame_size` (§12.2, decision
// 515) and `x-rawp.frame_budget` (decision 516). The hub never sends it more than the smaller of
// them, so a limit too small for any frame of ours cannot be honoured: our own session.capabilities
// and a FRAME_TOO_LARGE note are hundreds of bytes, a tool catalog tens of thousands. Such a peer
// is refused at once with a close that says so (decision 546), instead of being sent frames over its
// limit or notes for every frame.
import { rawpExtensionOf } from '../protocol/rawpExtension';

/** The smallest `max_frame_size` or `frame_budget` served: 16 KiB, far below any real client's. */
export const MIN_PEER_FRAME_LIMIT = 16 * 1024;

/** The limits to keep for the peer, or why it is refused (a close reason, under 123 bytes). */
export function peerLimitsOf(caps: { max_frame_size?: number; extensions?: Record<string, unknown> }): { maxFrameSize?: number; frameBudget?: number } | string {
  const frameBudget = rawpExtensionOf(caps.extensions).frame_budget;
  for (const [name, value] of [['max_frame_size', caps.max_frame_size], ['x-rawp.frame_budget', frameBudget]] as const) {
    if (value !== undefined && value < MIN_PEER_FRAME_LIMIT) return `${name} ${value} is below ${MIN_PEER_FRAME_LIMIT} bytes, the least this host sends within; announce more`;
  }
  return { maxFrameSize: caps.max_frame_size, frameBudget };
}
