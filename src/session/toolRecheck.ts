// §5.4.1-2: a tool's status may change while nothing runs (a CLI installed, a key set); the
// adapter re-checks now and then while the session is idle and republishes when it changed.
// (Before each turn the adapters check as well.)
import type { Logger, TimerHandle, Timers } from './ports';

export interface ToolRecheckOptions {
  /** The adapter's refreshTools; without one nothing is scheduled. */
  refresh: (() => void) | undefined;
  /** Milliseconds between checks; 0 or less = never. */
  everyMs: number;
  /** Nothing runs (no turn, no compaction or mode switch): a check now is safe. */
  idle: () => boolean;
  timers: Timers;
  logger: Logger;
}

export class ToolRecheck {
  private timer?: TimerHandle;
  private stopped = false;

  constructor(private readonly o: ToolRecheckOptions) {}

  start(): void {
    const refresh = this.o.refresh;
    if (!refresh || this.o.everyMs <= 0 || this.stopped) return;
    this.timer = this.o.timers.setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      if (this.o.idle()) {
        try {
          refresh();
        } catch (e) {
          this.o.logger.warn('tool status re-check failed', { error: String(e) });
        }
      }
      this.start();
    }, this.o.everyMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.o.timers.clearTimeout(this.timer);
  }
}
