// Waiting for asynchronous work without wall-clock timing: let the event loop run until a
// condition holds, or fail after a bounded number of turns of the loop.
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Spin the loop `turns` times; then, since work on the thread pool (file I/O, child processes)
 * can outlast any number of loop turns on a loaded machine, poll `turns` more times 5 ms apart.
 */
export async function until(condition: () => boolean, what: string, turns = 2000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await tick();
  }
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (condition()) return;
  throw new Error(`gave up waiting for: ${what}`);
}

/**
 * Poll `check` (sync or async) every 50 ms until it holds, failing after `ms` of wall time: for work
 * outside this process (a child CLI, git in the background) that loop turns cannot bound on a
 * loaded machine.
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Let pending promise chains run (a few loop turns). */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await tick();
}
