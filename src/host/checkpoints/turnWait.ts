// How long a turn waits for its before-snapshot (decision 626). The snapshot of a workspace of
// 140,000 files took over a minute (the picker trial of 2026-12-05: every turn waited 60 s for a
// `git add` that was then stopped, and began again the next turn). A turn that would wait longer
// goes on without a checkpoint — never with a wrong one: the agent may write while the snapshot
// still reads — and the snapshot goes on in the background, so later turns get theirs.
export const BEFORE_TURN_WAIT_MS = 8_000;

/**
 * `late` when `work` did not settle within `ms` (it goes on; a rejection after that is the work's
 * own). `onLate` runs the moment the time is up, before anything queued after it can.
 */
export async function settledWithin(work: Promise<unknown>, ms: number, onLate: () => void): Promise<'settled' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => {
    onLate();
    resolve('late');
  }, ms)));
  try {
    return await Promise.race([work.then(() => 'settled' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
