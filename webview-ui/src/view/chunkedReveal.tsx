// Lays out a long output's rows a chunk at a time (issue 18, decisions 481 and 518), for file cards
// and diffs alike. The card renders its first rows itself and then <ChunkedRest>, which holds the
// chunks (each a child with `data-chunk={k}`) and the sentinel after them while some wait:
// - when the page is first idle after mounting, the chunks' rows are made (`made`) and the first
//   chunk is laid out, so a card that stays on screen has its first wheel turn inside ready;
// - each time the sentinel comes into view (the box scrolled to the end of what is laid out),
//   one more chunk is laid out;
// - the chunks not laid out wait under `hidden="until-found"`: not styled or laid out, yet
//   find-in-page searches them; a match (`beforematch`) opens its chunk and every one before it.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Idle time the chunks' rows need to be made (a few hundred nodes) and the first laid out, without delaying the next frame. */
const IDLE_MS_NEEDED = 8;
const IDLE_TRIES = 60;

/** Runs `work` once the page is idle, with a few ms to spare; returns the cancel. Where there is
 *  no requestIdleCallback (Safari), a short timer after the scroll has had its frames. */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(work, 250);
    return () => clearTimeout(timer);
  }
  let id = 0;
  let tries = 0;
  const step = (deadline: IdleDeadline) => {
    // A sliver of idle time at the end of a busy frame is not enough for ~100 rows: wait for a
    // longer one, a bounded number of times (a page that is never idle still gets them).
    if (deadline.timeRemaining() < IDLE_MS_NEEDED && ++tries < IDLE_TRIES) id = requestIdleCallback(step);
    else work();
  };
  id = requestIdleCallback(step);
  return () => cancelIdleCallback(id);
}

/** `items` in consecutive chunks of `size`. */
export function chunksOf<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ChunkedReveal<T> {
  chunks: T[][];
  /** Some chunk still waits to be laid out. */
  deferred: boolean;
  /** Render the chunks (all of them: the ones not laid out are hidden here). */
  made: boolean;
  rest: { current: HTMLDivElement | null };
  sentinel: { current: HTMLDivElement | null };
}

/** The reveal state of `chunks` (a new array when they change: their attributes are set again). */
export function useChunkedReveal<T>(chunks: T[][]): ChunkedReveal<T> {
  const count = chunks.length;
  /** How many chunks are laid out. */
  const [open, setOpen] = useState(0);
  /** The chunks' rows exist (made when the page was first idle after the card mounted, or on demand). */
  const [made, setMade] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const rest = useRef<HTMLDivElement>(null);
  const deferred = open < count;
  useEffect(() => {
    const el = sentinel.current;
    if (!deferred || !el) return;
    // The box clips its rows, so the sentinel intersects the viewport only once scrolled into
    // view. Observed anew after each chunk: if a fast scroll left it in view, the first callback
    // says so and the next chunk follows.
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      setMade(true);
      setOpen((n) => Math.max(n, open + 1));
    });
    io.observe(el);
    return () => io.disconnect();
  }, [deferred, open]);
  useEffect(() => {
    if (!deferred || made) return;
    return whenIdle(() => {
      setMade(true);
      setOpen((n) => Math.max(n, 1));
    });
  }, [deferred, made]);
  useLayoutEffect(() => {
    // Set as an attribute before the first paint: the `hidden` property would make it plain hidden
    // (unsearchable) in a browser that has no until-found. Find-in-page removes it itself on a match.
    const box = rest.current;
    if (!box) return;
    const parts = box.children;
    for (let k = 0; k < parts.length; k++) {
      if (k < open) parts[k].removeAttribute('hidden');
      else parts[k].setAttribute('hidden', 'until-found');
    }
  }, [open, made, chunks]);
  useLayoutEffect(() => {
    const box = rest.current;
    if (!box) return;
    // beforematch bubbles from the chunk the find matched in; the chunks before it open with it.
    // Preact renders the new state in a microtask, so they are laid out before the browser
    // scrolls to the match, which therefore stays in view (the find tests check it).
    const found = (e: Event) => {
      const at = Number((e.target as HTMLElement).closest<HTMLElement>('[data-chunk]')?.dataset.chunk ?? -1);
      if (at < 0) return;
      setOpen((n) => Math.max(n, at + 1));
    };
    box.addEventListener('beforematch', found);
    return () => box.removeEventListener('beforematch', found);
  }, [made]);
  return { chunks, deferred, made: made || !deferred, rest, sentinel };
}

/** The chunks after a card's first rows, each drawn by `render`, and the sentinel while some wait. */
export function ChunkedRest<T>({ reveal, render }: { reveal: ChunkedReveal<T>; render: (chunk: T[], k: number) => ComponentChildren }) {
  const { chunks, deferred, made, rest, sentinel } = reveal;
  return (
    <>
      {chunks.length > 0 && (
        <div ref={rest} class="lines-rest">
          {made &&
            chunks.map((chunk, k) => (
              <div key={k} class="lines-chunk" data-chunk={k}>
                {render(chunk, k)}
              </div>
            ))}
        </div>
      )}
      {deferred && <div ref={sentinel} class="lines-pending" aria-hidden="true" />}
    </>
  );
}
