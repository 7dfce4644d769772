// The live view of a command's output has a budget too (decision 537). Every chunk becomes a
// `tool.invoke.stream` frame that goes to every connection, the session's history and the journal
// on disk, so a command printing without end would fill all three. Past the budget one `progress`
// chunk says the live view stops there; the command runs on, and its result (HeadTail) keeps
// its start and its end.
import type { ToolContext } from '../types';

/** Characters of a command's output shown live (about 1 MB; the history ring holds 8 MB). */
export const LIVE_OUTPUT_MAX_CHARS = 1_000_000;

type Stream = ToolContext['stream'];

/** `stream` for the first `max` characters of stdout and stderr together, then one notice, then nothing. */
export function liveOutput(stream: Stream, max: number = LIVE_OUTPUT_MAX_CHARS): (type: 'stdout' | 'stderr', chunk: string) => void {
  let sent = 0;
  let stopped = false;
  return (type, chunk) => {
    if (stopped) return;
    const room = max - sent;
    if (chunk.length <= room) {
      sent += chunk.length;
      stream(type, chunk);
      return;
    }
    stopped = true;
    // Cut before a surrogate pair, not inside it.
    const cut = room > 0 && isHighSurrogate(chunk.charCodeAt(room - 1)) ? room - 1 : room;
    if (cut > 0) stream(type, chunk.slice(0, cut));
    stream('progress', `\n[… live output stops here after ${sent + cut} characters; the command runs on, and its result keeps the start and the end of its output …]\n`);
  };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
