// Runs a task per index with a fixed number in flight (decisions 576, 587): stats and lstats of
// thousands of paths must not all start at once (descriptors, memory), and a failure or an abort
// stops the others at their next index instead of letting them run on for nothing.

/** Runs `task(0 … count-1)` with at most `width` at once; stops taking new ones at an abort or a failure (which it rethrows). */
export async function inPool(width: number, count: number, signal: AbortSignal | undefined, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < count && !failed && !signal?.aborted) {
      const i = next++;
      try {
        await task(i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}
