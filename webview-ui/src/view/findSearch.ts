// The matching of "Find in chat" (decision 524): every row's text (findText.ts) is searched in
// slices of a few milliseconds, yielding to the page between them, so 100,000 rows never freeze
// the view while a query is typed or a frame arrives. A newer search cancels the older one.
import { countIn, rowText } from './findText';
import type { Row } from './rows';

/** Time one slice may take before the page gets a turn (a frame is 16 ms: typing stays smooth). */
export const SLICE_MS = 8;
/** Rows between two looks at the clock (a look is cheap, but not free). */
const CHECK_EVERY = 128;

/** The rows that match, in row order, with how many times each does. */
export interface FindResult {
  query: string;
  /** The rows searched (a snapshot: the indices below are into it). */
  rows: readonly Row[];
  /** Indices of the matching rows, ascending. */
  at: number[];
  /** Occurrences in each of those rows. */
  counts: number[];
  /** How many occurrences come before each matching row (for "3 of 17"). */
  before: number[];
  total: number;
}

/** Runs `work` on a later task: a MessageChannel message (not clamped to 4 ms as nested timers are). */
function later(work: () => void): () => void {
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      work();
    };
    channel.port2.postMessage(null);
    return () => channel.port1.close();
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
}

/**
 * Searches `rows` for `query` (case-insensitive substring), `sliceMs` at a time, and calls `done`
 * once with every match. The returned function cancels it (`done` is then never called).
 */
export function searchRows(rows: readonly Row[], query: string, done: (r: FindResult) => void, sliceMs = SLICE_MS): () => void {
  const needle = query.toLowerCase();
  const result: FindResult = { query, rows, at: [], counts: [], before: [], total: 0 };
  let i = 0;
  let cancelled = false;
  let stop = () => {};
  const slice = () => {
    if (cancelled) return;
    const until = performance.now() + sliceMs;
    while (i < rows.length) {
      const n = countIn(rowText(rows[i]), needle);
      if (n > 0) {
        result.at.push(i);
        result.counts.push(n);
        result.before.push(result.total);
        result.total += n;
      }
      i++;
      if (i % CHECK_EVERY === 0 && performance.now() >= until) {
        stop = later(slice);
        return;
      }
    }
    done(result);
  };
  if (needle.length === 0) {
    // Nothing to find: the answer is known at once (still on a later task, as every answer is).
    stop = later(() => !cancelled && done(result));
  } else stop = later(slice);
  return () => {
    cancelled = true;
    stop();
  };
}

/** The index into `r.at` of the matching row `row`, or -1 (binary search: `at` is ascending). */
export function entryOf(r: FindResult, row: number): number {
  let lo = 0;
  let hi = r.at.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (r.at[mid] === row) return mid;
    if (r.at[mid] < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The first matching entry at or after row `row`, wrapping to the first one. */
export function entryFrom(r: FindResult, row: number): number {
  let lo = 0;
  let hi = r.at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.at[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo < r.at.length ? lo : 0;
}
