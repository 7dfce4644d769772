// §7.8 for sessions restored after a window reload: the frames of the previous window are run
// through the one transcript reducer and finalized with reason `app_restart`; the synthesized
// `tool.invoke.result` frames (metadata.synthetic, §7.8.1) are appended to the restored log so
// every view shows the interrupted tool calls as cancelled ("Connection lost").
import { parseFrame } from '../protocol/parse';
import { applyParsed, createTranscript, finalize } from '../protocol/transcript';
import type { LoggedFrame } from './transcriptLog';

export function finalizeRestored(session_id: string, frames: readonly LoggedFrame[]): LoggedFrame[] {
  const t = createTranscript({ sessionId: session_id });
  for (const f of frames) applyParsed(t, parseFrame(f));
  return finalize(t, { reason: 'app_restart' }) as unknown as LoggedFrame[];
}

/**
 * The agent's own session id (§18.3) from the newest `session.capabilities` of a stored session,
 * so an agent that can (Claude Code announces it) continues its conversation after a reload.
 */
export function agentSessionIdOf(frames: readonly LoggedFrame[]): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if (f.type !== 'session.capabilities') continue;
    const id = (f.payload as { extensions?: { agent_session_id?: unknown } } | undefined)?.extensions?.agent_session_id;
    if (typeof id === 'string' && id.length > 0) return id;
  }
  return undefined;
}
