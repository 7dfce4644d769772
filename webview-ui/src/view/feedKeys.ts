// A keyboard path through every row of the virtualized transcript (decision 420, the ARIA feed
// pattern's keys): only rows near the viewport exist in the DOM, so Tab alone reaches only those.
// Rows are articles (aria-posinset / aria-setsize); with focus on the transcript or anywhere inside
// a row, PageDown / PageUp move focus to the next / previous row and Home / End (on a row) to the
// first / last — the virtualizer scrolls the row in, and focus follows once it is mounted. The
// focused row is always kept mounted (rangeExtractor), so scrolling with the mouse never drops focus.
// Control+Home / Control+End (Meta+Home / Meta+End on a Mac keyboard) leave the feed to the Tab stop
// before / after it (decision 480, feedExits.ts).
import { defaultRangeExtractor, type Range, type Virtualizer } from '@tanstack/virtual-core';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { leaveFeed } from './feedExits';

/** Keys that stay the field's own inside a row (an answer's text box, a select). */
function typingTarget(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

export interface FeedKeys {
  onKeyDown(e: KeyboardEvent): void;
  rangeExtractor(range: Range): number[];
}

export function useFeedKeys(virtualizer: () => Virtualizer<HTMLDivElement, HTMLDivElement>, scroller: () => HTMLDivElement | null, count: number): FeedKeys {
  /** The row index focus should move to, once the virtualizer has mounted it. */
  const pending = useRef<number | undefined>(undefined);
  /** The row holding focus, kept in the DOM. */
  const focused = useRef<number | undefined>(undefined);
  const countRef = useRef(count);
  countRef.current = count;

  const rowAt = (i: number) => scroller()?.querySelector<HTMLElement>(`.row[data-index="${i}"]`) ?? null;
  const tryFocus = () => {
    const i = pending.current;
    if (i === undefined) return;
    const el = rowAt(i);
    if (!el) return;
    pending.current = undefined;
    focused.current = i;
    el.focus({ preventScroll: true });
  };
  // After every render: the row asked for may have just been mounted.
  useLayoutEffect(tryFocus);

  const moveTo = (i: number) => {
    const n = countRef.current;
    if (n === 0) return;
    const target = Math.max(0, Math.min(n - 1, i));
    pending.current = target;
    focused.current = target;
    virtualizer().scrollToIndex(target, { align: 'start' });
    tryFocus();
  };

  /** The row `el` is in, or undefined when focus is on the transcript itself. */
  const rowOf = (el: EventTarget | null): number | undefined => {
    const row = el instanceof Element ? el.closest<HTMLElement>('.row[data-index]') : null;
    return row ? Number(row.dataset.index) : undefined;
  };

  /** With focus on the transcript itself: the first row whose top is in view. */
  const firstInView = (): number => {
    const el = scroller();
    const items = virtualizer().getVirtualItems();
    const top = el?.scrollTop ?? 0;
    return (items.find((it) => it.start >= top) ?? items[0])?.index ?? 0;
  };

  return {
    onKeyDown(e) {
      if (e.altKey || e.shiftKey || typingTarget(e.target)) return;
      if (e.ctrlKey || e.metaKey) {
        // Decision 480: Control (or, as VS Code maps Ctrl+Home to Cmd+Home on macOS, Meta) with
        // Home / End leaves the feed; the scroller is the feed's box, rows and all.
        const side = e.ctrlKey && e.metaKey ? undefined : e.key === 'Home' ? 'before' : e.key === 'End' ? 'after' : undefined;
        const feed = scroller();
        if (side && feed && leaveFeed(feed, side)) e.preventDefault();
        return;
      }
      const at = rowOf(e.target);
      let to: number | undefined;
      if (e.key === 'PageDown') to = at === undefined ? firstInView() : at + 1;
      else if (e.key === 'PageUp') to = at === undefined ? firstInView() : at - 1;
      else if (e.key === 'Home' && at !== undefined) to = 0;
      else if (e.key === 'End' && at !== undefined) to = countRef.current - 1;
      if (to === undefined) return;
      e.preventDefault();
      moveTo(to);
    },
    rangeExtractor(range) {
      const out = defaultRangeExtractor(range);
      const keep = [focused.current, pending.current].filter((i): i is number => i !== undefined && i < range.count && !out.includes(i));
      return keep.length === 0 ? out : [...out, ...keep].sort((a, b) => a - b);
    },
  };
}
