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
