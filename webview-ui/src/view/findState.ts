// The state of "Find in chat" (decision 524), shared by the find bar, the session bar's button and
// the transcript (which lends it its rows and a way to scroll to one): open or not, the query, the
// last search's matches and the current one, kept by row key and occurrence so a recount after new
// frames keeps the reader's place.
import { createContext } from 'preact';
import { useContext, useEffect, useReducer } from 'preact/hooks';
import { entryFrom, entryOf, searchRows, type FindResult } from './findSearch';
import { clearHighlights, highlightRow, highlightSupported } from './findHighlight';
import type { Row } from './rows';

/** What the transcript lends the find: its current rows and how to bring one into view. */
export interface FindHost {
  rows(): readonly Row[];
  scrollTo(index: number): void;
  /** The first row in view (where a new query starts looking). */
  topIndex(): number;
  /** The mounted row element of index `i`, if it is in the DOM. */
  rowElement(i: number): HTMLElement | null;
  scroller(): HTMLElement | null;
}

export interface Current {
  key: string;
  occurrence: number;
  /** Where the row was last seen (checked against the key before it is used). */
  index: number;
}

/** A recount after new frames waits this long after the last one (a stream sends many a second). */
const RECOUNT_MS = 150;

export class FindController {
  open = false;
  query = '';
  result?: FindResult;
  current?: Current;
  /** Grows each time the bar must take focus and select its text. */
  focusTick = 0;
  /** Grows when the position is moved by the reader (the count is then announced at once). */
  moves = 0;
  private host?: FindHost;
  private cancel = () => {};
  private recountTimer?: ReturnType<typeof setTimeout>;
  private returnTo: Element | null = null;
  /** The row to highlight once it is mounted, and the row element highlighted last. */
  private pending = false;
  private drawn?: { el: Element; key: string; occurrence: number; query: string; rev: number };
  private listeners = new Set<() => void>();
  private retries = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;

  attach(host: FindHost): void {
    this.host = host;
  }

  /** Scrolls the row of the first of `keys` that is a row into view, else the last row (a block
   *  nested in a subagent's card is not a row of its own). Lent to the composer: Escape goes to a
   *  waiting question, whose row may not be mounted (waitingQuestion.ts). */
  revealRow(keys: readonly string[]): void {
    const rows = this.host?.rows() ?? [];
    const i = keys.map((k) => rows.findIndex((r) => r.key === k)).find((n) => n >= 0) ?? rows.length - 1;
    if (i >= 0) this.host?.scrollTo(i);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  show(): void {
    if (!this.open) {
      const active = document.activeElement;
      this.returnTo = active && !active.closest('.find-bar') ? active : null;
      this.open = true;
      if (this.query) this.search(false);
    }
    this.focusTick++;
    this.changed();
  }

  hide(): void {
    if (!this.open) return;
    this.open = false;
    this.cancel();
    clearTimeout(this.recountTimer);
    clearTimeout(this.retryTimer);
    clearHighlights();
    this.drawn = undefined;
    this.pending = false;
    this.changed();
    const back = this.returnTo instanceof HTMLElement && this.returnTo.isConnected ? this.returnTo : this.host?.scroller();
    back?.focus({ preventScroll: true });
    this.returnTo = null;
  }

  setQuery(query: string): void {
    if (query === this.query) return;
    this.query = query;
    this.search(false);
  }

  /** The transcript changed (new frames, or a new session): recount soon, keeping the place. */
  transcriptChanged(): void {
    if (!this.open || !this.query) return;
    clearTimeout(this.recountTimer);
    this.recountTimer = setTimeout(() => this.search(true), RECOUNT_MS);
  }

  /** Runs the search; `keep`: a recount, which keeps the current match (or the nearest) and does not scroll. */
  private search(keep: boolean): void {
    this.cancel();
    clearTimeout(this.recountTimer);
    const host = this.host;
    if (!host) return;
    const query = this.query;
    if (!keep) this.result = undefined;
    this.changed();
    this.cancel = searchRows(host.rows(), query, (r) => {
      this.result = r;
      this.cancel = () => {};
      if (r.total === 0) {
        this.current = undefined;
        clearHighlights();
        this.drawn = undefined;
        this.changed();
        return;
      }
      const kept = this.current && this.place(r, this.current);
      if (keep && kept) {
        this.current = kept;
        this.pending = true;
        this.changed();
        this.afterRender();
        return;
      }
      // A new query starts at the current match's row, else at the first row in view.
      const from = this.current ? this.indexOfKey(r, this.current.key) : host.topIndex();
      const e = entryFrom(r, from < 0 ? host.topIndex() : from);
      this.goTo(r, e, 0, false);
    });
  }

  /** Where `c` is in `r`: itself when its row still has that many matches, else that row's last. */
  private place(r: FindResult, c: Current): Current | undefined {
    const i = this.indexOfKey(r, c.key);
    const e = i < 0 ? -1 : entryOf(r, i);
    if (e < 0) return undefined;
    return { key: c.key, occurrence: Math.min(c.occurrence, r.counts[e] - 1), index: i };
  }

  /** The index of the row `key` in `r`'s rows: the hint when it still holds it, else a scan. */
  private indexOfKey(r: FindResult, key: string, hint = this.current?.index ?? -1): number {
    if (r.rows[hint]?.key === key) return hint;
    return r.rows.findIndex((row) => row.key === key);
  }

  /** 1-based position of the current match among all, or 0. */
  position(): number {
    const r = this.result;
    if (!r || !this.current) return 0;
    const e = entryOf(r, this.indexOfKey(r, this.current.key));
    return e < 0 ? 0 : r.before[e] + this.current.occurrence + 1;
  }

  /** Next (+1) or previous (-1) match, wrapping around. */
  step(delta: 1 | -1): void {
    const r = this.result;
    if (!r || r.total === 0) return;
    const pos = this.position();
    const target = pos === 0 ? (delta > 0 ? 0 : r.total - 1) : (pos - 1 + delta + r.total) % r.total;
    // The entry whose occurrences hold `target` (binary search over `before`).
    let lo = 0;
    let hi = r.at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (r.before[mid] <= target) lo = mid;
      else hi = mid - 1;
    }
    this.goTo(r, lo, target - r.before[lo], true);
  }

  private goTo(r: FindResult, entry: number, occurrence: number, moved: boolean): void {
    const index = r.at[entry];
    this.current = { key: r.rows[index].key, occurrence, index };
    if (moved) this.moves++;
    this.pending = true;
    this.retries = 0;
    this.drawn = undefined;
    this.changed();
    this.host?.scrollTo(this.rowIndex(index));
    this.afterRender();
  }

  /** The current row's index in the transcript's rows now (a recount may not have run since). */
  private rowIndex(hint: number): number {
    const rows = this.host?.rows() ?? [];
    const c = this.current;
    if (!c) return -1;
    if (rows[hint]?.key === c.key) return hint;
    const i = rows.findIndex((row) => row.key === c.key);
    if (i >= 0) c.index = i;
    return i;
  }

  /**
   * After each render of the transcript: once the current row is mounted, highlight in it (again
   * when it was re-rendered or mounted anew); without the Highlight API, focus it.
   */
  afterRender(): void {
    const host = this.host;
    const c = this.current;
    if (!this.open || !host || !c || !this.result) return;
    const index = this.rowIndex(c.index);
    if (index < 0) return;
    const el = host.rowElement(index);
    if (!el) return;
    const row = host.rows()[index];
    const rev = row.kind === 'block' ? row.block.rev : row.turn.rev;
    const d = this.drawn;
    if (!this.pending && d && d.el === el && d.key === c.key && d.occurrence === c.occurrence && d.query === this.query && d.rev === rev) return;
    const wasPending = this.pending;
    this.pending = false;
    this.drawn = { el, key: c.key, occurrence: c.occurrence, query: this.query, rev };
    if (!highlightSupported()) {
      if (wasPending) el.focus({ preventScroll: true });
      return;
    }
    const range = highlightRow(el, this.query.toLowerCase(), c.occurrence);
    if (range) {
      this.retries = 0;
      if (wasPending) scrollIntoViewIfNeeded(range, host.scroller());
    } else if (wasPending && this.retries < RETRIES) {
      // The row is mounted but its words are not all there yet: a file card makes the nodes of
      // its later lines when the page is first idle (chunkedReveal.tsx). Look again shortly.
      this.retries++;
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        this.pending = true;
        this.afterRender();
      }, RETRY_MS);
    }
  }
}

/** How long a mounted row is looked at again for a match its DOM does not hold yet (20 × 100 ms). */
const RETRIES = 20;
const RETRY_MS = 100;

/** A match may be outside the view although its row is centred: in a row taller than the view, or
 *  below the fold of a card's own scrolling box (a file's lines). Each scrolling box from the
 *  innermost out is scrolled just enough to centre it; scrollIntoView would also move the
 *  transcript, under the virtualizer, to places of its own choosing. */
function scrollIntoViewIfNeeded(range: Range, scroller: HTMLElement | null): void {
  if (!scroller) return;
  for (let el = range.startContainer.parentElement; el; el = el.parentElement) {
    const scrolls = el === scroller || (el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY));
    if (scrolls) {
      const r = range.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) el.scrollTop += r.top - box.top - (el.clientHeight - r.height) / 2;
    }
    if (el === scroller) return;
  }
}

/** Cmd on a Mac keyboard, Ctrl elsewhere (as VS Code maps its find key). */
export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

/** Ctrl+F (Cmd+F on a Mac): opens the find bar. */
export function isFindKey(e: KeyboardEvent): boolean {
  const mod = isMac() ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return mod && !e.altKey && !e.shiftKey && (e.code === 'KeyF' || e.key.toLowerCase() === 'f');
}

export const FindContext = createContext<FindController | undefined>(undefined);

/** The find controller, re-rendering the component when its state changes. */
export function useFind(): FindController | undefined {
  const find = useContext(FindContext);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => find?.subscribe(() => bump(0)), [find]);
  return find;
}
