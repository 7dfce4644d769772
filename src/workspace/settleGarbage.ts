// A collection that has really let go (for memory figures: the benchmark, and the scan workers'
// own report). Only where the process runs with --expose-gc (V8's flags are the process's, so the
// workers have it too); elsewhere it only waits. Twice with a pause: freed array buffers are
// released by a concurrent sweeper and are still counted until it has run — without the pause the
// previous corpus's freed typed arrays stayed in the benchmark's baseline (the union read -2.9 MB).
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));

export async function settleGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let k = 0; k < 2; k++) {
    gc?.();
    await pause();
  }
}
