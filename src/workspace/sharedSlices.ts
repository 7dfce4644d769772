// One time budget per event-loop turn for work that many tasks do at once (decision 733): the walk
// has 16 folders in flight, a watcher batch checks every changed path, and their continuations can
// run back to back in one turn (libuv hands over every finished readdir or lstat in one go), so a
// budget per task would add up. Here every task that works in slices spends the same budget: the
// first to find it spent yields, and the slice starts again at the next check phase, before any of
// the tasks that yielded resumes.
//
// The units of work between two checks must themselves be small: compiling one group of rules
// (CHUNK_LIMITS in ruleChunks.ts), reading one ignore file or a few of its rules, trying one
// folder's rules on one path.

/** What all slicing tasks together may hold the event loop in one turn. */
export const SHARED_SLICE_MS = 8;

let sliceMs = SHARED_SLICE_MS;

/** When the current slice began; -Infinity until a turn began one, so a task's first check yields once. */
let sliceStart = Number.NEGATIVE_INFINITY;
/** A callback that starts the next slice is queued. */
let startQueued = false;
/** A task has resumed in the current slice: the first one always may work, even when the slice is 0 ms. */
let claimed = true;

function startSlice(): void {
  startQueued = false;
  claimed = false;
  sliceStart = performance.now();
}

/** Has the current slice been spent? Cheap enough to ask between any two units of work. */
export function sliceSpent(): boolean {
  return performance.now() - sliceStart >= sliceMs;
}

/** Sets the slice (tests: 0 makes every task wait for a turn after each unit); returns the previous one. */
export function setSharedSliceMs(ms: number): number {
  const previous = sliceMs;
  sliceMs = ms;
  return previous;
}

/**
 * Waits for a turn in which this task may work. The slice is started by a callback queued before
 * the task's own (setImmediate runs them in order), so the tasks that resume in that turn share it;
 * those that find it spent wait again.
 */
export async function nextSlice(): Promise<void> {
  do {
    if (!startQueued) {
      startQueued = true;
      setImmediate(startSlice);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!claimed) {
      claimed = true;
      return;
    }
  } while (sliceSpent());
}

/** Runs `steps` to its end, waiting for a new slice whenever the shared one is spent. */
export async function runInSharedSlices<T>(steps: Generator<void, T, void>): Promise<T> {
  for (;;) {
    if (sliceSpent()) await nextSlice();
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `steps` run at once while the shared slice lasts, the rest (if it runs out) in later slices: a
 * check of one path answers without a promise unless it has to wait.
 */
export function runNowOrInSlices<T>(steps: Generator<void, T, void>): T | Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (sliceSpent()) return nextSlice().then(() => runInSharedSlices(steps));
  }
}
