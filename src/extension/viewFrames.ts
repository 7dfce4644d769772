// What the chat view is given of a frame (decision 516). The view shows at most the first 2,000
// lines or the last 20,000 characters of any one text, yet a frame reached it whole: a 20 MB Write
// or Bash result was cloned through VS Code's message path and held in the view's store for as
// long as the chat was open. A frame bigger than VIEW_FRAME_BUDGET goes cut in the middle, as a
// peer's max_frame_size cuts it (frameFit.ts): its start and its end, which are what the view
// shows, and a mark that says how much is left out. The hub does this for live frames (the
// connection's `frameBudget`); `forView` does it for the replays the controller posts itself.
import { buildFrame } from '../protocol/build';
import type { WireFrame } from '../session/connection';
import { fitFrame, tooLargeNote } from '../session/frameFit';

/** The largest frame the chat view is given, in bytes of JSON. Half a megabyte keeps far more of
 *  each end of a text than the view shows, and at most that much of one frame in the view's memory. */
export const VIEW_FRAME_BUDGET = 512 * 1024;

/** `frames` as the view is given them: each within the budget, or a note where one cannot be. Only
 *  the frames in `bigger` are looked at when it is given (their sizes are known: SessionHost.replay). */
export function forView(frames: readonly WireFrame[], session_id: string, bigger?: ReadonlySet<WireFrame>, budget = VIEW_FRAME_BUDGET): WireFrame[] {
  if (bigger !== undefined && bigger.size === 0) return frames as WireFrame[];
  return frames.map((f) => (bigger !== undefined && !bigger.has(f) ? f : (fitFrame(f, budget) ?? (buildFrame('session.error', tooLargeNote(f, budget, `the ${budget} bytes the chat view takes`), { session_id }) as WireFrame))));
}
