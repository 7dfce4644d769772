// Drivers for work written as a generator of small steps (the snapshot build, the filter mask, the
// @-search scan): run it to its end at once, or in slices of a few milliseconds with an event-loop
// turn between them so nothing else waits long (issue 18). One driver each, for every caller.
import { nextTurn } from './bytesInTurns';

/** Runs `steps` to its end without pausing. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Stops a sliced run between two steps. */
export interface StopToken {
  readonly cancelled: boolean;
}

/**
 * Runs `steps` for at most `budgetMs` at a time, yielding to the event loop in between. With
 * `token`, checks it before every step: when it is cancelled, ends the generator (its `finally`
 * blocks run) and resolves undefined — also when it is cancelled by the time the last step is done.
 */
export function runInSlices<T>(steps: Generator<void, T, void>, budgetMs: number): Promise<T>;
export function runInSlices<T>(steps: Generator<void, T, void>, budgetMs: number, token: StopToken): Promise<T | undefined>;
export async function runInSlices<T>(steps: Generator<void, T, void>, budgetMs: number, token?: StopToken): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (;;) {
    if (token?.cancelled) {
      steps.return(undefined as never);
      return undefined;
    }
    const r = steps.next();
    if (r.done) return token?.cancelled ? undefined : r.value;
    if (performance.now() - sliceStart > budgetMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
