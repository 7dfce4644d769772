// The longest event-loop block while an operation runs, measured with perf_hooks'
// monitorEventLoopDelay. Shared by the tests that prove hostile input never holds the loop.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The longest block of the event loop while `op` runs, in ms. */
export async function worstBlockMs(op: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await sleep(10);
  h.reset(); // from here on: only what happens during the operation
  await op();
  await sleep(15); // a block at the very end is seen only by the next timer tick
  h.disable();
  return h.max / 1e6;
}
