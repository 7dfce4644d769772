// §2.3: a session's frames are ordered; a timestamp earlier than the previous frame's suggests a
// reordered log or a clock step (a warning: clocks of client and master differ).
import { where, type SessionRule } from '../context';

export function timestampRule(): SessionRule {
  let last: { ms: number; line: number; text: string } | undefined;
  return {
    frame(at, _ctx, report) {
      if (at.replayed) return; // history frames are older by nature
      const ms = Date.parse(at.frame.timestamp);
      if (Number.isNaN(ms)) return;
      if (last && ms < last.ms) {
        report('TIMESTAMP_BACKWARDS', where(at), `timestamp ${at.frame.timestamp} is earlier than ${last.text} on line ${last.line}`);
      }
      last = { ms, line: at.line, text: at.frame.timestamp };
    },
  };
}
