// What the chat view is given of a frame (decision 516). The view shows at most the first 2,000
// lines or the last 20,000 characters of any one text, yet a frame reached it whole: a 20 MB Write
// or Bash result was cloned through VS Code's message path and held in the view's store for as
// long as the chat was open. A frame bigger than the view's budget goes cut in the middle, as a
// peer's max_frame_size cuts it (frameFit.ts): its start and its end, which are what the view
// shows, and a mark that says how much is left out. The hub does this for live frames (the view
// announces `x-rawp.frame_budget`, as the browser master does); `forView` does it for the replays
// the controller posts itself.
import { buildFrame } from '../protocol/build';
import type { WireFrame } from '../session/connection';
import { fitFrame, tooLargeNote } from '../session/frameFit';
import { OUR_VIEW_FRAME_BUDGET } from '../protocol/rawpExtension';

/** `frames` as the view is given them: each within the budget, or a note where one cannot be. A
 *  replayed frame's size is the one the history measured (fitFrame reads it: nothing is serialized again). */
export function forView(frames: readonly WireFrame[], session_id: string, budget = OUR_VIEW_FRAME_BUDGET): WireFrame[] {
  return frames.map((f) => fitFrame(f, budget) ?? (buildFrame('session.error', tooLargeNote(f, budget, `the ${budget} bytes the chat view takes`), { session_id }) as WireFrame));
}
