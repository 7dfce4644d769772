// §7.5.3: the clean-up frames go out even when an agent hangs while stopping, so disposing it
// gets a deadline; a failure or a timeout is logged, never thrown.
import type { Logger, TimerHandle, Timers } from './ports';

export async function disposeWithin(dispose: () => Promise<void> | void, timeoutMs: number, timers: Timers, logger: Logger): Promise<void> {
  let timer: TimerHandle | undefined;
  const timeout = new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, timeoutMs)));
  const disposed = Promise.resolve()
    .then(() => dispose())
    .catch((e) => logger.warn('adapter dispose failed', { error: String(e) }));
  await Promise.race([disposed, timeout]);
  if (timer !== undefined) timers.clearTimeout(timer);
}
