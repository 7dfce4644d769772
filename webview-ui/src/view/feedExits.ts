// The ARIA feed pattern's way out of a feed (decision 480): Control+End moves focus to the first
// focusable element after the feed, Control+Home to the first focusable element before it — here
// the nearest Tab stop on each side in Tab order, i.e. where Tab / Shift+Tab would land if the feed
// were one stop (above the transcript: the session bar and banners; below: the task list and
// the composer). `tabbable` decides what is a Tab stop (visible, enabled, not inert, tabindex ≥ 0).
import { tabbable } from 'tabbable';

export type FeedSide = 'before' | 'after';

/** The nearest Tab stop outside `feed` on `side`, in the page's Tab order; undefined when none. */
export function tabStopBeside(feed: HTMLElement, side: FeedSide): HTMLElement | undefined {
  const doc = feed.ownerDocument;
  const outside = tabbable(doc.body).filter((el) => el !== feed && !feed.contains(el) && !el.contains(feed));
  const follows = (el: Element) => (feed.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  if (side === 'after') return outside.find(follows) as HTMLElement | undefined;
  const before = outside.filter((el) => !follows(el));
  return before[before.length - 1] as HTMLElement | undefined;
}

/** Moves focus out of `feed` to `side`; false when there is nothing there (focus stays). */
export function leaveFeed(feed: HTMLElement, side: FeedSide): boolean {
  const target = tabStopBeside(feed, side);
  if (!target) return false;
  target.focus();
  return true;
}
